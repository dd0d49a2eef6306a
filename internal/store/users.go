package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/auth"
	"regpulse/internal/i18n"
)

// Accounts: users and their preferences (auth's types). Usernames and
// e-mail addresses are unique whatever their case; the key columns hold
// them lower-cased.

const userColumns = `id, username, email, first_name, last_name, role, is_verified, created_at,
	last_login_at, password_hash, token_version, language`

// userKey is the form a username or e-mail is unique in.
func userKey(s string) string { return strings.ToLower(s) }

// languageOf is the stored language of code: the site's language of
// that code, English for "" or one the site lacks.
func languageOf(code string) string { return i18n.Of(code).Code }

func timeText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func scanUser(row interface{ Scan(...any) error }) (auth.User, error) {
	var u auth.User
	var created string
	var last sql.NullString
	err := row.Scan(&u.ID, &u.Username, &u.Email, &u.FirstName, &u.LastName, &u.Role, &u.IsVerified, &created,
		&last, &u.PasswordHash, &u.TokenVersion, &u.Language)
	if errors.Is(err, sql.ErrNoRows) {
		return auth.User{}, auth.ErrNoUser
	}
	if err != nil {
		return auth.User{}, err
	}
	if u.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return auth.User{}, fmt.Errorf("stored created_at %q: %w", created, err)
	}
	if last.Valid {
		if u.LastLoginAt, err = time.Parse(time.RFC3339Nano, last.String); err != nil {
			return auth.User{}, fmt.Errorf("stored last_login_at %q: %w", last.String, err)
		}
	}
	return u, nil
}

// takenError maps a unique-constraint failure to the field taken.
func takenError(err error) error {
	switch {
	case uniqueViolation(err, "username_key"):
		return auth.ErrUsernameTaken
	case uniqueViolation(err, "email_key"):
		return auth.ErrEmailTaken
	}
	return err
}

// CreateUser stores a new user, role 'user', not verified, with the
// default preferences. A username or e-mail already taken (in any case)
// is auth.ErrUsernameTaken or auth.ErrEmailTaken.
func (s *DB) CreateUser(ctx context.Context, nu auth.NewUser) (_ auth.User, err error) {
	defer wrap(&err, "CreateUser")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return auth.User{}, err
	}
	defer tx.Rollback()
	u, err := s.createUser(ctx, tx, nu)
	if err != nil {
		return auth.User{}, err
	}
	if err := tx.Commit(); err != nil {
		return auth.User{}, err
	}
	return u, nil
}

// createUser is CreateUser in tx (single sign-on adds the membership in
// the same transaction).
func (s *DB) createUser(ctx context.Context, tx *txConn, nu auth.NewUser) (auth.User, error) {
	now := s.now().UTC()
	u := auth.User{ID: uuid.NewString(), Username: nu.Username, Email: nu.Email, FirstName: nu.FirstName,
		LastName: nu.LastName, Role: auth.RoleUser, CreatedAt: now, PasswordHash: nu.PasswordHash, Language: languageOf(nu.Language)}
	_, err := tx.ExecContext(ctx, `INSERT INTO users (id, username, username_key, email, email_key, password_hash,
		first_name, last_name, role, created_at, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		u.ID, u.Username, userKey(u.Username), u.Email, userKey(u.Email), u.PasswordHash, u.FirstName, u.LastName, u.Role, timeText(now),
		u.Language)
	if err != nil {
		if taken := takenError(err); taken != err {
			return auth.User{}, taken
		}
		return auth.User{}, err
	}
	if err := putChoices(ctx, tx, u.ID, auth.DefaultChoices(), now); err != nil {
		return auth.User{}, err
	}
	if err := putPreferencesAlert(ctx, tx, u.ID, now); err != nil {
		return auth.User{}, err
	}
	if err := markSubscribedUser(ctx, tx, u.ID, userKey(u.Email)); err != nil {
		return auth.User{}, err
	}
	return u, nil
}

// UserByUsername finds a user by username in any case; auth.ErrNoUser if none.
func (s *DB) UserByUsername(ctx context.Context, username string) (_ auth.User, err error) {
	defer wrap(&err, "UserByUsername")
	return s.userWhere(ctx, "username_key = ?", userKey(username))
}

// UserByID finds a user by id; auth.ErrNoUser if none.
func (s *DB) UserByID(ctx context.Context, id string) (_ auth.User, err error) {
	defer wrap(&err, "UserByID")
	return s.userWhere(ctx, "id = ?", id)
}

func (s *DB) userWhere(ctx context.Context, cond string, arg any) (auth.User, error) {
	return scanUser(s.db.QueryRowContext(ctx, "SELECT "+userColumns+" FROM users WHERE "+cond, arg))
}

// ListUsers returns every user, oldest first.
func (s *DB) ListUsers(ctx context.Context) (_ []auth.User, err error) {
	defer wrap(&err, "ListUsers")
	rows, err := s.db.QueryContext(ctx, "SELECT "+userColumns+" FROM users ORDER BY created_at, username_key")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []auth.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// updateUser runs an UPDATE of one user and returns the user after it.
func (s *DB) updateUser(ctx context.Context, id, set string, args ...any) (auth.User, error) {
	res, err := s.db.ExecContext(ctx, "UPDATE users SET "+set+" WHERE id = ?", append(args, id)...)
	if err != nil {
		if taken := takenError(err); taken != err {
			return auth.User{}, taken
		}
		return auth.User{}, err
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return auth.User{}, auth.ErrNoUser
	}
	return s.userWhere(ctx, "id = ?", id)
}

// RecordLogin sets the user's last sign-in to at.
func (s *DB) RecordLogin(ctx context.Context, id string, at time.Time) (err error) {
	defer wrap(&err, "RecordLogin")
	_, err = s.updateUser(ctx, id, "last_login_at = ?", timeText(at))
	return err
}

// UpdateProfile sets the user's names and e-mail (auth.ErrEmailTaken when
// another user has it), and their language unless p's is "". A newsletter subscription under the old address
// moves to the new one, unless the new one is subscribed already: the
// subscriber and the user's newsletterSubscription stay in step.
func (s *DB) UpdateProfile(ctx context.Context, id string, p auth.Profile) (_ auth.User, err error) {
	defer wrap(&err, "UpdateProfile")
	old, err := s.userWhere(ctx, "id = ?", id)
	if err != nil {
		return auth.User{}, err
	}
	lang := old.Language
	if p.Language != "" {
		lang = languageOf(p.Language)
	}
	u, err := s.updateUser(ctx, id, "first_name = ?, last_name = ?, email = ?, email_key = ?, language = ?", p.FirstName, p.LastName, p.Email,
		userKey(p.Email), lang)
	if err != nil {
		return auth.User{}, err
	}
	if oldKey, newKey := userKey(old.Email), userKey(p.Email); oldKey != newKey {
		_, err = s.db.ExecContext(ctx, `UPDATE newsletter_subscribers SET email = ?, email_key = ?
			WHERE email_key = ? AND NOT EXISTS (SELECT 1 FROM newsletter_subscribers WHERE email_key = ?)`,
			p.Email, newKey, oldKey, newKey)
		if err != nil {
			return auth.User{}, fmt.Errorf("move the subscription to the new address: %w", err)
		}
	}
	return u, nil
}

// SetPassword replaces the user's password hash and raises the token
// version, revoking every token issued before.
func (s *DB) SetPassword(ctx context.Context, id, hash string) (_ auth.User, err error) {
	defer wrap(&err, "SetPassword")
	return s.updateUser(ctx, id, "password_hash = ?, token_version = token_version + 1", hash)
}

// RevokeTokens raises the user's token version: every token issued before
// is refused (log out everywhere).
func (s *DB) RevokeTokens(ctx context.Context, id string) (_ auth.User, err error) {
	defer wrap(&err, "RevokeTokens")
	return s.updateUser(ctx, id, "token_version = token_version + 1")
}

// SetRole gives the user named username (any case) a role of auth.Roles.
func (s *DB) SetRole(ctx context.Context, username, role string) (_ auth.User, err error) {
	defer wrap(&err, "SetRole")
	u, err := s.userWhere(ctx, "username_key = ?", userKey(username))
	if err != nil {
		return auth.User{}, err
	}
	return s.updateUser(ctx, u.ID, "role = ?", role)
}

// DeleteUser removes a user and their preferences; their tokens are
// refused from then on.
func (s *DB) DeleteUser(ctx context.Context, id string) (err error) {
	defer wrap(&err, "DeleteUser")
	res, err := s.db.ExecContext(ctx, "DELETE FROM users WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return auth.ErrNoUser
	}
	return nil
}

// Preferences returns the user's preferences (auth.ErrNoUser if none).
func (s *DB) Preferences(ctx context.Context, userID string) (_ auth.Preferences, err error) {
	defer wrap(&err, "Preferences")
	p := auth.Preferences{UserID: userID}
	var sources, levels, categories, entityTypes, updated string
	err = s.db.QueryRowContext(ctx, `SELECT id, circular_sources, impact_levels, categories, entity_types, email_notifications,
		newsletter_subscription, mention_emails, reminder_emails, updated_at FROM user_preferences WHERE user_id = ?`, userID).
		Scan(&p.ID, &sources, &levels, &categories, &entityTypes, &p.EmailNotifications, &p.NewsletterSubscription,
			&p.MentionEmails, &p.ReminderEmails, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return auth.Preferences{}, auth.ErrNoUser
	}
	if err != nil {
		return auth.Preferences{}, err
	}
	for _, c := range []struct {
		text string
		list *[]string
	}{{sources, &p.CircularSources}, {levels, &p.ImpactLevels}, {categories, &p.Categories}, {entityTypes, &p.EntityTypes}} {
		if err := json.Unmarshal([]byte(c.text), c.list); err != nil {
			return auth.Preferences{}, err
		}
		if *c.list == nil {
			*c.list = []string{}
		}
	}
	if p.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return auth.Preferences{}, err
	}
	return p, nil
}

// SavePreferences replaces the user's preferences with c.
func (s *DB) SavePreferences(ctx context.Context, userID string, c auth.Choices) (_ auth.Preferences, err error) {
	defer wrap(&err, "SavePreferences")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return auth.Preferences{}, err
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM users WHERE id = ?", userID).Scan(&exists); err != nil {
		return auth.Preferences{}, err
	}
	if exists == 0 {
		return auth.Preferences{}, auth.ErrNoUser
	}
	if err := putChoices(ctx, tx, userID, c, s.now()); err != nil {
		return auth.Preferences{}, err
	}
	if err := syncUserSubscriber(ctx, tx, userID, c.NewsletterSubscription, s.now().UTC()); err != nil {
		return auth.Preferences{}, err
	}
	if err := tx.Commit(); err != nil {
		return auth.Preferences{}, err
	}
	return s.Preferences(ctx, userID)
}

func putChoices(ctx context.Context, tx *txConn, userID string, c auth.Choices, now time.Time) error {
	list := func(l []string) string {
		if l == nil {
			l = []string{}
		}
		b, _ := json.Marshal(l)
		return string(b)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO user_preferences (id, user_id, circular_sources, impact_levels, categories,
		entity_types, email_notifications, newsletter_subscription, mention_emails, reminder_emails, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET circular_sources = excluded.circular_sources, impact_levels = excluded.impact_levels,
		categories = excluded.categories, entity_types = excluded.entity_types, email_notifications = excluded.email_notifications,
		newsletter_subscription = excluded.newsletter_subscription, mention_emails = excluded.mention_emails,
		reminder_emails = excluded.reminder_emails, updated_at = excluded.updated_at`,
		uuid.NewString(), userID, list(c.CircularSources), list(c.ImpactLevels), list(c.Categories), list(c.EntityTypes),
		c.EmailNotifications, c.NewsletterSubscription, c.MentionEmails, c.ReminderEmails, timeText(now))
	return err
}
