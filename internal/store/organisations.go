package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/audit"
	"regpulse/internal/teams"
)

// Organisations (teams' types, issue 44): an organisation, its members
// and their roles, and the invitations that make members. Every call that
// changes one takes the teams.Actor who acts and appends its row to the
// organisation's audit trail in the same transaction (audit.go), so the
// change and its row commit together or not at all.
// A change that could leave an organisation without an admin takes the
// organisation's row first (lockOrganisation), so two of them at once
// cannot both pass the check.

const memberSelect = `SELECT m.organisation_id, m.user_id, u.username, u.email, u.first_name, u.last_name, m.role, m.joined_at, m.expires_at
	FROM organisation_members m JOIN users u ON u.id = m.user_id`

func scanMember(row interface{ Scan(...any) error }) (teams.Member, error) {
	var m teams.Member
	var joined string
	var expires sql.NullString
	if err := row.Scan(&m.OrganisationID, &m.UserID, &m.Username, &m.Email, &m.FirstName, &m.LastName, &m.Role, &joined, &expires); err != nil {
		return m, err
	}
	var err error
	if m.JoinedAt, err = time.Parse(time.RFC3339Nano, joined); err != nil {
		return m, err
	}
	m.ExpiresAt, err = nullTime(expires)
	return m, err
}

// nullTime reads a nullable time column.
func nullTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// nullTimeText is a nullable time column's value.
func nullTimeText(t *time.Time) any {
	if t == nil {
		return nil
	}
	return timeText(*t)
}

// CreateOrganisation makes an organisation of which by's user, its
// creator, is the first admin (by's organisation is the new one's), and
// starts its audit trail with the creation.
func (s *DB) CreateOrganisation(ctx context.Context, by teams.Actor, name string, entityTypes []string) (_ teams.Organisation, err error) {
	defer wrap(&err, "CreateOrganisation")
	if entityTypes == nil {
		entityTypes = []string{}
	}
	kinds, _ := json.Marshal(entityTypes)
	now := s.now().UTC()
	o := teams.Organisation{ID: uuid.NewString(), Name: name, EntityTypes: entityTypes, CreatedAt: now, Role: teams.RoleAdmin}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return o, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO organisations (id, name, entity_types, created_by, created_at) VALUES (?, ?, ?, ?, ?)`,
		o.ID, name, string(kinds), by.UserID, timeText(now)); err != nil {
		return o, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO organisation_members (organisation_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)`,
		o.ID, by.UserID, teams.RoleAdmin, timeText(now)); err != nil {
		return o, err
	}
	by.OrganisationID = o.ID
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "organisation.create", "organisation", o.ID, nil,
		map[string]any{"name": name, "entityTypes": entityTypes, "admin": by.UserID})); err != nil {
		return o, err
	}
	return o, tx.Commit()
}

// auditEntry is the audit row of a change by by.
func auditEntry(by teams.Actor, action, subjectType, subjectID string, before, after any) audit.Entry {
	return audit.Entry{OrgID: by.OrganisationID, ActorID: by.AuditID(), Action: action, SubjectType: subjectType, SubjectID: subjectID,
		Before: before, After: after, RequestID: by.RequestID, ClientAddr: by.ClientAddr}
}

// memberAudit is what the trail keeps of a membership.
func memberAudit(m teams.Member) map[string]any {
	return map[string]any{"role": m.Role, "expiresAt": m.ExpiresAt}
}

const organisationSelect = `SELECT o.id, o.name, o.entity_types, o.created_at, m.role, m.expires_at
	FROM organisations o JOIN organisation_members m ON m.organisation_id = o.id`

// organisationsWhere reads the organisations with the member's role,
// those of which the member is no longer one (an auditor's access ended)
// left out.
func (s *DB) organisationsWhere(ctx context.Context, where string, args ...any) ([]teams.Organisation, error) {
	rows, err := s.db.QueryContext(ctx, organisationSelect+" WHERE "+where+" ORDER BY o.name, o.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []teams.Organisation{}
	now := s.now()
	for rows.Next() {
		var o teams.Organisation
		var kinds, created string
		var expires sql.NullString
		if err := rows.Scan(&o.ID, &o.Name, &kinds, &created, &o.Role, &expires); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(kinds), &o.EntityTypes); err != nil {
			return nil, err
		}
		if o.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, err
		}
		end, err := nullTime(expires)
		if err != nil {
			return nil, err
		}
		if (teams.Member{Role: o.Role, ExpiresAt: end}).Active(now) {
			out = append(out, o)
		}
	}
	return out, rows.Err()
}

// UserOrganisations are the organisations userID is a member of, by
// name, each with the user's role.
func (s *DB) UserOrganisations(ctx context.Context, userID string) (_ []teams.Organisation, err error) {
	defer wrap(&err, "UserOrganisations")
	return s.organisationsWhere(ctx, "m.user_id = ?", userID)
}

// Organisation is the organisation id with userID's role in it;
// teams.ErrNoOrganisation when there is none or the user is not (or no
// longer) a member: one answer for both.
func (s *DB) Organisation(ctx context.Context, userID, id string) (_ teams.Organisation, err error) {
	defer wrap(&err, "Organisation")
	list, err := s.organisationsWhere(ctx, "m.user_id = ? AND o.id = ?", userID, id)
	if err != nil {
		return teams.Organisation{}, err
	}
	if len(list) == 0 {
		return teams.Organisation{}, teams.ErrNoOrganisation
	}
	return list[0], nil
}

// Membership is userID's membership of organisation orgID, active or
// not (teams.Member.Active says); teams.ErrNoMember when there is none.
func (s *DB) Membership(ctx context.Context, orgID, userID string) (_ teams.Member, err error) {
	defer wrap(&err, "Membership")
	return membership(ctx, s.db, orgID, userID)
}

func membership(ctx context.Context, q querier, orgID, userID string) (teams.Member, error) {
	m, err := scanMember(q.QueryRowContext(ctx, memberSelect+" WHERE m.organisation_id = ? AND m.user_id = ?", orgID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return m, teams.ErrNoMember
	}
	return m, err
}

// Members are the organisation's members, by name; an auditor whose
// access ended is one no longer.
func (s *DB) Members(ctx context.Context, orgID string) (_ []teams.Member, err error) {
	defer wrap(&err, "Members")
	rows, err := s.db.QueryContext(ctx, memberSelect+" WHERE m.organisation_id = ? ORDER BY u.first_name, u.last_name, u.username, u.id", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []teams.Member{}
	now := s.now()
	for rows.Next() {
		m, err := scanMember(rows)
		if err != nil {
			return nil, err
		}
		if m.Active(now) {
			out = append(out, m)
		}
	}
	return out, rows.Err()
}

// lockOrganisation takes the organisation's row for the transaction:
// its changes that check its admins run one at a time.
func lockOrganisation(ctx context.Context, tx *txConn, orgID string) error {
	res, err := tx.ExecContext(ctx, "UPDATE organisations SET id = id WHERE id = ?", orgID)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(err, teams.ErrNoOrganisation)
	}
	return nil
}

// keepsAdmin answers teams.ErrLastAdmin when m is the organisation's
// only admin (and is to stop being one).
func keepsAdmin(ctx context.Context, tx *txConn, m teams.Member) error {
	if m.Role != teams.RoleAdmin {
		return nil
	}
	var others int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM organisation_members WHERE organisation_id = ? AND role = ? AND user_id != ?",
		m.OrganisationID, teams.RoleAdmin, m.UserID).Scan(&others); err != nil {
		return err
	}
	if others == 0 {
		return teams.ErrLastAdmin
	}
	return nil
}

// SetMemberRole gives member userID of by's organisation role (and an
// auditor's end of access, nil for the other roles):
// teams.ErrNoMember for none (an auditor whose access ended included),
// teams.ErrLastAdmin when it would leave the organisation without an
// admin.
func (s *DB) SetMemberRole(ctx context.Context, by teams.Actor, userID, role string, expiresAt *time.Time) (_ teams.Member, err error) {
	defer wrap(&err, "SetMemberRole")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return teams.Member{}, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return teams.Member{}, err
	}
	m, err := membership(ctx, tx, by.OrganisationID, userID)
	if err != nil {
		return m, err
	}
	if !m.Active(s.now()) {
		return m, teams.ErrNoMember
	}
	if role != teams.RoleAdmin {
		if err := keepsAdmin(ctx, tx, m); err != nil {
			return m, err
		}
	}
	if role != teams.RoleAuditor {
		expiresAt = nil
	}
	if _, err := tx.ExecContext(ctx, "UPDATE organisation_members SET role = ?, expires_at = ? WHERE organisation_id = ? AND user_id = ?",
		role, nullTimeText(expiresAt), by.OrganisationID, userID); err != nil {
		return m, err
	}
	before := memberAudit(m)
	m.Role, m.ExpiresAt = role, expiresAt
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "member.role", "member", userID, before, memberAudit(m))); err != nil {
		return m, err
	}
	return m, tx.Commit()
}

// RemoveMember removes member userID from by's organisation:
// teams.ErrNoMember for none, teams.ErrLastAdmin for its only admin.
func (s *DB) RemoveMember(ctx context.Context, by teams.Actor, userID string) (err error) {
	defer wrap(&err, "RemoveMember")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return err
	}
	m, err := membership(ctx, tx, by.OrganisationID, userID)
	if err != nil {
		return err
	}
	if err := keepsAdmin(ctx, tx, m); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM organisation_members WHERE organisation_id = ? AND user_id = ?", by.OrganisationID, userID); err != nil {
		return err
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "member.remove", "member", userID, memberAudit(m), nil)); err != nil {
		return err
	}
	return tx.Commit()
}

const inviteColumns = `id, organisation_id, email, role, access_ends_at, COALESCE(invited_by, ''), created_at, expires_at, accepted_at`

func scanInvite(row interface{ Scan(...any) error }) (teams.Invite, error) {
	var inv teams.Invite
	var created, expires string
	var ends, accepted sql.NullString
	if err := row.Scan(&inv.ID, &inv.OrganisationID, &inv.Email, &inv.Role, &ends, &inv.InvitedBy, &created, &expires, &accepted); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			err = teams.ErrNoInvite
		}
		return inv, err
	}
	var err error
	if inv.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return inv, err
	}
	if inv.ExpiresAt, err = time.Parse(time.RFC3339Nano, expires); err != nil {
		return inv, err
	}
	if inv.AccessEndsAt, err = nullTime(ends); err != nil {
		return inv, err
	}
	inv.AcceptedAt, err = nullTime(accepted)
	return inv, err
}

// CreateInvite keeps inv (made by by, teams.NewInvite) with its link
// token's hash; it replaces an invitation of the same address to the
// organisation still waiting (its link stops working). A user of that
// address who is already a member: teams.ErrAlreadyMember.
func (s *DB) CreateInvite(ctx context.Context, by teams.Actor, inv teams.Invite, tokenHash string) (_ teams.Invite, err error) {
	defer wrap(&err, "CreateInvite")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return inv, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return inv, err
	}
	var userID string
	switch err := tx.QueryRowContext(ctx, "SELECT id FROM users WHERE email_key = ?", userKey(inv.Email)).Scan(&userID); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return inv, err
	default:
		m, err := membership(ctx, tx, by.OrganisationID, userID)
		if err == nil && m.Active(s.now()) {
			return inv, teams.ErrAlreadyMember
		}
		if err != nil && !errors.Is(err, teams.ErrNoMember) {
			return inv, err
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM organisation_invites WHERE organisation_id = ? AND email_key = ? AND accepted_at IS NULL",
		by.OrganisationID, userKey(inv.Email)); err != nil {
		return inv, err
	}
	inv.OrganisationID, inv.InvitedBy = by.OrganisationID, by.UserID
	if _, err := tx.ExecContext(ctx, `INSERT INTO organisation_invites (id, organisation_id, email, email_key, role, access_ends_at, token_hash,
		invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		inv.ID, inv.OrganisationID, inv.Email, userKey(inv.Email), inv.Role, nullTimeText(inv.AccessEndsAt), tokenHash,
		inv.InvitedBy, timeText(inv.CreatedAt), timeText(inv.ExpiresAt)); err != nil {
		return inv, err
	}
	// The link's token is not in the trail: only who was invited, how.
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "invite.create", "invite", inv.ID, nil,
		map[string]any{"email": inv.Email, "role": inv.Role, "accessEndsAt": inv.AccessEndsAt, "expiresAt": inv.ExpiresAt})); err != nil {
		return inv, err
	}
	return inv, tx.Commit()
}

// InviteByTokenHash is the invitation whose link token hashes to hash
// (teams.TokenHash); teams.ErrNoInvite when none does (replaced,
// expired away, or never made).
func (s *DB) InviteByTokenHash(ctx context.Context, hash string) (_ teams.Invite, err error) {
	defer wrap(&err, "InviteByTokenHash")
	return scanInvite(s.db.QueryRowContext(ctx, "SELECT "+inviteColumns+" FROM organisation_invites WHERE token_hash = ?", hash))
}

// AcceptInvite makes by's user a member of the invitation's organisation
// (by's) with its role, once: teams.ErrInviteUsed the second time,
// teams.ErrInviteExpired past its expiry, teams.ErrInviteEmail when the
// user's address is not the invited one, teams.ErrAlreadyMember when the
// user already is one.
func (s *DB) AcceptInvite(ctx context.Context, by teams.Actor, inviteID string) (_ teams.Member, err error) {
	defer wrap(&err, "AcceptInvite")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return teams.Member{}, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return teams.Member{}, err
	}
	inv, err := scanInvite(tx.QueryRowContext(ctx, "SELECT "+inviteColumns+" FROM organisation_invites WHERE id = ? AND organisation_id = ?",
		inviteID, by.OrganisationID))
	if err != nil {
		return teams.Member{}, err
	}
	var email string
	if err := tx.QueryRowContext(ctx, "SELECT email FROM users WHERE id = ?", by.UserID).Scan(&email); err != nil {
		return teams.Member{}, err
	}
	now := s.now().UTC()
	if err := inv.CheckAccept(email, now); err != nil {
		return teams.Member{}, err
	}
	m, err := membership(ctx, tx, by.OrganisationID, by.UserID)
	switch {
	case err == nil && m.Active(now):
		return m, teams.ErrAlreadyMember
	case err != nil && !errors.Is(err, teams.ErrNoMember):
		return m, err
	}
	res, err := tx.ExecContext(ctx, "UPDATE organisation_invites SET accepted_at = ?, accepted_by = ? WHERE id = ? AND accepted_at IS NULL",
		timeText(now), by.UserID, inv.ID)
	if err != nil {
		return teams.Member{}, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return teams.Member{}, errors.Join(err, teams.ErrInviteUsed)
	}
	// An auditor whose access ended comes back with the new one.
	if _, err := tx.ExecContext(ctx, `INSERT INTO organisation_members (organisation_id, user_id, role, joined_at, expires_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (organisation_id, user_id) DO UPDATE SET role = excluded.role, joined_at = excluded.joined_at, expires_at = excluded.expires_at`,
		by.OrganisationID, by.UserID, inv.Role, timeText(now), nullTimeText(inv.AccessEndsAt)); err != nil {
		return teams.Member{}, err
	}
	m, err = membership(ctx, tx, by.OrganisationID, by.UserID)
	if err != nil {
		return m, err
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "member.join", "member", by.UserID,
		map[string]any{"invite": inv.ID}, memberAudit(m))); err != nil {
		return m, err
	}
	return m, tx.Commit()
}

// ExpireInvites deletes the invitations not accepted by their expiry
// (their links no longer work anyway), and answers how many.
func (s *DB) ExpireInvites(ctx context.Context) (_ int, err error) {
	defer wrap(&err, "ExpireInvites")
	res, err := s.db.ExecContext(ctx, "DELETE FROM organisation_invites WHERE accepted_at IS NULL AND expires_at <= ?", timeText(s.now()))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
