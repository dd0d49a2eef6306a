package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
)

// Alerts: the alerts themselves, the circulars' arrivals, the matches
// waiting to be sent (alert_deliveries), each e-mail (alert_sends), the
// bouncing addresses and the runs' lock. A preferences alert's filters
// and on/off are read from user_preferences, never copied.

// alertSelect reads an alert with what it follows: its user's address and
// preferences.
const alertSelect = `SELECT a.id, a.kind, a.name, a.query,
	CASE WHEN a.kind = 'preferences' THEN p.circular_sources ELSE a.sources END,
	CASE WHEN a.kind = 'preferences' THEN p.categories ELSE a.categories END,
	a.document_types,
	CASE WHEN a.kind = 'preferences' THEN p.impact_levels ELSE a.impact_levels END,
	COALESCE(p.entity_types, '[]'), a.frequency,
	CASE WHEN a.kind = 'preferences' THEN p.email_notifications ELSE a.enabled END,
	a.feed_token, a.created_at, a.last_sent_at, COALESCE(a.user_id, ''), COALESCE(u.email, a.email),
	a.confirmed_at IS NOT NULL, a.folded
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
		&a.Frequency, &a.Enabled, &a.FeedToken, &created, &lastSent, &a.UserID, &a.Email, &a.Confirmed, &a.Folded}, extra...)...)
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
// once) or an anonymous subscription (a.Email, unconfirmed until
// ConfirmAlert).
func (s *DB) CreateAlert(ctx context.Context, a alerts.Alert) (_ alerts.Alert, err error) {
	defer wrap(&err, "CreateAlert")
	now := timeText(s.now())
	var user, confirmed any
	if a.UserID != "" {
		user, confirmed = a.UserID, now
	}
	id := uuid.NewString()
	_, err = s.db.ExecContext(ctx, `INSERT INTO alerts (id, user_id, email, email_key, kind, name, query, sources, categories,
		document_types, impact_levels, frequency, enabled, confirmed_at, feed_token, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'search', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, user, a.Email, userKey(a.Email), a.Name, a.Query, listText(a.Sources), listText(a.Categories),
		listText(a.DocumentTypes), listText(a.ImpactLevels), a.Frequency, a.Enabled, confirmed, newFeedToken(), now, now)
	if err != nil {
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

// AlertCirculars returns the newest circulars (up to limit) the alert
// has matched: its feed.
func (s *DB) AlertCirculars(ctx context.Context, alertID string, limit int) (_ []catalog.Circular, err error) {
	defer wrap(&err, "AlertCirculars")
	return s.circularsWhere(ctx, "JOIN alert_deliveries d ON d.circular_id = c.id WHERE d.alert_id = ?",
		"d.matched_at DESC, c.published_date DESC, c.id LIMIT ?", alertID, limit)
}

func (s *DB) circularsWhere(ctx context.Context, join, order string, args ...any) ([]catalog.Circular, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+circularSelect+" FROM "+circularsFrom+" "+join+" ORDER BY "+order, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalog.Circular
	for rows.Next() {
		var c catalog.Circular
		if err := rows.Scan(circularColumns.targets(&c)...); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// recordArrivals notes the circulars a sync added that never reached the
// store before (a circular removed and added again is not news).
func recordArrivals(ctx context.Context, tx *txConn, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO alert_arrivals (circular_id, arrived_at, matched)
		SELECT c.id, ?, FALSE FROM circulars c WHERE NOT EXISTS (SELECT 1 FROM alert_arrivals r WHERE r.circular_id = c.id)`, timeText(now))
	return err
}

// ActiveAlerts returns every alert that may send (on, confirmed, not to
// a bouncing address): what the matching index holds.
func (s *DB) ActiveAlerts(ctx context.Context) (_ []alerts.Alert, err error) {
	defer wrap(&err, "ActiveAlerts")
	return s.alertsWhere(ctx, alertActive, "a.id")
}

// Arrivals returns up to limit circulars that arrived and are not
// matched yet, in order of arrival. A circular removed since is marked
// matched and left out.
func (s *DB) Arrivals(ctx context.Context, limit int) (_ []alerts.Arrival, err error) {
	defer wrap(&err, "Arrivals")
	rows, err := s.db.QueryContext(ctx, `SELECT r.arrived_at, `+circularSelect+` FROM `+circularsFrom+`
		JOIN alert_arrivals r ON r.circular_id = c.id WHERE NOT r.matched ORDER BY r.arrived_at, r.circular_id LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []alerts.Arrival
	for rows.Next() {
		var arr alerts.Arrival
		var at string
		if err := rows.Scan(append([]any{&at}, circularColumns.targets(&arr.Circular)...)...); err != nil {
			return nil, err
		}
		if arr.At, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, err
		}
		out = append(out, arr)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE alert_arrivals SET matched = TRUE WHERE NOT matched
		AND NOT EXISTS (SELECT 1 FROM circulars c WHERE c.id = alert_arrivals.circular_id)`)
	return out, err
}

// RecordMatches stores the matches of the arrivals and marks them
// matched, in one transaction: a match recorded twice (a rerun, or two
// instances) is one delivery.
func (s *DB) RecordMatches(ctx context.Context, arrivals []alerts.Arrival, ms []alerts.Match) (err error) {
	defer wrap(&err, "RecordMatches")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	now := timeText(s.now())
	for _, m := range ms {
		if err := st.exec(ctx, `INSERT INTO alert_deliveries (alert_id, circular_id, matched_at) VALUES (?, ?, ?)
			ON CONFLICT DO NOTHING`, m.AlertID, m.CircularID, now); err != nil {
			return err
		}
	}
	for _, arr := range arrivals {
		if err := st.exec(ctx, "UPDATE alert_arrivals SET matched = TRUE WHERE circular_id = ?", arr.Circular.ID); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Waiting returns the active alerts with matches waiting to be sent, and
// for each how many e-mails it sent since since (the fold's count). It
// starts from the waiting matches (a partial index), not from every alert.
func (s *DB) Waiting(ctx context.Context, since time.Time) (_ []alerts.Waiting, err error) {
	defer wrap(&err, "Waiting")
	rows, err := s.db.QueryContext(ctx, alertSelect+`
		WHERE a.id IN (SELECT alert_id FROM alert_deliveries WHERE send_id IS NULL) AND `+alertActive+`
		ORDER BY a.id`)
	if err != nil {
		return nil, err
	}
	var out []alerts.Waiting
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, alerts.Waiting{Alert: a})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	crows, err := s.db.QueryContext(ctx, `SELECT alert_id, COUNT(*) FROM alert_sends WHERE created_at >= ? AND status != 'failed'
		AND kind = 'immediately' GROUP BY alert_id`, timeText(since))
	if err != nil {
		return nil, err
	}
	defer crows.Close()
	for crows.Next() {
		var id string
		var n int
		if err := crows.Scan(&id, &n); err != nil {
			return nil, err
		}
		counts[id] = n
	}
	for i := range out {
		out[i].SentSince = counts[out[i].Alert.ID]
	}
	return out, crows.Err()
}

// ClaimSend takes every match waiting for the alert into one e-mail
// (kind: the frequency, or fold) to email, and returns the e-mail's id
// and its circulars, newest first. An id of "" means another sender took
// them first. A claimed e-mail is never claimed again: after a crash its
// matches are not sent twice.
func (s *DB) ClaimSend(ctx context.Context, alertID, email, kind, messageID string) (_ string, _ []catalog.Circular, err error) {
	defer wrap(&err, "ClaimSend")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", nil, err
	}
	defer tx.Rollback()
	id := uuid.NewString()
	now := timeText(s.now())
	res, err := tx.ExecContext(ctx, "UPDATE alert_deliveries SET send_id = ? WHERE alert_id = ? AND send_id IS NULL", id, alertID)
	if err != nil {
		return "", nil, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return "", nil, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO alert_sends (id, alert_id, email_key, kind, status, message_id, circulars, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'sending', ?, ?, ?, ?)`, id, alertID, userKey(email), kind, strings.ReplaceAll(messageID, "{send}", id), n, now, now); err != nil {
		return "", nil, err
	}
	if err := tx.Commit(); err != nil {
		return "", nil, err
	}
	cs, err := s.circularsWhere(ctx, "JOIN alert_deliveries d ON d.circular_id = c.id WHERE d.send_id = ?",
		"c.published_date DESC, c.id", id)
	return id, cs, err
}

// FinishSend records how the e-mail ended: sent (failure ""), or failed,
// giving its matches back to be sent by a later run. A permanent refusal
// (permanent) counts against the address: alerts.BounceAfter in a row
// and it is bouncing, skipped until cleared; a sent e-mail clears the
// count.
func (s *DB) FinishSend(ctx context.Context, sendID, email, failure string, permanent bool) (err error) {
	defer wrap(&err, "FinishSend")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := timeText(s.now())
	status := "sent"
	if failure != "" {
		status = "failed"
	}
	if _, err := tx.ExecContext(ctx, "UPDATE alert_sends SET status = ?, error = ?, updated_at = ? WHERE id = ?", status, failure, now, sendID); err != nil {
		return err
	}
	key := userKey(email)
	switch {
	case failure == "":
		_, err = tx.ExecContext(ctx, "UPDATE alerts SET last_sent_at = ?, updated_at = ? WHERE id = (SELECT alert_id FROM alert_sends WHERE id = ?)", now, now, sendID)
		if err == nil {
			_, err = tx.ExecContext(ctx, "UPDATE alert_addresses SET failures = 0, updated_at = ? WHERE email_key = ? AND failures > 0", now, key)
		}
	default:
		_, err = tx.ExecContext(ctx, "UPDATE alert_deliveries SET send_id = NULL WHERE send_id = ?", sendID)
		if err == nil && permanent {
			_, err = tx.ExecContext(ctx, `INSERT INTO alert_addresses (email_key, email, failures, bouncing, last_error, updated_at)
				VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (email_key) DO UPDATE SET failures = alert_addresses.failures + 1,
				bouncing = alert_addresses.failures + 1 >= ?, last_error = excluded.last_error, updated_at = excluded.updated_at`,
				key, email, alerts.BounceAfter <= 1, failure, now, alerts.BounceAfter)
		}
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// SetFolded marks an immediate alert folded (over its daily cap: its
// matches wait for the digest hour) or not.
func (s *DB) SetFolded(ctx context.Context, alertID string, folded bool) (err error) {
	defer wrap(&err, "SetFolded")
	_, err = s.db.ExecContext(ctx, "UPDATE alerts SET folded = ? WHERE id = ?", folded, alertID)
	return err
}

// Unconfirmed returns the anonymous subscriptions whose confirmation
// e-mail has not gone yet.
func (s *DB) Unconfirmed(ctx context.Context) (_ []alerts.Alert, err error) {
	defer wrap(&err, "Unconfirmed")
	return s.alertsWhere(ctx, "a.confirmed_at IS NULL AND a.confirm_sent_at IS NULL AND a.enabled", "a.created_at, a.id")
}

// MarkConfirmationSent records that the subscription's confirmation
// e-mail was handed over: it is not sent again. It answers false when
// another sender marked it first.
func (s *DB) MarkConfirmationSent(ctx context.Context, id string) (_ bool, err error) {
	defer wrap(&err, "MarkConfirmationSent")
	res, err := s.db.ExecContext(ctx, "UPDATE alerts SET confirm_sent_at = ? WHERE id = ? AND confirm_sent_at IS NULL", timeText(s.now()), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// Bouncing returns the addresses refused permanently, most failures first.
func (s *DB) Bouncing(ctx context.Context) (_ []alerts.Address, err error) {
	defer wrap(&err, "Bouncing")
	rows, err := s.db.QueryContext(ctx, `SELECT email, failures, bouncing, last_error, updated_at FROM alert_addresses
		WHERE failures > 0 OR bouncing ORDER BY bouncing DESC, failures DESC, email_key`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []alerts.Address
	for rows.Next() {
		var a alerts.Address
		var at string
		if err := rows.Scan(&a.Email, &a.Failures, &a.Bouncing, &a.LastError, &at); err != nil {
			return nil, err
		}
		if a.UpdatedAt, err = time.Parse(time.RFC3339Nano, at); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// AlertStats counts the alerts by kind and frequency, the matches
// waiting, and the e-mails by status.
func (s *DB) AlertStats(ctx context.Context) (_ alerts.Stats, err error) {
	defer wrap(&err, "AlertStats")
	st := alerts.Stats{Alerts: map[string]int{}, Sends: map[string]int{}}
	counts := []struct {
		query string
		into  map[string]int
	}{
		{`SELECT a.kind || '/' || a.frequency || CASE WHEN ` + alertActive + ` THEN '' ELSE ' (off)' END, COUNT(*) FROM alerts a
			LEFT JOIN users u ON u.id = a.user_id LEFT JOIN user_preferences p ON p.user_id = a.user_id GROUP BY 1`, st.Alerts},
		{"SELECT status, COUNT(*) FROM alert_sends GROUP BY status", st.Sends},
	}
	for _, c := range counts {
		rows, err := s.db.QueryContext(ctx, c.query)
		if err != nil {
			return st, err
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return st, err
			}
			c.into[k] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return st, err
		}
	}
	err = s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM alert_deliveries WHERE send_id IS NULL").Scan(&st.Waiting)
	return st, err
}

// ResendAlerts gives back the matches of the e-mails sent (or claimed)
// from from to to: the next run sends them again. It answers how many.
func (s *DB) ResendAlerts(ctx context.Context, from, to time.Time) (_ int, err error) {
	defer wrap(&err, "ResendAlerts")
	res, err := s.db.ExecContext(ctx, `UPDATE alert_deliveries SET send_id = NULL WHERE send_id IN
		(SELECT id FROM alert_sends WHERE created_at >= ? AND created_at < ? AND status != 'failed')`, timeText(from), timeText(to))
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// ClaimAlertRun takes the alert run key for holder until lease runs out
// (the newsletter's lock, on alert_runs).
func (s *DB) ClaimAlertRun(ctx context.Context, key, holder string, lease time.Duration) (_ bool, err error) {
	defer wrap(&err, "ClaimAlertRun")
	return s.claimRun(ctx, "alert_runs", "run_key", key, holder, lease)
}

// ReleaseAlertRun ends holder's lease on key without finishing the run:
// the next run may take it at once (the immediate runs' lock is a mutex,
// not a once).
func (s *DB) ReleaseAlertRun(ctx context.Context, key, holder string) (err error) {
	defer wrap(&err, "ReleaseAlertRun")
	_, err = s.db.ExecContext(ctx, "UPDATE alert_runs SET lease_until = ? WHERE run_key = ? AND holder = ? AND finished_at IS NULL",
		leaseText(time.Time{}), key, holder)
	return err
}

// FinishAlertRun marks the run done: no one claims it again.
func (s *DB) FinishAlertRun(ctx context.Context, key string) (err error) {
	defer wrap(&err, "FinishAlertRun")
	return s.finishRun(ctx, "alert_runs", "run_key", key)
}

// ListAlerts returns every alert, whoever's, oldest first (the CLI's list).
func (s *DB) ListAlerts(ctx context.Context) (_ []alerts.Alert, err error) {
	defer wrap(&err, "ListAlerts")
	return s.alertsWhere(ctx, "TRUE", "a.created_at, a.id")
}
