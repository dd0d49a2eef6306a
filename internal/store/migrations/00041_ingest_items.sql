-- +goose Up
-- Every instrument ingest has seen and every copy of one (issue 45): its
-- identity (the normalised link; the reference numbers normalised per
-- source, space-separated; source, date and title words; a SimHash of
-- its text, stored as a signed 64-bit integer, with its four 16-bit bands
-- indexed so near copies are found without a scan; NULL bands when the
-- text was too short to fingerprint) and what became of it. A run looks
-- up each arriving item's candidates by these indexes rather than reading
-- every row (IngestCandidates).
-- canonical_id is NULL for a first copy, else the first copy's row ("also
-- published as"), with variant saying what the copy is. status: queued
-- (a draft held here only, for `regpulse ingest pull`), written (a draft
-- written as file_path), merged (a copy whose link was added to the first
-- copy's draft), pending (a copy whose link waits for an editor: the file
-- was edited), known (seeded from the content on the first run). draft is
-- the rendered file, compared before ingest adds a link to it. Times are
-- RFC 3339 UTC; published_date is YYYY-MM-DD.
CREATE TABLE ingest_items (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    source_name    TEXT NOT NULL DEFAULT '',
    source         TEXT NOT NULL DEFAULT '',
    link           TEXT NOT NULL DEFAULT '',
    link_key       TEXT NOT NULL UNIQUE,
    ref_key        TEXT,
    title_date_key TEXT NOT NULL DEFAULT '',
    simhash        INTEGER NOT NULL DEFAULT 0,
    simhash_b0     INTEGER,
    simhash_b1     INTEGER,
    simhash_b2     INTEGER,
    simhash_b3     INTEGER,
    variant        TEXT NOT NULL DEFAULT 'primary' CHECK (variant IN ('primary', 'press-release', 'hindi', 'pdf', 'repost')),
    canonical_id   INTEGER REFERENCES ingest_items (id) ON DELETE CASCADE,
    title          TEXT NOT NULL DEFAULT '',
    published_date TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL CHECK (status IN ('queued', 'written', 'merged', 'pending', 'known')),
    file_path      TEXT NOT NULL DEFAULT '',
    draft          TEXT NOT NULL DEFAULT '',
    first_seen_at  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX ingest_items_title_date ON ingest_items (title_date_key);
CREATE INDEX ingest_items_b0 ON ingest_items (simhash_b0) WHERE simhash_b0 IS NOT NULL;
CREATE INDEX ingest_items_b1 ON ingest_items (simhash_b1) WHERE simhash_b1 IS NOT NULL;
CREATE INDEX ingest_items_b2 ON ingest_items (simhash_b2) WHERE simhash_b2 IS NOT NULL;
CREATE INDEX ingest_items_b3 ON ingest_items (simhash_b3) WHERE simhash_b3 IS NOT NULL;
CREATE INDEX ingest_items_canonical ON ingest_items (canonical_id);
CREATE INDEX ingest_items_status ON ingest_items (status);

-- Each reference key of an item on a row of its own (ref_key holds them
-- all, space-separated): an arriving item's keys are looked up here.
CREATE TABLE ingest_item_refs (
    ref     TEXT NOT NULL,
    item_id INTEGER NOT NULL REFERENCES ingest_items (id) ON DELETE CASCADE,
    PRIMARY KEY (ref, item_id)
);
CREATE INDEX ingest_item_refs_item ON ingest_item_refs (item_id);

-- +goose Down
DROP TABLE ingest_item_refs;
DROP TABLE ingest_items;
