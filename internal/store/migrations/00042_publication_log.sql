-- +goose Up
-- The publication log (issue 45), after legislation.gov.uk's: every change
-- a catalog sync makes to what readers see, appended in the sync's own
-- transaction. seq is the cursor consumers page by: syncs are serialised
-- (SQLite's one writer, PostgreSQL's sync lock), so seqs become visible in
-- order and a consumer that remembers the last seq it read misses nothing.
-- event: baseline (the first sync after this migration, or on a new store,
-- records the catalog as it stands in one row instead of logging the whole
-- archive as published), published, revised, withdrawn, superseded,
-- removed (taken off the site), republished (back after a removal).
-- before_hash/after_hash are the log's hashes of the entry's text for a
-- revision; detail is JSON (path, changes, supersededBy, withdrawnOn, note).
CREATE TABLE publication_log (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TEXT NOT NULL,
    event       TEXT NOT NULL CHECK (event IN ('baseline', 'published', 'revised', 'withdrawn', 'superseded', 'removed', 'republished')),
    kind        TEXT NOT NULL CHECK (kind IN ('catalog', 'circular', 'direction', 'direction-version')),
    entry_id    TEXT NOT NULL DEFAULT '',
    slug        TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    title       TEXT NOT NULL DEFAULT '',
    before_hash TEXT NOT NULL DEFAULT '',
    after_hash  TEXT NOT NULL DEFAULT '',
    detail      TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX publication_log_at ON publication_log (at);
CREATE INDEX publication_log_source ON publication_log (source, seq);

-- What the log last knew of each entry, so that a sync compares against
-- it rather than against what the sync itself overwrites: store_hash is
-- the entry's row content_hash when last compared (a row whose hash did
-- not move needs no look), text_hash the log's own hash of the text
-- readers see (stable when a column is added to the rows), present 0
-- once the entry left the catalog (its return is a republication);
-- slug, source, title and path name it in the entry of its removal.
CREATE TABLE publication_state (
    kind          TEXT NOT NULL,
    entry_id      TEXT NOT NULL,
    slug          TEXT NOT NULL DEFAULT '',
    source        TEXT NOT NULL DEFAULT '',
    title         TEXT NOT NULL DEFAULT '',
    path          TEXT NOT NULL DEFAULT '',
    store_hash    TEXT NOT NULL DEFAULT '',
    text_hash     TEXT NOT NULL DEFAULT '',
    withdrawn_on  TEXT NOT NULL DEFAULT '',
    superseded_by TEXT NOT NULL DEFAULT '',
    present       INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (kind, entry_id)
);

-- Each sync reads every circular's content_hash (the table's sync, and
-- the log's join above when circulars changed): from this index rather
-- than from rows whose content comes before the hash (four times faster
-- at 10,000 circulars on SQLite).
CREATE INDEX circulars_id_hash ON circulars (id, content_hash);

-- +goose Down
DROP INDEX circulars_id_hash;
DROP TABLE publication_state;
DROP TABLE publication_log;
