package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/sso"
	"regpulse/internal/teams"
)

// Single sign-on (sso's types, issue 44): an organisation's provider
// settings and e-mail domains, the states of finished sign-ins (each
// accepted once), and the sign-in itself, which makes the account and
// the membership of someone new. Changing the settings appends
// sso.update to the organisation's audit trail, proving domains
// sso.verify; someone joining through single sign-on appends
// member.sso_join.

// SSOSettings are organisation orgID's settings; sso.ErrNotConfigured
// when it has none.
func (s *DB) SSOSettings(ctx context.Context, orgID string) (_ sso.Settings, err error) {
	defer wrap(&err, "SSOSettings")
	return ssoSettings(ctx, s.db, orgID)
}

func ssoSettings(ctx context.Context, q querier, orgID string) (sso.Settings, error) {
	st := sso.Settings{OrganisationID: orgID, Domains: []string{}, VerifiedDomains: []string{}}
	var updated string
	err := q.QueryRowContext(ctx, "SELECT issuer, client_id, client_secret, verification, enabled, updated_at FROM organisation_sso WHERE organisation_id = ?", orgID).
		Scan(&st.Issuer, &st.ClientID, &st.ClientSecret, &st.Verification, &st.Enabled, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return st, sso.ErrNotConfigured
	}
	if err != nil {
		return st, err
	}
	if st.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return st, err
	}
	rows, err := q.QueryContext(ctx, "SELECT domain, verified_at IS NOT NULL FROM organisation_sso_domains WHERE organisation_id = ? ORDER BY domain", orgID)
	if err != nil {
		return st, err
	}
	defer rows.Close()
	for rows.Next() {
		var d string
		var verified bool
		if err := rows.Scan(&d, &verified); err != nil {
			return st, err
		}
		st.Domains = append(st.Domains, d)
		if verified {
			st.VerifiedDomains = append(st.VerifiedDomains, d)
		}
	}
	return st, rows.Err()
}

// ssoAudit is what the trail keeps of settings: never the secret, only
// whether there is one.
func ssoAudit(st sso.Settings) map[string]any {
	return map[string]any{"issuer": st.Issuer, "clientId": st.ClientID, "clientSecretSet": st.ClientSecret != "",
		"domains": st.Domains, "verifiedDomains": st.VerifiedDomains, "enabled": st.Enabled}
}

// SaveSSOSettings stores st (sso.Check's) as by's organisation's
// settings. A domain kept keeps its verification; a new one waits for
// VerifySSODomains.
func (s *DB) SaveSSOSettings(ctx context.Context, by teams.Actor, st sso.Settings) (_ sso.Settings, err error) {
	defer wrap(&err, "SaveSSOSettings")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return st, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return st, err
	}
	old, err := ssoSettings(ctx, tx, by.OrganisationID)
	var before any
	switch {
	case err == nil:
		before = ssoAudit(old)
	case !errors.Is(err, sso.ErrNotConfigured):
		return st, err
	}
	verifiedAt := map[string]string{}
	rows, err := tx.QueryContext(ctx, "SELECT domain, verified_at FROM organisation_sso_domains WHERE organisation_id = ? AND verified_at IS NOT NULL", by.OrganisationID)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var d, at string
		if err := rows.Scan(&d, &at); err != nil {
			rows.Close()
			return st, err
		}
		verifiedAt[d] = at
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, err
	}
	if st.Verification == "" {
		st.Verification = cmp.Or(old.Verification, sso.NewVerification())
	}
	st.OrganisationID, st.UpdatedAt = by.OrganisationID, s.now().UTC()
	if _, err := tx.ExecContext(ctx, `INSERT INTO organisation_sso (organisation_id, issuer, client_id, client_secret, verification, enabled, updated_by, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organisation_id) DO UPDATE SET issuer = excluded.issuer, client_id = excluded.client_id,
		client_secret = excluded.client_secret, verification = excluded.verification, enabled = excluded.enabled, updated_by = excluded.updated_by,
		updated_at = excluded.updated_at`,
		st.OrganisationID, st.Issuer, st.ClientID, st.ClientSecret, st.Verification, st.Enabled, by.UserID, timeText(st.UpdatedAt)); err != nil {
		return st, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM organisation_sso_domains WHERE organisation_id = ?", st.OrganisationID); err != nil {
		return st, err
	}
	st.VerifiedDomains = []string{}
	for _, d := range st.Domains {
		var at any
		if v, ok := verifiedAt[d]; ok {
			at = v
			st.VerifiedDomains = append(st.VerifiedDomains, d)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO organisation_sso_domains (organisation_id, domain, verified_at) VALUES (?, ?, ?)",
			st.OrganisationID, d, at); err != nil {
			return st, err
		}
	}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "sso.update", "sso", st.OrganisationID, before, ssoAudit(st))); err != nil {
		return st, err
	}
	return st, tx.Commit()
}

// VerifySSODomains marks domains of by's organisation verified (their
// DNS records found, sso.Verify) and appends sso.verify:
// sso.ErrDomainTaken, naming the domain, when another organisation has
// verified one already.
func (s *DB) VerifySSODomains(ctx context.Context, by teams.Actor, domains []string) (_ sso.Settings, err error) {
	defer wrap(&err, "VerifySSODomains")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return sso.Settings{}, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
		return sso.Settings{}, err
	}
	now := timeText(s.now())
	done := []string{}
	for _, d := range domains {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM organisation_sso_domains WHERE domain = ? AND organisation_id != ? AND verified_at IS NOT NULL",
			d, by.OrganisationID).Scan(&n); err != nil {
			return sso.Settings{}, err
		}
		if n > 0 {
			return sso.Settings{}, fmt.Errorf("%w: %s", sso.ErrDomainTaken, d)
		}
		res, err := tx.ExecContext(ctx, "UPDATE organisation_sso_domains SET verified_at = ? WHERE organisation_id = ? AND domain = ? AND verified_at IS NULL",
			now, by.OrganisationID, d)
		if err != nil {
			return sso.Settings{}, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return sso.Settings{}, err
		} else if n > 0 {
			done = append(done, d)
		}
	}
	if len(done) > 0 {
		if _, err := s.appendAudit(ctx, tx, auditEntry(by, "sso.verify", "sso", by.OrganisationID, nil, map[string]any{"domains": done})); err != nil {
			return sso.Settings{}, err
		}
	}
	st, err := ssoSettings(ctx, tx, by.OrganisationID)
	if err != nil {
		return st, err
	}
	return st, tx.Commit()
}

// SSOByDomain are the settings of the organisation that has verified
// domain (lower case), enabled or not; sso.ErrNoOrganisation when none
// has.
func (s *DB) SSOByDomain(ctx context.Context, domain string) (_ sso.Settings, err error) {
	defer wrap(&err, "SSOByDomain")
	var orgID string
	err = s.db.QueryRowContext(ctx, "SELECT organisation_id FROM organisation_sso_domains WHERE domain = ? AND verified_at IS NOT NULL",
		strings.ToLower(domain)).Scan(&orgID)
	if errors.Is(err, sql.ErrNoRows) {
		return sso.Settings{}, sso.ErrNoOrganisation
	}
	if err != nil {
		return sso.Settings{}, err
	}
	return ssoSettings(ctx, s.db, orgID)
}

// UseSSOState records a finished sign-in's state (sso.Flow.StateHash)
// until expires, when its flow would be refused anyway: sso.ErrBadFlow
// when it was recorded already (a replayed callback). States past
// their expiry are forgotten as new ones come.
func (s *DB) UseSSOState(ctx context.Context, stateHash string, expires time.Time) (err error) {
	defer wrap(&err, "UseSSOState")
	if _, err := s.db.ExecContext(ctx, "DELETE FROM sso_used_states WHERE expires_at <= ?", timeText(s.now())); err != nil {
		return err
	}
	res, err := s.db.ExecContext(ctx, "INSERT INTO sso_used_states (state_hash, expires_at) VALUES (?, ?) ON CONFLICT (state_hash) DO NOTHING",
		stateHash, timeText(expires))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return errors.Join(err, sso.ErrBadFlow)
	}
	return nil
}

// SSOSignIn is the account of id's e-mail address, signing in through
// organisation orgID's single sign-on. Someone without an account gets
// one (nu, the address's, with a password no one knows) and joins the
// organisation as a member (member.sso_join in its trail); a member
// keeps their role. An account that exists but is not an active member
// of the organisation is refused (sso.ErrNotMember): the organisation's
// provider may not take over an account made outside it.
func (s *DB) SSOSignIn(ctx context.Context, orgID string, id sso.Identity, nu auth.NewUser) (_ auth.User, err error) {
	defer wrap(&err, "SSOSignIn")
	nu.Email = id.Email
	u, err := s.userWhere(ctx, "email_key = ?", userKey(id.Email))
	if err == nil {
		m, err := s.Membership(ctx, orgID, u.ID)
		if errors.Is(err, teams.ErrNoMember) || err == nil && !m.Active(s.now()) {
			return u, sso.ErrNotMember
		}
		return u, err
	}
	if !errors.Is(err, auth.ErrNoUser) {
		return u, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return u, err
	}
	defer tx.Rollback()
	if err := lockOrganisation(ctx, tx, orgID); err != nil {
		return u, err
	}
	// A free username: the address's local part, numbered when taken
	// (looked up first: a failed insert would end PostgreSQL's
	// transaction).
	base := nu.Username
	for i := 2; ; i++ {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM users WHERE username_key = ?", userKey(nu.Username)).Scan(&n); err != nil {
			return u, err
		}
		if n == 0 {
			break
		}
		nu.Username = fmt.Sprintf("%s%d", base, i)
	}
	// An account made meanwhile for the address fails here
	// (auth.ErrEmailTaken): that sign-in joined.
	if u, err = s.createUser(ctx, tx, nu); err != nil {
		return u, err
	}
	now := s.now().UTC()
	if _, err := tx.ExecContext(ctx, "INSERT INTO organisation_members (organisation_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)",
		orgID, u.ID, teams.RoleMember, timeText(now)); err != nil {
		return u, err
	}
	by := teams.Actor{UserID: u.ID, OrganisationID: orgID}
	if _, err := s.appendAudit(ctx, tx, auditEntry(by, "member.sso_join", "member", u.ID,
		map[string]any{"issuer": id.Issuer, "subject": id.Subject}, map[string]any{"role": teams.RoleMember, "expiresAt": nil})); err != nil {
		return u, err
	}
	return u, tx.Commit()
}
