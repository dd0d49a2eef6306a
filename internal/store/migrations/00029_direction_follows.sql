-- +goose Up
-- Users following Master Directions (alerts.Follow): when a sync brings
-- a version of a followed direction that the store never had, each
-- follower gets one e-mail with its redline (alerts.Run), as the alerts
-- do for circulars: arrivals once per version id, deliveries once per
-- (follow, version), each e-mail claimed with its deliveries before it
-- leaves.
CREATE TABLE direction_follows (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    direction    TEXT NOT NULL,              -- the direction's slug
    created_at   TEXT NOT NULL,
    last_sent_at TEXT
);
CREATE UNIQUE INDEX direction_follows_user ON direction_follows (user_id, direction);
CREATE INDEX direction_follows_direction ON direction_follows (direction);

-- Each published version once, when it first reaches the store (a sync
-- adding it, or publishing a draft); matched once against the follows.
-- The versions already stored count as matched: nothing old is news.
CREATE TABLE direction_arrivals (
    version_id TEXT PRIMARY KEY,
    arrived_at TEXT NOT NULL,
    matched    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX direction_arrivals_unmatched ON direction_arrivals (arrived_at) WHERE matched = 0;
INSERT INTO direction_arrivals (version_id, arrived_at, matched) SELECT id, '0001-01-01T00:00:00Z', 1 FROM direction_versions;

-- One row per (follow, version): send_id NULL waits to be sent; set, it
-- names the e-mail that carried (or carries) it.
CREATE TABLE direction_deliveries (
    follow_id  TEXT NOT NULL REFERENCES direction_follows (id) ON DELETE CASCADE,
    version_id TEXT NOT NULL,
    matched_at TEXT NOT NULL,
    send_id    TEXT,
    PRIMARY KEY (follow_id, version_id)
);
CREATE INDEX direction_deliveries_waiting ON direction_deliveries (follow_id) WHERE send_id IS NULL;
CREATE INDEX direction_deliveries_send ON direction_deliveries (send_id);

-- Each e-mail: claimed ('sending') with its deliveries before it leaves,
-- finished 'sent' or 'failed' (a failure gives its deliveries back).
CREATE TABLE direction_sends (
    id         TEXT PRIMARY KEY,
    follow_id  TEXT NOT NULL REFERENCES direction_follows (id) ON DELETE CASCADE,
    email_key  TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    versions   INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX direction_sends_follow ON direction_sends (follow_id, created_at);

-- +goose Down
DROP TABLE direction_sends;
DROP TABLE direction_deliveries;
DROP TABLE direction_arrivals;
DROP TABLE direction_follows;
