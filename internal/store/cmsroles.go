package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"regpulse/internal/auth"
)

// The editors' web UI's roles (cms_roles): who may save drafts (editor)
// and who may also publish (reviewer). The names are internal/cms's
// RoleEditor and RoleReviewer; they are spelled here rather than imported
// so the store links none of the CMS's git code.
var cmsRoles = []string{"editor", "reviewer"}

// ErrBadCMSRole is a role that is neither editor, reviewer nor "".
var ErrBadCMSRole = errors.New("a CMS role is editor or reviewer")

// CMSRole is one account's grant.
type CMSRole struct {
	UserID    string
	Username  string
	Role      string
	GrantedAt time.Time
	GrantedBy string
}

// SetCMSRole gives the user named username (any case) the CMS role role,
// replacing any they had, or takes it away when role is "". by names who
// granted it (the operator's tool). auth.ErrNoUser when no user has that
// name, ErrBadCMSRole for another role.
func (s *DB) SetCMSRole(ctx context.Context, username, role, by string) (_ auth.User, err error) {
	defer wrap(&err, "SetCMSRole")
	if role != "" && role != cmsRoles[0] && role != cmsRoles[1] {
		return auth.User{}, fmt.Errorf("%w, not %q", ErrBadCMSRole, role)
	}
	u, err := s.userWhere(ctx, "username_key = ?", userKey(username))
	if err != nil {
		return auth.User{}, err
	}
	if role == "" {
		_, err = s.db.ExecContext(ctx, "DELETE FROM cms_roles WHERE user_id = ?", u.ID)
		return u, err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO cms_roles (user_id, role, granted_at, granted_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, granted_at = excluded.granted_at, granted_by = excluded.granted_by`,
		u.ID, role, timeText(s.now()), by)
	return u, err
}

// CMSRole is the CMS role of the account userID: "" when it has none
// (or no such account exists: the API asks for a signed-in user's).
func (s *DB) CMSRole(ctx context.Context, userID string) (_ string, err error) {
	defer wrap(&err, "CMSRole")
	var role string
	err = s.db.QueryRowContext(ctx, "SELECT role FROM cms_roles WHERE user_id = ?", userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return role, err
}

// ListCMSRoles returns every grant, by username.
func (s *DB) ListCMSRoles(ctx context.Context) (_ []CMSRole, err error) {
	defer wrap(&err, "ListCMSRoles")
	rows, err := s.db.QueryContext(ctx, `SELECT r.user_id, u.username, r.role, r.granted_at, r.granted_by
		FROM cms_roles r JOIN users u ON u.id = r.user_id ORDER BY u.username_key`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []CMSRole
	for rows.Next() {
		var r CMSRole
		var at string
		if err := rows.Scan(&r.UserID, &r.Username, &r.Role, &at, &r.GrantedBy); err != nil {
			return nil, err
		}
		if r.GrantedAt, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, fmt.Errorf("stored granted_at %q: %w", at, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
