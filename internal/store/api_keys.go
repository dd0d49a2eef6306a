package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"regpulse/internal/apikeys"
	"regpulse/internal/audit"
	"regpulse/internal/teams"
)

// API keys (apikeys' types, issue 47): an organisation's keys, stored as
// the hash of their token, created and revoked by an admin (each audited:
// apikey.create, apikey.revoke), looked up by hash on every request that
// sends one, and touched with their last use at most once a minute.

const apiKeySelect = `SELECT k.id, k.organisation_id, k.name, k.prefix, k.scope, k.expires_at, COALESCE(k.created_by, ''),
	COALESCE(u.first_name, ''), COALESCE(u.last_name, ''), COALESCE(u.username, ''), k.created_at, k.last_used_at, k.revoked_at
	FROM api_keys k LEFT JOIN users u ON u.id = k.created_by`

// touchLayout is last_used_at's: fixed width, so text order is time order
// and the touch compares in SQL.
const touchLayout = audit.TimeLayout

func scanAPIKey(row interface{ Scan(...any) error }) (apikeys.Key, error) {
	var k apikeys.Key
	var first, last, username, expires, created string
	var used, revoked sql.NullString
	if err := row.Scan(&k.ID, &k.OrganisationID, &k.Name, &k.Prefix, &k.Scope, &expires, &k.CreatedBy,
		&first, &last, &username, &created, &used, &revoked); err != nil {
		return k, err
	}
	k.CreatedByName = strings.TrimSpace(first + " " + last)
	if k.CreatedByName == "" {
		k.CreatedByName = username
	}
	var err error
	if k.ExpiresAt, err = time.Parse(time.RFC3339Nano, expires); err != nil {
		return k, err
	}
	if k.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return k, err
	}
	if k.LastUsedAt, err = nullTime(used); err != nil {
		return k, err
	}
	k.RevokedAt, err = nullTime(revoked)
	return k, err
}

// apiKeyAudit is what the trail keeps of a key: never its hash.
func apiKeyAudit(k apikeys.Key) map[string]any {
	return map[string]any{"name": k.Name, "prefix": k.Prefix, "scope": k.Scope, "expiresAt": k.ExpiresAt, "revokedAt": k.RevokedAt}
}

// CreateAPIKey stores k (its id, name, prefix, scope and expiry; the
// rest is set here) with its token's hash, as by's organisation's, and
// answers it as stored.
func (s *DB) CreateAPIKey(ctx context.Context, by teams.Actor, k apikeys.Key, hash string) (_ apikeys.Key, err error) {
	defer wrap(&err, "CreateAPIKey")
	now := s.now().UTC()
	k.OrganisationID, k.CreatedBy, k.CreatedAt, k.LastUsedAt, k.RevokedAt = by.OrganisationID, by.UserID, now, nil, nil
	k.ExpiresAt = k.ExpiresAt.UTC()
	var createdBy any
	if by.UserID != "" {
		createdBy = by.UserID
	}
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO api_keys (id, organisation_id, name, token_hash, prefix, scope, expires_at, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			k.ID, k.OrganisationID, k.Name, hash, k.Prefix, string(k.Scope), timeText(k.ExpiresAt), createdBy, timeText(now)); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "apikey.create", "apikey", k.ID, nil, apiKeyAudit(k)), nil
	})
	if err != nil {
		return k, err
	}
	return s.apiKey(ctx, s.db, k.OrganisationID, k.ID)
}

func (s *DB) apiKey(ctx context.Context, q querier, orgID, id string) (apikeys.Key, error) {
	k, err := scanAPIKey(q.QueryRowContext(ctx, apiKeySelect+" WHERE k.organisation_id = ? AND k.id = ?", orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return k, apikeys.ErrNoKey
	}
	return k, err
}

// APIKeys are organisation orgID's keys, revoked and expired ones too,
// newest first.
func (s *DB) APIKeys(ctx context.Context, orgID string) (_ []apikeys.Key, err error) {
	defer wrap(&err, "APIKeys")
	rows, err := s.db.QueryContext(ctx, apiKeySelect+" WHERE k.organisation_id = ? ORDER BY k.created_at DESC, k.id", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []apikeys.Key{}
	for rows.Next() {
		k, err := scanAPIKey(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeAPIKey revokes by's organisation's key id from now on
// (apikeys.ErrNoKey for none of its keys). Revoking a revoked key
// changes nothing and records nothing.
func (s *DB) RevokeAPIKey(ctx context.Context, by teams.Actor, id string) (_ apikeys.Key, err error) {
	defer wrap(&err, "RevokeAPIKey")
	var k apikeys.Key
	errDone := errors.New("already revoked")
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		before, err := s.apiKey(ctx, tx, by.OrganisationID, id)
		if err != nil {
			return audit.Entry{}, err
		}
		if before.RevokedAt != nil {
			k = before
			return audit.Entry{}, errDone
		}
		now := s.now().UTC()
		if _, err := tx.ExecContext(ctx, "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", timeText(now), id); err != nil {
			return audit.Entry{}, err
		}
		k = before
		k.RevokedAt = &now
		return auditEntry(by, "apikey.revoke", "apikey", id, apiKeyAudit(before), apiKeyAudit(k)), nil
	})
	if errors.Is(err, errDone) {
		return k, nil
	}
	return k, err
}

// APIKeyByHash is the key whose token hashes to hash, whatever its state
// (apikeys.Key.Check says whether it works); apikeys.ErrNoKey for none.
func (s *DB) APIKeyByHash(ctx context.Context, hash string) (_ apikeys.Key, err error) {
	defer wrap(&err, "APIKeyByHash")
	k, err := scanAPIKey(s.db.QueryRowContext(ctx, apiKeySelect+" WHERE k.token_hash = ?", hash))
	if errors.Is(err, sql.ErrNoRows) {
		return k, apikeys.ErrNoKey
	}
	return k, err
}

// TouchAPIKey records a use of key id at at, unless one was recorded
// less than apikeys.TouchEvery before: the caller asks only when the key
// it read says so (apikeys.Key.NeedsTouch), and the condition keeps
// instances racing to one write a minute. It reports whether it wrote.
func (s *DB) TouchAPIKey(ctx context.Context, id string, at time.Time) (_ bool, err error) {
	defer wrap(&err, "TouchAPIKey")
	at = at.UTC()
	res, err := s.db.ExecContext(ctx, "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)",
		at.Format(touchLayout), id, at.Add(-apikeys.TouchEvery).Format(touchLayout))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// KeyOrganisation is organisation id as a key of it sees it: no member's
// role (the API gives the key's); teams.ErrNoOrganisation for none.
func (s *DB) KeyOrganisation(ctx context.Context, id string) (_ teams.Organisation, err error) {
	defer wrap(&err, "KeyOrganisation")
	var o teams.Organisation
	var kinds, created string
	err = s.db.QueryRowContext(ctx, "SELECT id, name, entity_types, created_at FROM organisations WHERE id = ?", id).Scan(&o.ID, &o.Name, &kinds, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return o, teams.ErrNoOrganisation
	}
	if err != nil {
		return o, err
	}
	if err := json.Unmarshal([]byte(kinds), &o.EntityTypes); err != nil {
		return o, err
	}
	o.CreatedAt, err = time.Parse(time.RFC3339Nano, created)
	return o, err
}
