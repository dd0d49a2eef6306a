package store

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
)

// The alerts' e-mails (alert_sends): what waits to be sent, each e-mail
// claimed with its matches before it leaves and finished sent or failed
// (a failure gives its matches back, a permanent one counts against the
// address), the fold, the confirmations, resends.

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
	id, err := s.claimSend(ctx, "UPDATE alert_deliveries SET send_id = ? WHERE alert_id = ? AND send_id IS NULL", alertID,
		func(id string, n int64, now string) (string, []any) {
			return `INSERT INTO alert_sends (id, alert_id, email_key, kind, status, message_id, circulars, created_at, updated_at)
				VALUES (?, ?, ?, ?, 'sending', ?, ?, ?, ?)`, []any{id, alertID, userKey(email), kind, strings.ReplaceAll(messageID, "{send}", id), n, now, now}
		})
	if err != nil || id == "" {
		return "", nil, err
	}
	cs, err := s.circularsWhere(ctx, "JOIN alert_deliveries d ON d.circular_id = c.id WHERE d.send_id = ?",
		"c.published_date DESC, c.id", id)
	return id, cs, err
}

// claimSend gives the waiting deliveries of owner a new e-mail's id
// (claim: an UPDATE setting send_id, its arguments the id and owner) and
// records the e-mail (record: its INSERT, given the id, how many
// deliveries it carries and the time), in one transaction; "" when
// nothing waited, or another sender took it first.
func (s *DB) claimSend(ctx context.Context, claim, owner string, record func(id string, n int64, now string) (string, []any)) (string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return "", err
	}
	defer tx.Rollback()
	id := uuid.NewString()
	res, err := tx.ExecContext(ctx, claim, id, owner)
	if err != nil {
		return "", err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return "", err
	}
	q, args := record(id, n, timeText(s.now()))
	if _, err := tx.ExecContext(ctx, q, args...); err != nil {
		return "", err
	}
	return id, tx.Commit()
}

// FinishSend records how the e-mail ended: sent (failure ""), or failed,
// giving its matches back to be sent by a later run. A permanent refusal
// (permanent) counts against the address: alerts.BounceAfter in a row
// and it is bouncing, skipped until cleared; a sent e-mail clears the
// count.
func (s *DB) FinishSend(ctx context.Context, sendID, email, failure string, permanent bool) (err error) {
	defer wrap(&err, "FinishSend")
	return s.finishSend(ctx, "alert_sends", "alert_deliveries", func(now string) (string, []any) {
		return "UPDATE alerts SET last_sent_at = ?, updated_at = ? WHERE id = (SELECT alert_id FROM alert_sends WHERE id = ?)", []any{now, now, sendID}
	}, sendID, email, failure, permanent)
}

// finishSend ends an e-mail of the sends table: sent, with sent's
// statement marking its owner; or failed, giving its rows of the
// deliveries table back. Its address's refusals are counted
// (recordDelivery).
func (s *DB) finishSend(ctx context.Context, sends, deliveries string, sent func(now string) (string, []any),
	sendID, email, failure string, permanent bool) error {
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
	if _, err := tx.ExecContext(ctx, "UPDATE "+sends+" SET status = ?, error = ?, updated_at = ? WHERE id = ?", status, failure, now, sendID); err != nil {
		return err
	}
	if failure == "" {
		q, args := sent(now)
		_, err = tx.ExecContext(ctx, q, args...)
	} else {
		_, err = tx.ExecContext(ctx, "UPDATE "+deliveries+" SET send_id = NULL WHERE send_id = ?", sendID)
	}
	if err == nil {
		err = recordDelivery(ctx, tx, email, failure, permanent, now)
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// recordDelivery counts an e-mail's outcome against its address: a
// permanent refusal is one more in a row (alerts.BounceAfter make it
// bouncing), a delivery clears the count. Every e-mail of the alerts'
// runs, a circular's or a direction's, counts alike.
func recordDelivery(ctx context.Context, tx *txConn, email, failure string, permanent bool, now string) error {
	key := userKey(email)
	var err error
	switch {
	case failure == "":
		_, err = tx.ExecContext(ctx, "UPDATE alert_addresses SET failures = 0, updated_at = ? WHERE email_key = ? AND failures > 0", now, key)
	case permanent:
		_, err = tx.ExecContext(ctx, `INSERT INTO alert_addresses (email_key, email, failures, bouncing, last_error, updated_at)
			VALUES (?, ?, 1, ?, ?, ?) ON CONFLICT (email_key) DO UPDATE SET failures = alert_addresses.failures + 1,
			bouncing = alert_addresses.failures + 1 >= ?, last_error = excluded.last_error, updated_at = excluded.updated_at`,
			key, email, alerts.BounceAfter <= 1, failure, now, alerts.BounceAfter)
	}
	return err
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
