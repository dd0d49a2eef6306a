package store

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/google/uuid"

	"regpulse/internal/webhooks"
)

// The webhooks' events (issue 47; package webhooks says what they are).
// An event is published in the transaction of the change it tells
// (publishTx), with a pending delivery for each enabled endpoint that
// wants its type, so a change and its deliveries are stored together or
// not at all; publishing it again (its ID is its owner's, type's and
// key's) adds nothing. webhook_endpoints.go keeps the endpoints,
// webhook_deliveries.go the sender's claims and the attempts.

// Publish publishes ev on its own (a job's finding, not a change of the
// store's): ev and a pending delivery for each enabled endpoint of its
// organisation (or its alert's channels) that wants its type, in one
// transaction; an event already published (by ID) adds nothing. It
// answers how many deliveries it made.
func (s *DB) Publish(ctx context.Context, ev webhooks.Event) (_ int, err error) {
	defer wrap(&err, "Publish")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	n, err := s.publishTx(ctx, tx, ev)
	if err != nil {
		return 0, err
	}
	return n, tx.Commit()
}

// publishTx stores ev and its deliveries in tx (the transaction of the
// change it tells); an event already stored adds nothing. It answers how
// many deliveries it made.
func (s *DB) publishTx(ctx context.Context, tx *txConn, ev webhooks.Event) (int, error) {
	payload, err := ev.Payload()
	if err != nil {
		return 0, err
	}
	card, err := json.Marshal(ev.Card)
	if err != nil {
		return 0, err
	}
	now := timeText(s.now())
	res, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, organisation_id, alert_id, type, payload, card, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
		ev.ID, nullText(ev.OrganisationID), nullText(ev.AlertID), string(ev.Type), string(payload), string(card), now)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, err
	}
	owner, id := "organisation_id", ev.OrganisationID
	if ev.AlertID != "" {
		owner, id = "alert_id", ev.AlertID
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, events FROM webhook_endpoints WHERE `+owner+` = ? AND enabled ORDER BY id`, id)
	if err != nil {
		return 0, err
	}
	var wanted []string
	for rows.Next() {
		var endpoint, events string
		if err := rows.Scan(&endpoint, &events); err != nil {
			rows.Close()
			return 0, err
		}
		var types []webhooks.EventType
		if err := json.Unmarshal([]byte(events), &types); err != nil {
			rows.Close()
			return 0, err
		}
		if slices.Contains(types, ev.Type) {
			wanted = append(wanted, endpoint)
		}
	}
	if err := rows.Close(); err != nil {
		return 0, err
	}
	for _, endpoint := range wanted {
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`, uuid.Must(uuid.NewV7()).String(), endpoint, ev.ID, now, now, now); err != nil {
			return 0, err
		}
	}
	return len(wanted), nil
}
