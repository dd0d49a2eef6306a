package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/webhooks"
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
	if err := s.publishAlertMatches(ctx, tx, arrivals, ms); err != nil {
		return fmt.Errorf("webhooks: %w", err)
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

// publishAlertMatches publishes alert.matched to the chat channel of
// each alert matched that has one, in the transaction recording the
// matches: once per alert and circular (the key), so a rerun or a
// second instance adds nothing. One query answers when no alert has a
// channel.
func (s *DB) publishAlertMatches(ctx context.Context, tx *txConn, arrivals []alerts.Arrival, ms []alerts.Match) error {
	if len(ms) == 0 {
		return nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT a.id, a.name, COALESCE(p.entity_types, '[]') FROM webhook_endpoints w
		JOIN alerts a ON a.id = w.alert_id LEFT JOIN user_preferences p ON p.user_id = a.user_id
		WHERE w.alert_id IS NOT NULL AND w.enabled`)
	if err != nil {
		return err
	}
	type channel struct {
		name  string
		kinds []string
	}
	channels := map[string]channel{}
	for rows.Next() {
		var id, kinds string
		var ch channel
		if err := rows.Scan(&id, &ch.name, &kinds); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal([]byte(kinds), &ch.kinds); err != nil {
			rows.Close()
			return err
		}
		channels[id] = ch
	}
	if err := rows.Close(); err != nil || len(channels) == 0 {
		return err
	}
	byID := make(map[string]*catalog.Circular, len(arrivals))
	for i := range arrivals {
		byID[arrivals[i].Circular.ID] = &arrivals[i].Circular
	}
	for _, m := range ms {
		ch, ok := channels[m.AlertID]
		c := byID[m.CircularID]
		if !ok || c == nil {
			continue
		}
		data := webhooks.AlertMatchedData{Circular: s.circularData(c, ch.kinds), Alert: &webhooks.AlertRef{ID: m.AlertID, Name: ch.name}}
		card := webhooks.CircularCard("Alert: "+ch.name, data.Circular)
		ev, err := webhooks.NewEvent(webhooks.AlertMatched, "", m.AlertID, "circular:"+m.CircularID, data, card, s.now())
		if err != nil {
			return err
		}
		if _, err := s.publishTx(ctx, tx, ev); err != nil {
			return err
		}
	}
	return nil
}
