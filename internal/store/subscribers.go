package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
)

// The newsletter: subscribers, the record of each digest sent, and the
// scheduled digest's lock. A signed-in user's newsletterSubscription
// preference and the subscriber of their address are kept in step here,
// in the transaction that changes either.

const subscriberColumns = "id, email, first_name, last_name, subscribed_at, is_active, preferences, source, language"

func scanSubscriber(row interface{ Scan(...any) error }, extra ...any) (newsletter.Subscriber, error) {
	var s newsletter.Subscriber
	var at, prefs string
	err := row.Scan(append([]any{&s.ID, &s.Email, &s.FirstName, &s.LastName, &at, &s.IsActive, &prefs, &s.Source, &s.Language}, extra...)...)
	if errors.Is(err, sql.ErrNoRows) {
		return s, newsletter.ErrNoSubscriber
	}
	if err != nil {
		return s, err
	}
	if s.SubscribedAt, err = time.Parse(time.RFC3339Nano, at); err != nil {
		return s, fmt.Errorf("stored subscribed_at %q: %w", at, err)
	}
	if err := json.Unmarshal([]byte(prefs), &s.Preferences); err != nil {
		return s, fmt.Errorf("stored preferences %q: %w", prefs, err)
	}
	if s.Preferences == nil {
		s.Preferences = []string{}
	}
	return s, nil
}

// keepLanguage is the language code asks for, or old when code is "".
func keepLanguage(code, old string) string {
	if code == "" {
		return old
	}
	return languageOf(code)
}

func topicsText(topics []string) string {
	if topics == nil {
		topics = []string{}
	}
	b, _ := json.Marshal(topics)
	return string(b)
}

// Subscribe adds the signup's address, or updates the subscriber who has
// it (in any case): names and topics replaced, re-activated if inactive.
// It answers the subscriber and what happened (newsletter.Status*). A
// user with that address has their newsletter preference turned on. The
// subscriber's language becomes the signup's, unless that is "".
func (s *DB) Subscribe(ctx context.Context, in newsletter.Signup) (_ newsletter.Subscriber, _ string, err error) {
	defer wrap(&err, "Subscribe")
	if in.Preferences == nil {
		in.Preferences = slices.Clone(newsletter.DefaultTopics)
	}
	if in.Source == "" {
		in.Source = newsletter.SourceWebsite
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return newsletter.Subscriber{}, "", err
	}
	defer tx.Rollback()
	now := s.now().UTC()
	old, err := scanSubscriber(tx.QueryRowContext(ctx, "SELECT "+subscriberColumns+" FROM newsletter_subscribers WHERE email_key = ?", userKey(in.Email)))
	status := newsletter.StatusSubscribed
	switch {
	case errors.Is(err, newsletter.ErrNoSubscriber):
		_, err = tx.ExecContext(ctx, `INSERT INTO newsletter_subscribers (id, email, email_key, first_name, last_name,
			subscribed_at, is_active, preferences, source, language) VALUES (?, ?, ?, ?, ?, ?, TRUE, ?, ?, ?)`,
			uuid.NewString(), in.Email, userKey(in.Email), in.FirstName, in.LastName, timeText(now), topicsText(in.Preferences), in.Source,
			languageOf(in.Language))
	case err != nil:
	case old.IsActive:
		status = newsletter.StatusUpdated
		_, err = tx.ExecContext(ctx, `UPDATE newsletter_subscribers SET first_name = ?, last_name = ?, preferences = ?, language = ? WHERE id = ?`,
			in.FirstName, in.LastName, topicsText(in.Preferences), keepLanguage(in.Language, old.Language), old.ID)
	default:
		status = newsletter.StatusReactivated
		_, err = tx.ExecContext(ctx, `UPDATE newsletter_subscribers SET first_name = ?, last_name = ?, preferences = ?,
			is_active = TRUE, subscribed_at = ?, source = ?, language = ? WHERE id = ?`,
			in.FirstName, in.LastName, topicsText(in.Preferences), timeText(now), in.Source, keepLanguage(in.Language, old.Language), old.ID)
	}
	if err == nil {
		err = setUserSubscription(ctx, tx, userKey(in.Email), true, now)
	}
	if err != nil {
		return newsletter.Subscriber{}, "", err
	}
	sub, err := scanSubscriber(tx.QueryRowContext(ctx, "SELECT "+subscriberColumns+" FROM newsletter_subscribers WHERE email_key = ?", userKey(in.Email)))
	if err != nil {
		return newsletter.Subscriber{}, "", err
	}
	if err := tx.Commit(); err != nil {
		return newsletter.Subscriber{}, "", err
	}
	return sub, status, nil
}

// setUserSubscription sets the newsletter preference of the user whose
// address is emailKey, if there is one.
func setUserSubscription(ctx context.Context, tx *txConn, emailKey string, on bool, now time.Time) error {
	_, err := tx.ExecContext(ctx, `UPDATE user_preferences SET newsletter_subscription = ?, updated_at = ?
		WHERE newsletter_subscription != ? AND user_id IN (SELECT id FROM users WHERE email_key = ?)`,
		on, timeText(now), on, emailKey)
	return err
}

// syncUserSubscriber makes the newsletter follow a user's preference: on,
// their address is subscribed (re-activated if it was, with the default
// topics if new); off, it is unsubscribed.
func syncUserSubscriber(ctx context.Context, tx *txConn, userID string, on bool, now time.Time) error {
	var email, first, last, lang string
	err := tx.QueryRowContext(ctx, "SELECT email, first_name, last_name, language FROM users WHERE id = ?", userID).Scan(&email, &first, &last, &lang)
	if err != nil {
		return err
	}
	if !on {
		_, err = tx.ExecContext(ctx, "UPDATE newsletter_subscribers SET is_active = FALSE WHERE email_key = ?", userKey(email))
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO newsletter_subscribers (id, email, email_key, first_name, last_name,
		subscribed_at, is_active, preferences, source, language) VALUES (?, ?, ?, ?, ?, ?, TRUE, ?, ?, ?)
		ON CONFLICT (email_key) DO UPDATE SET is_active = TRUE,
		subscribed_at = CASE WHEN newsletter_subscribers.is_active THEN newsletter_subscribers.subscribed_at ELSE excluded.subscribed_at END`,
		uuid.NewString(), email, userKey(email), first, last, timeText(now), topicsText(newsletter.DefaultTopics), newsletter.SourceWebsite, lang)
	return err
}

// markSubscribedUser turns on a new user's newsletter preference when
// their address is already subscribed.
func markSubscribedUser(ctx context.Context, tx *txConn, userID, emailKey string) error {
	_, err := tx.ExecContext(ctx, `UPDATE user_preferences SET newsletter_subscription = TRUE WHERE user_id = ?
		AND EXISTS (SELECT 1 FROM newsletter_subscribers WHERE email_key = ? AND is_active)`, userID, emailKey)
	return err
}

// Subscriber returns the subscriber with id (newsletter.ErrNoSubscriber if none).
func (s *DB) Subscriber(ctx context.Context, id string) (_ newsletter.Subscriber, err error) {
	defer wrap(&err, "Subscriber")
	return scanSubscriber(s.db.QueryRowContext(ctx, "SELECT "+subscriberColumns+" FROM newsletter_subscribers WHERE id = ?", id))
}

// Unsubscribe makes the subscriber with id inactive (again, harmlessly,
// when it already is) and turns off the newsletter preference of the user
// with that address.
func (s *DB) Unsubscribe(ctx context.Context, id string) (_ newsletter.Subscriber, err error) {
	defer wrap(&err, "Unsubscribe")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return newsletter.Subscriber{}, err
	}
	defer tx.Rollback()
	sub, err := scanSubscriber(tx.QueryRowContext(ctx, "UPDATE newsletter_subscribers SET is_active = FALSE WHERE id = ? RETURNING "+subscriberColumns, id))
	if errors.Is(err, newsletter.ErrNoSubscriber) {
		return sub, err
	}
	if err == nil {
		err = setUserSubscription(ctx, tx, userKey(sub.Email), false, s.now().UTC())
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return newsletter.Subscriber{}, err
	}
	return sub, nil
}

// ListSubscribers returns a page of every subscriber, active or not, the
// latest subscription first, and how many there are.
func (s *DB) ListSubscribers(ctx context.Context, page catalog.Page) (_ []newsletter.Subscriber, _ int, err error) {
	defer wrap(&err, "ListSubscribers")
	rows, err := s.db.QueryContext(ctx, "SELECT "+subscriberColumns+`, COUNT(*) OVER ()
		FROM newsletter_subscribers ORDER BY subscribed_at DESC, id LIMIT ? OFFSET ?`, page.Limit, page.Offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []newsletter.Subscriber
	total := 0
	for rows.Next() {
		sub, err := scanSubscriber(rows, &total)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, sub)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(out) == 0 && page.Offset > 0 {
		// A page past the end tells no total: count.
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM newsletter_subscribers").Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// ActiveSubscribers returns every active subscriber, oldest first (the
// digest's sending order).
func (s *DB) ActiveSubscribers(ctx context.Context) (_ []newsletter.Subscriber, err error) {
	defer wrap(&err, "ActiveSubscribers")
	rows, err := s.db.QueryContext(ctx, "SELECT "+subscriberColumns+" FROM newsletter_subscribers WHERE is_active ORDER BY subscribed_at, id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []newsletter.Subscriber
	for rows.Next() {
		sub, err := scanSubscriber(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

// ClaimDelivery records that the month's digest is about to be sent to
// the subscriber, with its Message-ID. It answers false when it already
// was sent or is being sent (by this run before a crash, or another
// process): a digest that failed may be claimed again.
func (s *DB) ClaimDelivery(ctx context.Context, subscriberID, month, messageID string) (_ bool, err error) {
	defer wrap(&err, "ClaimDelivery")
	res, err := s.db.ExecContext(ctx, `INSERT INTO newsletter_deliveries (subscriber_id, month, status, message_id, updated_at)
		VALUES (?, ?, 'sending', ?, ?) ON CONFLICT (subscriber_id, month) DO UPDATE SET status = 'sending',
		message_id = excluded.message_id, error = '', updated_at = excluded.updated_at WHERE newsletter_deliveries.status = 'failed'`,
		subscriberID, month, messageID, timeText(s.now()))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// FinishDelivery records how a claimed delivery ended: sent when failure
// is "", otherwise failed with that reason.
func (s *DB) FinishDelivery(ctx context.Context, subscriberID, month, failure string) (err error) {
	defer wrap(&err, "FinishDelivery")
	status := "sent"
	if failure != "" {
		status = "failed"
	}
	_, err = s.db.ExecContext(ctx, `UPDATE newsletter_deliveries SET status = ?, error = ?, updated_at = ?
		WHERE subscriber_id = ? AND month = ?`, status, failure, timeText(s.now()), subscriberID, month)
	return err
}

// Deliveries counts the month's deliveries by status (sent, failed, and
// sending: claimed by a run that has not finished, or that crashed).
func (s *DB) Deliveries(ctx context.Context, month string) (_ map[string]int, err error) {
	defer wrap(&err, "Deliveries")
	rows, err := s.db.QueryContext(ctx, "SELECT status, COUNT(*) FROM newsletter_deliveries WHERE month = ? GROUP BY status", month)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var status string
		var n int
		if err := rows.Scan(&status, &n); err != nil {
			return nil, err
		}
		out[status] = n
	}
	return out, rows.Err()
}

// ClaimDigestRun takes the month's digest for holder until lease runs
// out. It answers false when the month's digest has been sent, or another
// holder's lease still runs.
func (s *DB) ClaimDigestRun(ctx context.Context, month, holder string, lease time.Duration) (_ bool, err error) {
	defer wrap(&err, "ClaimDigestRun")
	return s.claimRun(ctx, "newsletter_runs", "month", month, holder, lease)
}

// claimRun takes the run key of a lock table (newsletter_runs,
// alert_runs: key, holder, lease_until, finished_at) for holder until
// lease runs out: false when the run is done or another holder's lease
// still runs.
func (s *DB) claimRun(ctx context.Context, table, keyCol, key, holder string, lease time.Duration) (bool, error) {
	now := s.now().UTC()
	res, err := s.db.ExecContext(ctx, `INSERT INTO `+table+` (`+keyCol+`, holder, lease_until) VALUES (?, ?, ?)
		ON CONFLICT (`+keyCol+`) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
		WHERE `+table+`.finished_at IS NULL AND (`+table+`.lease_until < ? OR `+table+`.holder = excluded.holder)`,
		key, holder, leaseText(now.Add(lease)), leaseText(now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// leaseText is a lease time in a fixed-width form, so text order is time
// order.
func leaseText(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// FinishDigestRun marks the month's digest sent: no one claims it again.
func (s *DB) FinishDigestRun(ctx context.Context, month string) (err error) {
	defer wrap(&err, "FinishDigestRun")
	return s.finishRun(ctx, "newsletter_runs", "month", month)
}

// finishRun marks a lock table's run done.
func (s *DB) finishRun(ctx context.Context, table, keyCol, key string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE "+table+" SET finished_at = ? WHERE "+keyCol+" = ?", timeText(s.now()), key)
	return err
}
