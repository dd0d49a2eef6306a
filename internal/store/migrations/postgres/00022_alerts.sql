-- +goose Up
-- Alerts, their matches, e-mails, bouncing addresses and run lock, as in
-- ../00022_alerts.sql (flags are BOOLEAN here).
CREATE TABLE alerts (
    id              TEXT PRIMARY KEY,
    user_id         TEXT REFERENCES users (id) ON DELETE CASCADE,
    email           TEXT NOT NULL DEFAULT '',
    email_key       TEXT NOT NULL DEFAULT '',
    kind            TEXT NOT NULL CHECK (kind IN ('preferences', 'search')),
    name            TEXT NOT NULL,
    query           TEXT NOT NULL DEFAULT '',
    sources         TEXT NOT NULL DEFAULT '[]',
    categories      TEXT NOT NULL DEFAULT '[]',
    document_types  TEXT NOT NULL DEFAULT '[]',
    impact_levels   TEXT NOT NULL DEFAULT '[]',
    frequency       TEXT NOT NULL CHECK (frequency IN ('immediately', 'daily', 'weekly')),
    enabled         BOOLEAN NOT NULL DEFAULT TRUE,
    confirmed_at    TEXT,
    confirm_sent_at TEXT,
    feed_token      TEXT NOT NULL UNIQUE,
    folded          BOOLEAN NOT NULL DEFAULT FALSE,
    created_at      TEXT COLLATE "C" NOT NULL,
    updated_at      TEXT NOT NULL,
    last_sent_at    TEXT
);
CREATE UNIQUE INDEX alerts_preferences ON alerts (user_id) WHERE kind = 'preferences';
CREATE INDEX alerts_user ON alerts (user_id, created_at);
INSERT INTO alerts (id, user_id, kind, name, frequency, confirmed_at, feed_token, created_at, updated_at)
    SELECT gen_random_uuid()::text, user_id, 'preferences', 'My preferences', 'daily',
           to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
           to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    FROM user_preferences;

CREATE TABLE alert_arrivals (
    circular_id TEXT PRIMARY KEY,
    arrived_at  TEXT COLLATE "C" NOT NULL,
    matched     BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX alert_arrivals_unmatched ON alert_arrivals (arrived_at) WHERE NOT matched;
INSERT INTO alert_arrivals (circular_id, arrived_at, matched) SELECT id, '0001-01-01T00:00:00Z', TRUE FROM circulars;

CREATE TABLE alert_deliveries (
    alert_id    TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    circular_id TEXT NOT NULL,
    matched_at  TEXT COLLATE "C" NOT NULL,
    send_id     TEXT,
    PRIMARY KEY (alert_id, circular_id)
);
CREATE INDEX alert_deliveries_waiting ON alert_deliveries (alert_id) WHERE send_id IS NULL;
CREATE INDEX alert_deliveries_send ON alert_deliveries (send_id);

CREATE TABLE alert_sends (
    id         TEXT PRIMARY KEY,
    alert_id   TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    email_key  TEXT NOT NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('immediately', 'daily', 'weekly', 'fold')),
    status     TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    circulars  INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX alert_sends_alert ON alert_sends (alert_id, created_at);
CREATE INDEX alert_sends_created ON alert_sends (created_at);

CREATE TABLE alert_addresses (
    email_key  TEXT PRIMARY KEY,
    email      TEXT NOT NULL,
    failures   INTEGER NOT NULL DEFAULT 0,
    bouncing   BOOLEAN NOT NULL DEFAULT FALSE,
    last_error TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL
);

CREATE TABLE alert_runs (
    run_key     TEXT PRIMARY KEY,
    holder      TEXT NOT NULL,
    lease_until TEXT COLLATE "C" NOT NULL,
    finished_at TEXT
);

-- +goose Down
DROP TABLE alert_runs;
DROP TABLE alert_addresses;
DROP TABLE alert_sends;
DROP TABLE alert_deliveries;
DROP TABLE alert_arrivals;
DROP TABLE alerts;
