-- +goose Up
-- Alerts (alerts.Alert): a user's preferences (kind 'preferences', one per
-- user, its filters and on/off read from user_preferences), a user's saved
-- searches, and anonymous subscriptions (user_id NULL, email set,
-- confirmed_at NULL until the e-mailed link is followed).
CREATE TABLE alerts (
    id              TEXT PRIMARY KEY,
    user_id         TEXT REFERENCES users (id) ON DELETE CASCADE,
    email           TEXT NOT NULL DEFAULT '',   -- an anonymous subscription's address
    email_key       TEXT NOT NULL DEFAULT '',   -- lower-cased in Go
    kind            TEXT NOT NULL CHECK (kind IN ('preferences', 'search')),
    name            TEXT NOT NULL,
    query           TEXT NOT NULL DEFAULT '',
    sources         TEXT NOT NULL DEFAULT '[]', -- JSON lists, as user_preferences
    categories      TEXT NOT NULL DEFAULT '[]',
    document_types  TEXT NOT NULL DEFAULT '[]',
    impact_levels   TEXT NOT NULL DEFAULT '[]',
    frequency       TEXT NOT NULL CHECK (frequency IN ('immediately', 'daily', 'weekly')),
    enabled         INTEGER NOT NULL DEFAULT 1,
    confirmed_at    TEXT,                       -- RFC 3339; NULL: not confirmed yet
    confirm_sent_at TEXT,                       -- the confirmation e-mail went
    feed_token      TEXT NOT NULL UNIQUE,       -- the private feed's secret; replaced to revoke it
    folded          INTEGER NOT NULL DEFAULT 0, -- an immediate alert over its daily cap: waits for the digest hour
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    last_sent_at    TEXT
);
CREATE UNIQUE INDEX alerts_preferences ON alerts (user_id) WHERE kind = 'preferences';
CREATE INDEX alerts_user ON alerts (user_id, created_at);
INSERT INTO alerts (id, user_id, kind, name, frequency, confirmed_at, feed_token, created_at, updated_at)
    SELECT lower(hex(randomblob(16))), user_id, 'preferences', 'My preferences', 'daily',
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), lower(hex(randomblob(24))),
           strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    FROM user_preferences;

-- Each circular once, when it first reaches the store (a sync adding it:
-- ingested and published, published by an edit, or synced by another
-- instance); matched once against every alert. The circulars already
-- stored count as matched: nothing old is news.
CREATE TABLE alert_arrivals (
    circular_id TEXT PRIMARY KEY,
    arrived_at  TEXT NOT NULL,
    matched     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX alert_arrivals_unmatched ON alert_arrivals (arrived_at) WHERE matched = 0;
INSERT INTO alert_arrivals (circular_id, arrived_at, matched) SELECT id, '0001-01-01T00:00:00Z', 1 FROM circulars;

-- One row per (alert, circular) match: send_id NULL waits to be sent;
-- set, it names the e-mail that carried (or carries) it.
CREATE TABLE alert_deliveries (
    alert_id    TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    circular_id TEXT NOT NULL,
    matched_at  TEXT NOT NULL,
    send_id     TEXT,
    PRIMARY KEY (alert_id, circular_id)
);
CREATE INDEX alert_deliveries_waiting ON alert_deliveries (alert_id) WHERE send_id IS NULL;
CREATE INDEX alert_deliveries_send ON alert_deliveries (send_id);

-- Each e-mail: claimed ('sending') with its deliveries before it leaves,
-- finished 'sent' or 'failed' (a failure gives its deliveries back).
CREATE TABLE alert_sends (
    id         TEXT PRIMARY KEY,
    alert_id   TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    email_key  TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('immediately', 'daily', 'weekly', 'fold')),
    status     TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    circulars  INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX alert_sends_alert ON alert_sends (alert_id, created_at);
CREATE INDEX alert_sends_created ON alert_sends (created_at);

-- Addresses a server refused permanently (5xx): bouncing after
-- alerts.BounceAfter refusals in a row, then skipped.
CREATE TABLE alert_addresses (
    email_key  TEXT PRIMARY KEY,
    email      TEXT NOT NULL,
    failures   INTEGER NOT NULL DEFAULT 0,
    bouncing   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

-- The alert runs' lock, as newsletter_runs: one row per run (immediately
-- at a minute, the day's digest, the week's), leased, then finished.
CREATE TABLE alert_runs (
    run_key     TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until TEXT NOT NULL,
    finished_at TEXT
);

-- +goose Down
DROP TABLE alert_runs;
DROP TABLE alert_addresses;
DROP TABLE alert_sends;
DROP TABLE alert_deliveries;
DROP TABLE alert_arrivals;
DROP TABLE alerts;
