package store

import (
	"context"
	"time"

	"regpulse/internal/alerts"
)

// The alerts' runs and their upkeep: the addresses refused (bouncing),
// the counts `regpulse alerts stats` shows, and the runs' lock
// (alert_runs, the newsletter's claimRun/finishRun on another table).

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
// waiting, and the e-mails by status; and the follows of Master
// Directions, the versions waiting for them, their e-mails by status;
// the decisions' reminders' e-mails by status; the comment deadlines'
// reminders by status.
func (s *DB) AlertStats(ctx context.Context) (_ alerts.Stats, err error) {
	defer wrap(&err, "AlertStats")
	st := alerts.Stats{Alerts: map[string]int{}, Sends: map[string]int{}, FollowSends: map[string]int{}, ReminderSends: map[string]int{},
		DeadlineReminders: map[string]int{}}
	counts := []struct {
		query string
		into  map[string]int
	}{
		{`SELECT a.kind || '/' || a.frequency || CASE WHEN ` + alertActive + ` THEN '' ELSE ' (off)' END, COUNT(*) FROM alerts a
			LEFT JOIN users u ON u.id = a.user_id LEFT JOIN user_preferences p ON p.user_id = a.user_id GROUP BY 1`, st.Alerts},
		{"SELECT status, COUNT(*) FROM alert_sends GROUP BY status", st.Sends},
		{"SELECT status, COUNT(*) FROM direction_sends GROUP BY status", st.FollowSends},
		{"SELECT status, COUNT(*) FROM reminder_sends GROUP BY status", st.ReminderSends},
		{"SELECT status, COUNT(*) FROM alert_reminders GROUP BY status", st.DeadlineReminders},
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
	err = s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM alert_deliveries WHERE send_id IS NULL),
		(SELECT COUNT(*) FROM direction_follows), (SELECT COUNT(*) FROM direction_deliveries WHERE send_id IS NULL)`).
		Scan(&st.Waiting, &st.Follows, &st.FollowsWaiting)
	return st, err
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
