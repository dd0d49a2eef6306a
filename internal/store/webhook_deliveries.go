package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// The webhooks' sender (package webhooks, deliver.go): the claims of due
// deliveries, each attempt's record, the retries' next times, the
// endpoints turned off, and the log kept for webhooks.RetentionDays.

// ClaimDeliveries: see webhooks.Store. A lapsed claim's attempt is
// recorded as lost (no answer came back); the claim itself is one UPDATE
// of rows still pending (on PostgreSQL their selection skips rows another
// sender has locked), so two senders never take the same delivery.
func (s *DB) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) (_ []webhooks.Due, err error) {
	defer wrap(&err, "ClaimDeliveries")
	at, until := timeText(now), timeText(now.Add(lease))
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Claims whose sender died: the attempt is recorded, then a webhook
	// is due again at once (its receiver drops a repeat by webhook-id), a
	// chat message is unknown (it may have been posted: never twice).
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, n, at, error)
		SELECT id, attempts, claimed_until, ? FROM webhook_deliveries WHERE status = 'sending' AND claimed_until < ?
		ON CONFLICT (delivery_id, n) DO NOTHING`, lapsedError, at); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET
		status = CASE WHEN (SELECT kind FROM webhook_endpoints e WHERE e.id = endpoint_id) = 'webhook' THEN 'pending' ELSE 'unknown' END,
		next_attempt_at = ?, claimed_until = NULL, updated_at = ?
		WHERE status = 'sending' AND claimed_until < ?`, at, at, at); err != nil {
		return nil, err
	}
	// What is due for an endpoint turned off fails: it is not sent.
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = ?
		WHERE status = 'pending' AND next_attempt_at <= ? AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE NOT enabled)`, at, at); err != nil {
		return nil, err
	}
	pick := `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?`
	if s.db.d.postgres {
		pick += " FOR UPDATE SKIP LOCKED"
	}
	rows, err := tx.QueryContext(ctx, `UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1, claimed_until = ?, updated_at = ?
		WHERE id IN (`+pick+`) AND status = 'pending' RETURNING id`, until, at, at, limit)
	if err != nil {
		return nil, err
	}
	var ids []any
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, tx.Commit()
	}
	out, err := dueDeliveries(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	return out, tx.Commit()
}

// lapsedError is the error of an attempt whose sender stopped before an
// answer came back.
const lapsedError = "the sender stopped before an answer came back (its claim lapsed)"

// dueDeliveries reads the claimed deliveries ids with their endpoints
// and events.
func dueDeliveries(ctx context.Context, tx *txConn, ids []any) ([]webhooks.Due, error) {
	rows, err := tx.QueryContext(ctx, `SELECT d.id, d.attempts, (SELECT a.at FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.n = 1),
		e.id, COALESCE(e.organisation_id, ''), COALESCE(e.alert_id, ''), e.kind, e.url, e.description, e.secret,
		v.id, v.type, v.payload, v.card, v.created_at
		FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events v ON v.id = d.event_id
		WHERE d.id IN (?`+strings.Repeat(", ?", len(ids)-1)+`) ORDER BY d.next_attempt_at, d.id`, ids...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]webhooks.Due, 0, len(ids))
	for rows.Next() {
		var d webhooks.Due
		var first sql.NullString
		var kind, typ, payload, card, created string
		if err := rows.Scan(&d.DeliveryID, &d.N, &first, &d.Endpoint.ID, &d.Endpoint.OrganisationID, &d.Endpoint.AlertID,
			&kind, &d.Endpoint.URL, &d.Endpoint.Description, &d.Endpoint.Secret,
			&d.Event.ID, &typ, &payload, &card, &created); err != nil {
			return nil, err
		}
		if d.N > 1 {
			if d.FirstAt, err = nullTime(first); err != nil {
				return nil, err
			}
		}
		d.Endpoint.Kind, d.Event.Type, d.Payload = webhooks.Kind(kind), webhooks.EventType(typ), []byte(payload)
		d.Endpoint.Enabled = true
		d.Event.OrganisationID, d.Event.AlertID = d.Endpoint.OrganisationID, d.Endpoint.AlertID
		if err := json.Unmarshal([]byte(card), &d.Event.Card); err != nil {
			return nil, fmt.Errorf("event %s: card: %w", d.Event.ID, err)
		}
		var p struct {
			Timestamp time.Time       `json:"timestamp"`
			Data      json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(d.Payload, &p); err != nil {
			return nil, fmt.Errorf("event %s: payload: %w", d.Event.ID, err)
		}
		d.Event.Timestamp, d.Event.Data = p.Timestamp, p.Data
		out = append(out, d)
	}
	return out, rows.Err()
}

// FinishWebhookDelivery finishes one attempt: see FinishDeliveries.
func (s *DB) FinishWebhookDelivery(ctx context.Context, r webhooks.Result) (*webhooks.Disabled, error) {
	ds, err := s.FinishDeliveries(ctx, []webhooks.Result{r})
	if err != nil || len(ds) == 0 {
		return nil, err
	}
	return &ds[0], nil
}

// FinishDeliveries: see webhooks.Store. Each attempt is recorded (a late
// one whose claim lapsed too: its record replaces the lapse's); its
// delivery changes only while it is still at that attempt and not
// finished, so a sender that lost its claim changes nothing else. A
// delivery that failed for good counts against its endpoint, which is
// turned off on a 410 or once its failures reach back
// webhooks.DisableAfter; then its due deliveries fail too. A delivery
// clears the count.
func (s *DB) FinishDeliveries(ctx context.Context, rs []webhooks.Result) (_ []webhooks.Disabled, err error) {
	defer wrap(&err, "FinishDeliveries")
	if len(rs) == 0 {
		return nil, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	// Endpoints' rows are locked in one order by every finisher: two
	// instances' batches never wait for each other in a cycle.
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b webhooks.Result) int {
		return cmp.Or(strings.Compare(a.EndpointID, b.EndpointID), strings.Compare(a.DeliveryID, b.DeliveryID))
	})
	var out []webhooks.Disabled
	for _, r := range rs {
		d, err := s.finishDelivery(ctx, tx, r)
		if err != nil {
			return nil, err
		}
		if d != nil {
			out = append(out, *d)
		}
	}
	return out, tx.Commit()
}

func (s *DB) finishDelivery(ctx context.Context, tx *txConn, r webhooks.Result) (*webhooks.Disabled, error) {
	a := r.Attempt
	at := timeText(a.At)
	if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_attempts (delivery_id, n, at, duration_ms, status_code, response, error)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (delivery_id, n) DO UPDATE SET at = excluded.at, duration_ms = excluded.duration_ms,
		status_code = excluded.status_code, response = excluded.response, error = excluded.error`,
		r.DeliveryID, a.N, at, a.DurationMS, a.StatusCode, a.Response, a.Error); err != nil {
		return nil, err
	}
	var next any
	if r.Status == webhooks.Pending {
		next = timeText(r.NextAttemptAt)
	}
	res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, claimed_until = NULL, updated_at = ?
		WHERE id = ? AND attempts = ? AND status IN ('sending', 'pending', 'unknown')`, string(r.Status), next, at, r.DeliveryID, a.N)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return nil, err // another attempt has it now
	}
	switch r.Status {
	case webhooks.Delivered:
		_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failures = 0, failing_since = NULL, updated_at = ?
			WHERE id = ? AND (failures > 0 OR failing_since IS NOT NULL)`, at, r.EndpointID)
		return nil, err
	case webhooks.Pending:
		// its endpoint turned off meanwhile (in this very batch, maybe):
		// it is not retried
		_, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL
			WHERE id = ? AND status = 'pending' AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE NOT enabled)`, r.DeliveryID)
		return nil, err
	case webhooks.Failed:
	default:
		return nil, nil
	}
	var since string
	var enabled bool
	if err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET failures = failures + 1,
		failing_since = COALESCE(failing_since, ?), updated_at = ? WHERE id = ? RETURNING failing_since, enabled`,
		timeText(r.FirstAt), at, r.EndpointID).Scan(&since, &enabled); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, nil // deleted meanwhile
		}
		return nil, err
	}
	failingSince, err := time.Parse(time.RFC3339Nano, since)
	if err != nil {
		return nil, err
	}
	var reason string
	switch {
	case !enabled:
		return nil, nil
	case r.Gone:
		reason = "the endpoint answered 410 Gone"
	case a.At.Sub(failingSince) >= webhooks.DisableAfter:
		reason = fmt.Sprintf("every delivery failed since %s", failingSince.UTC().Format("2 January 2006, 15:04 UTC"))
	default:
		return nil, nil
	}
	return s.disableEndpoint(ctx, tx, r.EndpointID, reason, a.At)
}

// disableEndpoint turns the endpoint off for reason, failing what waits
// for it, and answers it as turned off (nil when it already was).
func (s *DB) disableEndpoint(ctx context.Context, tx *txConn, id, reason string, at time.Time) (*webhooks.Disabled, error) {
	now := timeText(at)
	res, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled`,
		false, reason, now, id)
	if err != nil {
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, updated_at = ?
		WHERE endpoint_id = ? AND status = 'pending'`, now, id); err != nil {
		return nil, err
	}
	d := webhooks.Disabled{Reason: reason, At: at}
	e := &d.Endpoint
	var kind, events, created, updated string
	var failing sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT e.id, COALESCE(e.organisation_id, ''), COALESCE(e.alert_id, ''), e.kind, e.url, e.description,
		e.events, e.failures, e.failing_since, e.created_by, e.created_at, e.updated_at, COALESCE(o.name, ''), COALESCE(a.name, '')
		FROM webhook_endpoints e LEFT JOIN organisations o ON o.id = e.organisation_id LEFT JOIN alerts a ON a.id = e.alert_id
		WHERE e.id = ?`, id).Scan(&e.ID, &e.OrganisationID, &e.AlertID, &kind, &e.URL, &e.Description, &events, &e.Failures, &failing,
		&e.CreatedBy, &created, &updated, &d.OrganisationName, &d.AlertName); err != nil {
		return nil, err
	}
	e.Kind, e.DisabledReason = webhooks.Kind(kind), reason
	if err := json.Unmarshal([]byte(events), &e.Events); err != nil {
		return nil, err
	}
	if e.FailingSince, err = nullTime(failing); err != nil {
		return nil, err
	}
	if e.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return nil, err
	}
	if e.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return nil, err
	}
	return &d, nil
}

// pruneBatch is how many events a prune deletes at most: a run's prune
// stays short; the next run deletes more.
const pruneBatch = 5000

// PruneWebhooks: see webhooks.Store. The events' deliveries and their
// attempts go with them (foreign keys' cascades).
func (s *DB) PruneWebhooks(ctx context.Context, before time.Time) (_ int, err error) {
	defer wrap(&err, "PruneWebhooks")
	res, err := s.db.ExecContext(ctx, `DELETE FROM webhook_events WHERE id IN
		(SELECT id FROM webhook_events WHERE created_at < ? ORDER BY created_at LIMIT ?)`, timeText(before), pruneBatch)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// DisabledRecipients: see webhooks.Store. An organisation's admins (in
// the order of their names), or the alert's owner (a signed-in user's
// address, else the subscription's own), each with their language (an
// alert without a user's: English).
func (s *DB) DisabledRecipients(ctx context.Context, d webhooks.Disabled) (_ []webhooks.Recipient, err error) {
	defer wrap(&err, "DisabledRecipients")
	var rows *sql.Rows
	if d.Endpoint.AlertID != "" {
		rows, err = s.db.QueryContext(ctx, `SELECT COALESCE(u.email, a.email), COALESCE(u.first_name, ''), COALESCE(u.last_name, ''), COALESCE(u.username, ''),
			COALESCE(u.language, 'en') FROM alerts a LEFT JOIN users u ON u.id = a.user_id WHERE a.id = ?`, d.Endpoint.AlertID)
	} else {
		rows, err = s.db.QueryContext(ctx, `SELECT u.email, u.first_name, u.last_name, u.username, u.language
			FROM organisation_members m JOIN users u ON u.id = m.user_id
			WHERE m.organisation_id = ? AND m.role = ? AND (m.expires_at IS NULL OR m.expires_at > ?)
			ORDER BY u.first_name, u.last_name, u.username, u.id`, d.Endpoint.OrganisationID, teams.RoleAdmin, timeText(s.now()))
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []webhooks.Recipient
	for rows.Next() {
		var r webhooks.Recipient
		var first, last, username string
		if err := rows.Scan(&r.Email, &first, &last, &username, &r.Language); err != nil {
			return nil, err
		}
		if r.Email == "" {
			continue
		}
		r.Name = strings.TrimSpace(first + " " + last)
		if r.Name == "" {
			r.Name = username
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
