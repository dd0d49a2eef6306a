-- +goose Up
-- Users following Master Directions, the versions' arrivals, deliveries
-- and e-mails, as in ../00028_direction_follows.sql (flags are BOOLEAN,
-- keys and ordered text columns bytewise, "C", here).
CREATE TABLE direction_follows (
    id           TEXT COLLATE "C" PRIMARY KEY,
    user_id      TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    direction    TEXT COLLATE "C" NOT NULL,
    created_at   TEXT NOT NULL,
    last_sent_at TEXT
);
CREATE UNIQUE INDEX direction_follows_user ON direction_follows (user_id, direction);
CREATE INDEX direction_follows_direction ON direction_follows (direction);

CREATE TABLE direction_arrivals (
    version_id TEXT COLLATE "C" PRIMARY KEY,
    arrived_at TEXT COLLATE "C" NOT NULL,
    matched    BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX direction_arrivals_unmatched ON direction_arrivals (arrived_at) WHERE NOT matched;
INSERT INTO direction_arrivals (version_id, arrived_at, matched) SELECT id, '0001-01-01T00:00:00Z', TRUE FROM direction_versions;

CREATE TABLE direction_deliveries (
    follow_id  TEXT COLLATE "C" NOT NULL REFERENCES direction_follows (id) ON DELETE CASCADE,
    version_id TEXT COLLATE "C" NOT NULL,
    matched_at TEXT NOT NULL,
    send_id    TEXT COLLATE "C",
    PRIMARY KEY (follow_id, version_id)
);
CREATE INDEX direction_deliveries_waiting ON direction_deliveries (follow_id) WHERE send_id IS NULL;
CREATE INDEX direction_deliveries_send ON direction_deliveries (send_id);

CREATE TABLE direction_sends (
    id         TEXT COLLATE "C" PRIMARY KEY,
    follow_id  TEXT COLLATE "C" NOT NULL REFERENCES direction_follows (id) ON DELETE CASCADE,
    email_key  TEXT COLLATE "C" NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    versions   INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX direction_sends_follow ON direction_sends (follow_id, created_at);

-- +goose Down
DROP TABLE direction_sends;
DROP TABLE direction_deliveries;
DROP TABLE direction_arrivals;
DROP TABLE direction_follows;
