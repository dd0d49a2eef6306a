-- +goose Up
-- Webhooks and chat channels, as in ../00046_webhooks.sql (flags are
-- BOOLEAN here).
CREATE TABLE webhook_endpoints (
    id               TEXT COLLATE "C" PRIMARY KEY,
    organisation_id  TEXT COLLATE "C" REFERENCES organisations (id) ON DELETE CASCADE,
    alert_id         TEXT COLLATE "C" REFERENCES alerts (id) ON DELETE CASCADE,
    kind             TEXT NOT NULL CHECK (kind IN ('webhook', 'slack', 'teams')),
    url              TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    events           TEXT NOT NULL DEFAULT '[]', -- webhooks.EventTypes, a JSON list
    secret           TEXT NOT NULL DEFAULT '',   -- whsec_…, a webhook's only
    enabled          BOOLEAN NOT NULL DEFAULT TRUE,
    disabled_reason  TEXT NOT NULL DEFAULT '',
    failures         INTEGER NOT NULL DEFAULT 0, -- deliveries failed for good in a row
    failing_since    TEXT,
    created_by       TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    CHECK ((organisation_id IS NULL) <> (alert_id IS NULL))
);
CREATE INDEX webhook_endpoints_org ON webhook_endpoints (organisation_id) WHERE organisation_id IS NOT NULL;
CREATE INDEX webhook_endpoints_alert ON webhook_endpoints (alert_id) WHERE alert_id IS NOT NULL;

-- An event, once: its id is the webhook-id of every delivery of it;
-- payload is the webhook body, byte for byte as signed; card what a chat
-- channel shows.
CREATE TABLE webhook_events (
    id               TEXT COLLATE "C" PRIMARY KEY,
    organisation_id  TEXT COLLATE "C",
    alert_id         TEXT COLLATE "C",
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,
    card             TEXT NOT NULL DEFAULT '{}',
    created_at       TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhook_events_created ON webhook_events (created_at);

-- A delivery of an event to an endpoint: pending until next_attempt_at,
-- sending while claimed (until claimed_until), then delivered, failed or
-- (a chat message whose sender died mid-send) unknown.
CREATE TABLE webhook_deliveries (
    id               TEXT COLLATE "C" PRIMARY KEY,
    endpoint_id      TEXT COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id         TEXT COLLATE "C" NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    status           TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'delivered', 'failed', 'unknown')),
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  TEXT COLLATE "C",
    claimed_until    TEXT COLLATE "C",
    created_at       TEXT COLLATE "C" NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries (claimed_until) WHERE status = 'sending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (endpoint_id, created_at);
-- the events' deliveries: the log's prune deletes old events, cascading here
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);

CREATE TABLE webhook_attempts (
    delivery_id      TEXT COLLATE "C" NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    n                INTEGER NOT NULL,
    at               TEXT NOT NULL,
    duration_ms      INTEGER NOT NULL DEFAULT 0,
    status_code      INTEGER NOT NULL DEFAULT 0,
    response         TEXT NOT NULL DEFAULT '',
    error            TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (delivery_id, n)
);

-- +goose Down
DROP TABLE webhook_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_events;
DROP TABLE webhook_endpoints;
