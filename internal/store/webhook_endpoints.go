package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"net/url"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/audit"
	"regpulse/internal/catalog"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// An organisation's endpoints as its admins manage them (issue 47):
// made, listed, changed, removed, their secret rotated, their delivery
// log read, a delivery resent and a test event sent. Every change
// appends its row to the organisation's audit trail (webhook.create,
// webhook.update, webhook.delete, webhook.rotate, webhook.test,
// delivery.resend) in its own transaction; the trail never holds a
// secret (webhookAudit). An alert's own channels are the alerts'
// (their endpoints have alert_id set and no organisation): nothing here
// reaches them.

const webhookEndpointColumns = `id, organisation_id, kind, url, description, events, secret, enabled, disabled_reason,
	failures, failing_since, created_by, created_at, updated_at`

func scanWebhookEndpoint(row interface{ Scan(...any) error }) (webhooks.Endpoint, error) {
	var e webhooks.Endpoint
	var events, created, updated string
	var failing sql.NullString
	if err := row.Scan(&e.ID, &e.OrganisationID, &e.Kind, &e.URL, &e.Description, &events, &e.Secret, &e.Enabled, &e.DisabledReason,
		&e.Failures, &failing, &e.CreatedBy, &created, &updated); err != nil {
		return e, err
	}
	if err := json.Unmarshal([]byte(events), &e.Events); err != nil {
		return e, err
	}
	if e.Events == nil {
		e.Events = []webhooks.EventType{}
	}
	var err error
	if e.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return e, err
	}
	if e.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return e, err
	}
	if failing.Valid {
		t, err := time.Parse(time.RFC3339Nano, failing.String)
		if err != nil {
			return e, err
		}
		e.FailingSince = &t
	}
	return e, nil
}

// webhookAudit is what the trail keeps of an endpoint: never its
// secret, only whether it has one, and of its URL only the part that is
// no credential. A Slack or Teams URL is itself the credential (anyone
// holding it posts to the channel), so only its scheme and host are
// kept; a webhook's keeps its path but not its query, where tokens go.
func webhookAudit(e webhooks.Endpoint) map[string]any {
	return map[string]any{"kind": e.Kind, "url": auditURL(e.Kind, e.URL), "description": e.Description, "events": e.Events,
		"enabled": e.Enabled, "disabledReason": e.DisabledReason, "secretSet": e.Secret != ""}
}

func auditURL(k webhooks.Kind, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if k != webhooks.KindWebhook {
		shown.Path = "/…"
	}
	return shown.String()
}

// WebhookEndpoints are organisation orgID's endpoints, oldest first.
func (s *DB) WebhookEndpoints(ctx context.Context, orgID string) (_ []webhooks.Endpoint, err error) {
	defer wrap(&err, "WebhookEndpoints")
	rows, err := s.db.QueryContext(ctx, `SELECT `+webhookEndpointColumns+` FROM webhook_endpoints WHERE organisation_id = ? ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []webhooks.Endpoint{}
	for rows.Next() {
		e, err := scanWebhookEndpoint(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// WebhookEndpoint is endpoint id of organisation orgID (its secret
// included); ErrNotFound when the organisation has none of that id.
func (s *DB) WebhookEndpoint(ctx context.Context, orgID, id string) (_ webhooks.Endpoint, err error) {
	defer wrap(&err, "WebhookEndpoint")
	return webhookEndpoint(ctx, s.db, orgID, id)
}

func webhookEndpoint(ctx context.Context, q querier, orgID, id string) (webhooks.Endpoint, error) {
	e, err := scanWebhookEndpoint(q.QueryRowContext(ctx, `SELECT `+webhookEndpointColumns+` FROM webhook_endpoints WHERE organisation_id = ? AND id = ?`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, ErrNotFound
	}
	return e, err
}

// checkEndpoint refuses what no endpoint may be (the API says why field
// by field first; this keeps the table right whoever calls).
func checkEndpoint(e webhooks.Endpoint) error {
	if err := webhooks.CheckKind(e.Kind); err != nil {
		return err
	}
	if err := webhooks.CheckEvents(e.Events); err != nil {
		return err
	}
	if e.URL == "" {
		return errors.New("an endpoint needs a URL")
	}
	return nil
}

// CreateWebhookEndpoint stores e (its kind, URL, description and
// events; enabled) as an endpoint of by's organisation, with a new
// signing secret when it is a webhook, and appends webhook.create. It
// answers the endpoint with its secret; webhooks.ErrTooManyEndpoints
// when the organisation has webhooks.MaxEndpoints already.
func (s *DB) CreateWebhookEndpoint(ctx context.Context, by teams.Actor, e webhooks.Endpoint) (_ webhooks.Endpoint, err error) {
	defer wrap(&err, "CreateWebhookEndpoint")
	if err := checkEndpoint(e); err != nil {
		return e, err
	}
	now := s.now().UTC()
	e = webhooks.Endpoint{ID: uuid.Must(uuid.NewV7()).String(), OrganisationID: by.OrganisationID, Kind: e.Kind, URL: e.URL,
		Description: e.Description, Events: e.Events, Enabled: true, CreatedBy: by.UserID, CreatedAt: now, UpdatedAt: now}
	if e.Kind == webhooks.KindWebhook {
		e.Secret = webhooks.NewSecret()
	}
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		if err := lockOrganisation(ctx, tx, by.OrganisationID); err != nil {
			return audit.Entry{}, err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints WHERE organisation_id = ?`, by.OrganisationID).Scan(&n); err != nil {
			return audit.Entry{}, err
		}
		if n >= webhooks.MaxEndpoints {
			return audit.Entry{}, webhooks.ErrTooManyEndpoints
		}
		events, err := json.Marshal(e.Events)
		if err != nil {
			return audit.Entry{}, err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (id, organisation_id, kind, url, description, events, secret, enabled,
			created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.ID, e.OrganisationID, string(e.Kind), e.URL, e.Description, string(events), e.Secret, true, e.CreatedBy, timeText(now), timeText(now)); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "webhook.create", "webhook", e.ID, nil, webhookAudit(e)), nil
	})
	return e, err
}

// UpdateWebhookEndpoint sets the URL, description, events and enabled of
// endpoint e.ID of by's organisation to e's and appends webhook.update;
// its kind and secret stay. Turning it on again clears why it was turned
// off and its run of failures; an admin turning it off leaves no reason
// (the sender's reason is its own). ErrNotFound for no such endpoint.
func (s *DB) UpdateWebhookEndpoint(ctx context.Context, by teams.Actor, e webhooks.Endpoint) (_ webhooks.Endpoint, err error) {
	defer wrap(&err, "UpdateWebhookEndpoint")
	var out webhooks.Endpoint
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		old, err := webhookEndpoint(ctx, tx, by.OrganisationID, e.ID)
		if err != nil {
			return audit.Entry{}, err
		}
		out = old
		out.URL, out.Description, out.Events, out.Enabled = e.URL, e.Description, e.Events, e.Enabled
		if err := checkEndpoint(out); err != nil {
			return audit.Entry{}, err
		}
		if out.Enabled != old.Enabled {
			out.DisabledReason = ""
		}
		if out.Enabled && !old.Enabled {
			out.Failures, out.FailingSince = 0, nil
		}
		out.UpdatedAt = s.now().UTC()
		events, err := json.Marshal(out.Events)
		if err != nil {
			return audit.Entry{}, err
		}
		var failing any
		if out.FailingSince != nil {
			failing = timeText(*out.FailingSince)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = ?, description = ?, events = ?, enabled = ?, disabled_reason = ?,
			failures = ?, failing_since = ?, updated_at = ? WHERE id = ?`,
			out.URL, out.Description, string(events), out.Enabled, out.DisabledReason, out.Failures, failing, timeText(out.UpdatedAt), out.ID); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "webhook.update", "webhook", out.ID, webhookAudit(old), webhookAudit(out)), nil
	})
	return out, err
}

// DeleteWebhookEndpoint removes endpoint id of by's organisation, its
// deliveries and their attempts with it, and appends webhook.delete;
// ErrNotFound for no such endpoint.
func (s *DB) DeleteWebhookEndpoint(ctx context.Context, by teams.Actor, id string) (err error) {
	defer wrap(&err, "DeleteWebhookEndpoint")
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		old, err := webhookEndpoint(ctx, tx, by.OrganisationID, id)
		if err != nil {
			return audit.Entry{}, err
		}
		// The attempts and deliveries go explicitly: SQLite enforces the
		// cascade only with foreign keys on, which this does not rely on.
		for _, q := range []string{
			`DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?)`,
			`DELETE FROM webhook_deliveries WHERE endpoint_id = ?`,
			`DELETE FROM webhook_endpoints WHERE id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return audit.Entry{}, err
			}
		}
		return auditEntry(by, "webhook.delete", "webhook", id, webhookAudit(old), nil), nil
	})
	return err
}

// RotateWebhookSecret gives webhook id of by's organisation a new
// signing secret and appends webhook.rotate (without either secret). It
// answers the endpoint with its new secret: deliveries from now on are
// signed with it (those under way when it changed may still carry the
// old one). webhooks.ErrNoSecret for a chat channel, ErrNotFound for no
// such endpoint.
func (s *DB) RotateWebhookSecret(ctx context.Context, by teams.Actor, id string) (_ webhooks.Endpoint, err error) {
	defer wrap(&err, "RotateWebhookSecret")
	var out webhooks.Endpoint
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		old, err := webhookEndpoint(ctx, tx, by.OrganisationID, id)
		if err != nil {
			return audit.Entry{}, err
		}
		if old.Kind != webhooks.KindWebhook {
			return audit.Entry{}, webhooks.ErrNoSecret
		}
		out = old
		out.Secret, out.UpdatedAt = webhooks.NewSecret(), s.now().UTC()
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET secret = ?, updated_at = ? WHERE id = ?`, out.Secret, timeText(out.UpdatedAt), id); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "webhook.rotate", "webhook", id, nil, map[string]any{"secretRotated": true}), nil
	})
	return out, err
}

const webhookDeliveryColumns = `d.id, d.endpoint_id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.created_at, d.updated_at`

func scanWebhookDelivery(row interface{ Scan(...any) error }) (webhooks.Delivery, error) {
	var d webhooks.Delivery
	var next sql.NullString
	var created, updated string
	if err := row.Scan(&d.ID, &d.EndpointID, &d.EventID, &d.EventType, &d.Status, &d.Attempts, &next, &created, &updated); err != nil {
		return d, err
	}
	var err error
	if d.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return d, err
	}
	if d.UpdatedAt, err = time.Parse(time.RFC3339Nano, updated); err != nil {
		return d, err
	}
	if next.Valid {
		t, err := time.Parse(time.RFC3339Nano, next.String)
		if err != nil {
			return d, err
		}
		d.NextAttemptAt = &t
	}
	return d, nil
}

// WebhookDeliveries is a page of endpoint endpointID's deliveries (of
// organisation orgID), newest first, each with its attempts, and how many
// it has in all; ErrNotFound when the organisation has no such endpoint.
func (s *DB) WebhookDeliveries(ctx context.Context, orgID, endpointID string, page catalog.Page) (_ []webhooks.LogEntry, total int, err error) {
	defer wrap(&err, "WebhookDeliveries")
	if _, err := webhookEndpoint(ctx, s.db, orgID, endpointID); err != nil {
		return nil, 0, err
	}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = ?`, endpointID).Scan(&total); err != nil {
		return nil, 0, err
	}
	if page.Limit <= 0 {
		page.Limit = catalog.MaxLimit
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+webhookDeliveryColumns+` FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
		WHERE d.endpoint_id = ? ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`, endpointID, page.Limit, page.Offset)
	if err != nil {
		return nil, 0, err
	}
	out := []webhooks.LogEntry{}
	at := map[string]int{}
	for rows.Next() {
		d, err := scanWebhookDelivery(rows)
		if err != nil {
			rows.Close()
			return nil, 0, err
		}
		at[d.ID] = len(out)
		out = append(out, webhooks.LogEntry{Delivery: d, History: []webhooks.Attempt{}})
	}
	if err := rows.Close(); err != nil {
		return nil, 0, err
	}
	if len(out) == 0 {
		return out, total, nil
	}
	// The page's attempts in one query: those of the endpoint's
	// deliveries created from the page's oldest on.
	rows, err = s.db.QueryContext(ctx, `SELECT a.delivery_id, a.n, a.at, a.duration_ms, a.status_code, a.response, a.error
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.endpoint_id = ? AND d.created_at >= ? ORDER BY a.delivery_id, a.n`, endpointID, timeText(out[len(out)-1].CreatedAt))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, when string
		var a webhooks.Attempt
		if err := rows.Scan(&id, &a.N, &when, &a.DurationMS, &a.StatusCode, &a.Response, &a.Error); err != nil {
			return nil, 0, err
		}
		if a.At, err = time.Parse(time.RFC3339Nano, when); err != nil {
			return nil, 0, err
		}
		i, ok := at[id]
		if !ok {
			continue
		}
		out[i].History = append(out[i].History, a)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	for i := range out {
		if h := out[i].History; len(h) > 0 {
			last := h[len(h)-1]
			out[i].LastAttempt = &last
		}
	}
	return out, total, nil
}

// webhookDelivery is delivery id of endpoint endpointID of organisation
// orgID; ErrNotFound for none.
func webhookDelivery(ctx context.Context, q querier, orgID, endpointID, id string) (webhooks.Delivery, error) {
	d, err := scanWebhookDelivery(q.QueryRowContext(ctx, `SELECT `+webhookDeliveryColumns+` FROM webhook_deliveries d
		JOIN webhook_events e ON e.id = d.event_id JOIN webhook_endpoints p ON p.id = d.endpoint_id
		WHERE d.id = ? AND d.endpoint_id = ? AND p.organisation_id = ?`, id, endpointID, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrNotFound
	}
	return d, err
}

// ResendWebhookDelivery makes delivery id of endpoint endpointID (of
// by's organisation) pending again, due now, and appends
// delivery.resend: the same event, so the same webhook-id (a receiver
// that kept it drops the repeat), its attempts kept and counted on.
// webhooks.ErrBusy while it is being sent, ErrNotFound for no such
// delivery.
func (s *DB) ResendWebhookDelivery(ctx context.Context, by teams.Actor, endpointID, id string) (_ webhooks.Delivery, err error) {
	defer wrap(&err, "ResendWebhookDelivery")
	var out webhooks.Delivery
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		old, err := webhookDelivery(ctx, tx, by.OrganisationID, endpointID, id)
		if err != nil {
			return audit.Entry{}, err
		}
		now := timeText(s.now())
		// Not while claimed: the sender's finish would overwrite it.
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, claimed_until = NULL, updated_at = ?
			WHERE id = ? AND status <> 'sending'`, now, now, id)
		if err != nil {
			return audit.Entry{}, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return audit.Entry{}, errors.Join(err, webhooks.ErrBusy)
		}
		if out, err = webhookDelivery(ctx, tx, by.OrganisationID, endpointID, id); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "delivery.resend", "delivery", id,
			map[string]any{"endpointId": endpointID, "eventId": old.EventID, "status": old.Status, "attempts": old.Attempts},
			map[string]any{"endpointId": endpointID, "eventId": out.EventID, "status": out.Status, "attempts": out.Attempts}), nil
	})
	return out, err
}

// SendWebhookTest publishes ev (webhooks.TestEvent's) to endpoint
// endpointID of by's organisation alone, enabled or not (an admin checks
// an endpoint before turning it on), and appends webhook.test. It
// answers the pending delivery; ErrNotFound for no such endpoint.
func (s *DB) SendWebhookTest(ctx context.Context, by teams.Actor, endpointID string, ev webhooks.Event) (_ webhooks.Delivery, err error) {
	defer wrap(&err, "SendWebhookTest")
	var out webhooks.Delivery
	_, err = s.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		if _, err := webhookEndpoint(ctx, tx, by.OrganisationID, endpointID); err != nil {
			return audit.Entry{}, err
		}
		payload, err := ev.Payload()
		if err != nil {
			return audit.Entry{}, err
		}
		card, err := json.Marshal(ev.Card)
		if err != nil {
			return audit.Entry{}, err
		}
		now := s.now().UTC()
		// As publishTx does, but to the one endpoint asked: a test event
		// is wanted by no endpoint's list.
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_events (id, organisation_id, alert_id, type, payload, card, created_at)
			VALUES (?, ?, NULL, ?, ?, ?, ?)`, ev.ID, by.OrganisationID, string(ev.Type), string(payload), string(card), timeText(now)); err != nil {
			return audit.Entry{}, err
		}
		out = webhooks.Delivery{ID: uuid.Must(uuid.NewV7()).String(), EndpointID: endpointID, EventID: ev.ID, EventType: ev.Type,
			Status: webhooks.Pending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at, updated_at)
			VALUES (?, ?, ?, 'pending', 0, ?, ?, ?)`, out.ID, endpointID, ev.ID, timeText(now), timeText(now), timeText(now)); err != nil {
			return audit.Entry{}, err
		}
		return auditEntry(by, "webhook.test", "webhook", endpointID, nil, map[string]any{"eventId": ev.ID, "deliveryId": out.ID}), nil
	})
	return out, err
}
