-- +goose Up
-- The ingestion pipeline's state per source and its polls, as in
-- ../00040_ingest_sources.sql (keys and ordered text columns bytewise,
-- "C", here).
CREATE TABLE ingest_sources (
    name               TEXT COLLATE "C" PRIMARY KEY,
    source             TEXT COLLATE "C" NOT NULL,
    kind               TEXT COLLATE "C" NOT NULL DEFAULT 'feed' CHECK (kind IN ('feed', 'listing')),
    url                TEXT NOT NULL DEFAULT '',
    etag               TEXT NOT NULL DEFAULT '',
    last_modified      TEXT NOT NULL DEFAULT '',
    body_sha256        TEXT NOT NULL DEFAULT '',
    last_poll_at       TEXT COLLATE "C" NOT NULL DEFAULT '',
    last_success_at    TEXT COLLATE "C" NOT NULL DEFAULT '',
    next_poll_at       TEXT COLLATE "C" NOT NULL DEFAULT '',
    last_status        TEXT COLLATE "C" NOT NULL DEFAULT '',
    last_error         TEXT NOT NULL DEFAULT '',
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    stale_reported_at  TEXT COLLATE "C" NOT NULL DEFAULT '',
    shape_reported_at  TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX ingest_sources_next ON ingest_sources (next_poll_at);
CREATE INDEX ingest_sources_source ON ingest_sources (source, last_success_at);

CREATE TABLE ingest_polls (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source_name TEXT COLLATE "C" NOT NULL,
    at          TEXT COLLATE "C" NOT NULL,
    outcome     TEXT COLLATE "C" NOT NULL CHECK (outcome IN ('parsed', 'not-modified', 'unchanged', 'error', 'shape-changed')),
    http_status INTEGER NOT NULL DEFAULT 0,
    items       INTEGER NOT NULL DEFAULT 0,
    new_items   INTEGER NOT NULL DEFAULT 0,
    backfilled  INTEGER NOT NULL DEFAULT 0,
    merged      INTEGER NOT NULL DEFAULT 0,
    took_ms     INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ingest_polls_source ON ingest_polls (source_name, at);
CREATE INDEX ingest_polls_at ON ingest_polls (at);

-- +goose Down
DROP TABLE ingest_polls;
DROP TABLE ingest_sources;
