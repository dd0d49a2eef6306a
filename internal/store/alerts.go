package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/alerts"
	"regpulse/internal/webhooks"
)

// The alerts themselves: a user's (their preferences' and saved
// searches) and anonymous subscriptions, made, read, changed, stopped. A
// preferences alert's filters and on/off are read from user_preferences,
// never copied. What they match is alert_matches.go's, their e-mails
// alert_sends.go's, the bouncing addresses and the runs' lock
// alert_runs.go's.

// alertSelect reads an alert with what it follows: its user's address,
// preferences and language (an anonymous subscription's own).
const alertSelect = `SELECT a.id, a.kind, a.name, a.query,
	CASE WHEN a.kind = 'preferences' THEN p.circular_sources ELSE a.sources END,
	CASE WHEN a.kind = 'preferences' THEN p.categories ELSE a.categories END,
	a.document_types,
	CASE WHEN a.kind = 'preferences' THEN p.impact_levels ELSE a.impact_levels END,
	COALESCE(p.entity_types, '[]'), a.frequency,
	CASE WHEN a.kind = 'preferences' THEN p.email_notifications ELSE a.enabled END,
	a.feed_token, a.created_at, a.last_sent_at, COALESCE(a.user_id, ''), COALESCE(u.email, a.email),
	a.confirmed_at IS NOT NULL, a.folded,
	COALESCE((SELECT w.kind FROM webhook_endpoints w WHERE w.alert_id = a.id), ''),
	COALESCE((SELECT w.url FROM webhook_endpoints w WHERE w.alert_id = a.id), ''),
	COALESCE(u.language, a.language)
	FROM alerts a LEFT JOIN users u ON u.id = a.user_id LEFT JOIN user_preferences p ON p.user_id = a.user_id`

// alertActive is the condition of an alert that may send: on, confirmed,
// and not to a bouncing address.
const alertActive = `(CASE WHEN a.kind = 'preferences' THEN p.email_notifications ELSE a.enabled END)
	AND a.confirmed_at IS NOT NULL
	AND NOT EXISTS (SELECT 1 FROM alert_addresses b WHERE b.email_key = COALESCE(u.email_key, a.email_key) AND b.bouncing)`

func scanAlert(row interface{ Scan(...any) error }, extra ...any) (alerts.Alert, error) {
	var a alerts.Alert
	var sources, categories, types, levels, business, created string
	var lastSent sql.NullString
	err := row.Scan(append([]any{&a.ID, &a.Kind, &a.Name, &a.Query, &sources, &categories, &types, &levels, &business,
		&a.Frequency, &a.Enabled, &a.FeedToken, &created, &lastSent, &a.UserID, &a.Email, &a.Confirmed, &a.Folded,
		&a.ChannelKind, &a.ChannelURL, &a.Language}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return a, alerts.ErrNoAlert
	}
	if err != nil {
		return a, err
	}
	var entity []string
	for _, c := range []struct {
		text string
		list *[]string
	}{{sources, &a.Sources}, {categories, &a.Categories}, {types, &a.DocumentTypes}, {levels, &a.ImpactLevels}, {business, &entity}} {
		if err := json.Unmarshal([]byte(c.text), c.list); err != nil {
			return a, fmt.Errorf("alert %s: stored list %q: %w", a.ID, c.text, err)
		}
		if *c.list == nil {
			*c.list = []string{}
		}
	}
	// A preferences alert is for the user's business; a search's filters
	// are the search's, and the business only judges impact in e-mails.
	a.EntityTypes, a.Business = []string{}, entity
	if a.Kind == alerts.KindPreferences {
		a.EntityTypes = entity
	}
	if a.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return a, err
	}
	a.Description = a.Describe()
	if lastSent.Valid {
		t, err := time.Parse(time.RFC3339Nano, lastSent.String)
		if err != nil {
			return a, err
		}
		a.LastSentAt = &t
	}
	return a, nil
}

func listText(l []string) string {
	if l == nil {
		l = []string{}
	}
	b, _ := json.Marshal(l)
	return string(b)
}

// newFeedToken is an unguessable token: 24 random bytes.
func newFeedToken() string {
	b := make([]byte, 24)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CreateAlert stores a saved search: a user's (a.UserID, confirmed at
// once; its e-mails in the user's language) or an anonymous subscription
// (a.Email, unconfirmed until ConfirmAlert; its e-mails in a.Language).
func (s *DB) CreateAlert(ctx context.Context, a alerts.Alert) (_ alerts.Alert, err error) {
	defer wrap(&err, "CreateAlert")
	now := timeText(s.now())
	var user, confirmed any
	if a.UserID != "" {
		user, confirmed = a.UserID, now
	}
	id := uuid.NewString()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return alerts.Alert{}, err
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `INSERT INTO alerts (id, user_id, email, email_key, kind, name, query, sources, categories,
		document_types, impact_levels, frequency, enabled, confirmed_at, feed_token, created_at, updated_at, language)
		VALUES (?, ?, ?, ?, 'search', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, user, a.Email, userKey(a.Email), a.Name, a.Query, listText(a.Sources), listText(a.Categories),
		listText(a.DocumentTypes), listText(a.ImpactLevels), a.Frequency, a.Enabled, confirmed, newFeedToken(), now, now, languageOf(a.Language))
	if err != nil {
		return alerts.Alert{}, err
	}
	if err := putAlertChannel(ctx, tx, id, a, now); err != nil {
		return alerts.Alert{}, err
	}
	if err := tx.Commit(); err != nil {
		return alerts.Alert{}, err
	}
	return s.alertWhere(ctx, "a.id = ?", id)
}

// putPreferencesAlert gives a user their preferences alert (daily) if
// they have none: created with the user's preferences.
func putPreferencesAlert(ctx context.Context, tx *txConn, userID string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO alerts (id, user_id, kind, name, frequency, confirmed_at, feed_token, created_at, updated_at)
		VALUES (?, ?, 'preferences', 'My preferences', 'daily', ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		uuid.NewString(), userID, timeText(now), newFeedToken(), timeText(now), timeText(now))
	return err
}

func (s *DB) alertWhere(ctx context.Context, cond string, args ...any) (alerts.Alert, error) {
	return scanAlert(s.db.QueryRowContext(ctx, alertSelect+" WHERE "+cond, args...))
}

func (s *DB) alertsWhere(ctx context.Context, cond, order string, args ...any) ([]alerts.Alert, error) {
	rows, err := s.db.QueryContext(ctx, alertSelect+" WHERE "+cond+" ORDER BY "+order, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []alerts.Alert{}
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// UserAlerts returns the user's alerts: their preferences' first, then
// their saved searches, oldest first.
func (s *DB) UserAlerts(ctx context.Context, userID string) (_ []alerts.Alert, err error) {
	defer wrap(&err, "UserAlerts")
	return s.alertsWhere(ctx, "a.user_id = ?", "CASE WHEN a.kind = 'preferences' THEN 0 ELSE 1 END, a.created_at, a.id", userID)
}

// UserAlert returns the user's alert with id; alerts.ErrNoAlert when
// there is none or it is someone else's.
func (s *DB) UserAlert(ctx context.Context, userID, id string) (_ alerts.Alert, err error) {
	defer wrap(&err, "UserAlert")
	return s.alertWhere(ctx, "a.id = ? AND a.user_id = ?", id, userID)
}

// Alert returns the alert with id, whoever's (alerts.ErrNoAlert if none).
func (s *DB) Alert(ctx context.Context, id string) (_ alerts.Alert, err error) {
	defer wrap(&err, "Alert")
	return s.alertWhere(ctx, "a.id = ?", id)
}

// AlertByFeedToken returns the alert whose feed token is token.
func (s *DB) AlertByFeedToken(ctx context.Context, token string) (_ alerts.Alert, err error) {
	defer wrap(&err, "AlertByFeedToken")
	return s.alertWhere(ctx, "a.feed_token = ?", token)
}

// UpdateAlert changes the user's alert with id to a's name, query,
// filters, frequency and on/off. For the preferences alert only the
// frequency and on/off apply (on/off is the preferences' e-mail
// notifications).
func (s *DB) UpdateAlert(ctx context.Context, userID, id string, a alerts.Alert) (_ alerts.Alert, err error) {
	defer wrap(&err, "UpdateAlert")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return alerts.Alert{}, err
	}
	defer tx.Rollback()
	now := timeText(s.now())
	var kind string
	if err := tx.QueryRowContext(ctx, "SELECT kind FROM alerts WHERE id = ? AND user_id = ?", id, userID).Scan(&kind); errors.Is(err, sql.ErrNoRows) {
		return alerts.Alert{}, alerts.ErrNoAlert
	} else if err != nil {
		return alerts.Alert{}, err
	}
	if kind == alerts.KindPreferences {
		_, err = tx.ExecContext(ctx, "UPDATE alerts SET frequency = ?, updated_at = ? WHERE id = ?", a.Frequency, now, id)
		if err == nil {
			_, err = tx.ExecContext(ctx, "UPDATE user_preferences SET email_notifications = ?, updated_at = ? WHERE user_id = ?", a.Enabled, now, userID)
		}
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE alerts SET name = ?, query = ?, sources = ?, categories = ?, document_types = ?,
			impact_levels = ?, frequency = ?, enabled = ?, folded = folded AND ?, updated_at = ? WHERE id = ?`,
			a.Name, a.Query, listText(a.Sources), listText(a.Categories), listText(a.DocumentTypes), listText(a.ImpactLevels),
			a.Frequency, a.Enabled, a.Frequency == alerts.Immediately, now, id)
	}
	if err == nil {
		err = putAlertChannel(ctx, tx, id, a, now)
	}
	if err != nil {
		return alerts.Alert{}, err
	}
	if err := tx.Commit(); err != nil {
		return alerts.Alert{}, err
	}
	return s.alertWhere(ctx, "a.id = ?", id)
}

// DeleteAlert removes the user's saved search with id and what waits to
// be sent for it.
func (s *DB) DeleteAlert(ctx context.Context, userID, id string) (err error) {
	defer wrap(&err, "DeleteAlert")
	a, err := s.alertWhere(ctx, "a.id = ? AND a.user_id = ?", id, userID)
	if err != nil {
		return err
	}
	if a.Kind == alerts.KindPreferences {
		return alerts.ErrPreferencesAlert
	}
	_, err = s.db.ExecContext(ctx, "DELETE FROM alerts WHERE id = ?", id)
	return err
}

// RenewFeedToken gives the user's alert a new feed token: the old feed
// URL stops working.
func (s *DB) RenewFeedToken(ctx context.Context, userID, id string) (_ alerts.Alert, err error) {
	defer wrap(&err, "RenewFeedToken")
	res, err := s.db.ExecContext(ctx, "UPDATE alerts SET feed_token = ?, updated_at = ? WHERE id = ? AND user_id = ?",
		newFeedToken(), timeText(s.now()), id, userID)
	if err != nil {
		return alerts.Alert{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return alerts.Alert{}, alerts.ErrNoAlert
	}
	return s.alertWhere(ctx, "a.id = ?", id)
}

// ConfirmAlert confirms an anonymous subscription (again, harmlessly).
func (s *DB) ConfirmAlert(ctx context.Context, id string) (_ alerts.Alert, err error) {
	defer wrap(&err, "ConfirmAlert")
	if _, err := s.db.ExecContext(ctx, "UPDATE alerts SET confirmed_at = COALESCE(confirmed_at, ?) WHERE id = ?", timeText(s.now()), id); err != nil {
		return alerts.Alert{}, err
	}
	return s.alertWhere(ctx, "a.id = ?", id)
}

// StopAlert turns the alert with id off (an e-mail's unsubscribe link):
// a preferences alert by turning its user's e-mail notifications off.
// Stopping twice is no error.
func (s *DB) StopAlert(ctx context.Context, id string) (_ alerts.Alert, err error) {
	defer wrap(&err, "StopAlert")
	a, err := s.alertWhere(ctx, "a.id = ?", id)
	if err != nil {
		return a, err
	}
	now := timeText(s.now())
	if a.Kind == alerts.KindPreferences {
		_, err = s.db.ExecContext(ctx, "UPDATE user_preferences SET email_notifications = FALSE, updated_at = ? WHERE user_id = ?", now, a.UserID)
	} else {
		_, err = s.db.ExecContext(ctx, "UPDATE alerts SET enabled = FALSE, updated_at = ? WHERE id = ?", now, id)
	}
	if err != nil {
		return alerts.Alert{}, err
	}
	return s.alertWhere(ctx, "a.id = ?", id)
}

// ListAlerts returns every alert, whoever's, oldest first (the CLI's list).
func (s *DB) ListAlerts(ctx context.Context) (_ []alerts.Alert, err error) {
	defer wrap(&err, "ListAlerts")
	return s.alertsWhere(ctx, "TRUE", "a.created_at, a.id")
}

// putAlertChannel makes the alert's chat channel a's (ChannelKind and
// ChannelURL; none when ChannelKind is ""): a webhook_endpoints row of
// the alert's, wanting alert.matched. The same channel again is left as
// it is (its delivery log and state kept); another replaces it, on.
func putAlertChannel(ctx context.Context, tx *txConn, alertID string, a alerts.Alert, now string) error {
	var id, kind, url string
	err := tx.QueryRowContext(ctx, `SELECT id, kind, url FROM webhook_endpoints WHERE alert_id = ?`, alertID).Scan(&id, &kind, &url)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	case kind == a.ChannelKind && url == a.ChannelURL:
		return nil
	default:
		if _, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE alert_id = ?`, alertID); err != nil {
			return err
		}
	}
	if a.ChannelKind == "" {
		return nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (id, alert_id, kind, url, description, events, created_by, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, uuid.NewString(), alertID, a.ChannelKind, a.ChannelURL, "Alert: "+a.Name,
		`["`+string(webhooks.AlertMatched)+`"]`, a.UserID, now, now)
	return err
}
