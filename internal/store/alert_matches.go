package store

import (
	"context"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
)

// What the alerts matched: the circulars that arrived (alert_arrivals,
// written by the sync that first adds each), the alerts the matching
// index holds, and each (alert, circular) match once (alert_deliveries),
// which is also an alert's feed.

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
