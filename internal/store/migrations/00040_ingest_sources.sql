-- +goose Up
-- The ingestion pipeline's state per feed or listing page (issue 45):
-- the validators sent on the next poll (ETag, Last-Modified) and the
-- body's SHA-256 for servers that ignore them; when it was last polled,
-- last answered well and is next due (its cadence, jitter and back-off
-- decided in Go); how the last poll ended; and when the operator was last
-- told that it went stale or changed shape (once per spell). name is the
-- feeds.yaml name; source the catalog source (RBI, NPCI …) its items go
-- under, for "up to date as of" per source. Times are RFC 3339 UTC.
CREATE TABLE ingest_sources (
    name               TEXT PRIMARY KEY,
    source             TEXT NOT NULL,
    kind               TEXT NOT NULL DEFAULT 'feed' CHECK (kind IN ('feed', 'listing')),
    url                TEXT NOT NULL DEFAULT '',
    etag               TEXT NOT NULL DEFAULT '',
    last_modified      TEXT NOT NULL DEFAULT '',
    body_sha256        TEXT NOT NULL DEFAULT '',
    last_poll_at       TEXT NOT NULL DEFAULT '',
    last_success_at    TEXT NOT NULL DEFAULT '',
    next_poll_at       TEXT NOT NULL DEFAULT '',
    last_status        TEXT NOT NULL DEFAULT '',
    last_error         TEXT NOT NULL DEFAULT '',
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    stale_reported_at  TEXT NOT NULL DEFAULT '',
    shape_reported_at  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ingest_sources_next ON ingest_sources (next_poll_at);
CREATE INDEX ingest_sources_source ON ingest_sources (source, last_success_at);

-- Every poll, for the figures (polls, 304s, new items, backfills,
-- merges) and the operator's view; kept 90 days.
CREATE TABLE ingest_polls (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    source_name TEXT NOT NULL,
    at          TEXT NOT NULL,
    outcome     TEXT NOT NULL CHECK (outcome IN ('parsed', 'not-modified', 'unchanged', 'error', 'shape-changed')),
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
