package store

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"regpulse/internal/catalog"
)

// The comment deadlines' reminders (alerts.ReminderKinds, issue 45): one
// row per (alert, circular, reminder) in alert_reminders, inserted with
// its e-mail's send id before the e-mail leaves, so a rerun, a crash or
// two senders at once never remind twice; a failed one may be taken
// again by a later run, as a failed alert e-mail's matches are.

// ConsultationsClosing are the published circulars whose comments are
// due from from to to (both days included), by deadline then id.
func (s *DB) ConsultationsClosing(ctx context.Context, from, to catalog.Date) (_ []catalog.Circular, err error) {
	defer wrap(&err, "ConsultationsClosing")
	return s.circularsWhere(ctx, "WHERE c.comments_due IS NOT NULL AND c.comments_due >= ? AND c.comments_due <= ?",
		"c.comments_due, c.id", from.String(), to.String())
}

// ClaimReminder takes the reminder of circularID for alertID into a new
// e-mail to email (messageID's {send} its id) and answers its id; "" when
// it was sent already, or is being sent by another sender.
func (s *DB) ClaimReminder(ctx context.Context, alertID, circularID, reminder, email, messageID string) (_ string, err error) {
	defer wrap(&err, "ClaimReminder")
	id, now := uuid.NewString(), timeText(s.now())
	res, err := s.db.ExecContext(ctx, `INSERT INTO alert_reminders (alert_id, circular_id, reminder, send_id, email_key, status, message_id, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 'sending', ?, ?, ?)
		ON CONFLICT (alert_id, circular_id, reminder) DO UPDATE SET send_id = excluded.send_id, email_key = excluded.email_key,
			status = 'sending', message_id = excluded.message_id, error = '', updated_at = excluded.updated_at
		WHERE alert_reminders.status = 'failed'`,
		alertID, circularID, reminder, id, userKey(email), strings.ReplaceAll(messageID, "{send}", id), now, now)
	if err != nil {
		return "", err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return "", err
	}
	return id, nil
}

// FinishReminder records how the reminder's e-mail ended: sent (failure
// ""), or failed, to be taken again; the address's refusals are counted
// as every alert e-mail's are (recordDelivery).
func (s *DB) FinishReminder(ctx context.Context, sendID, email, failure string, permanent bool) (err error) {
	defer wrap(&err, "FinishReminder")
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
	if _, err := tx.ExecContext(ctx, "UPDATE alert_reminders SET status = ?, error = ?, updated_at = ? WHERE send_id = ?", status, failure, now, sendID); err != nil {
		return err
	}
	if err := recordDelivery(ctx, tx, email, failure, permanent, now); err != nil {
		return err
	}
	return tx.Commit()
}
