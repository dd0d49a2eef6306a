-- +goose Up
-- Every instrument ingest has seen and every copy of one, as in
-- ../00041_ingest_items.sql (keys bytewise, "C", here).
CREATE TABLE ingest_items (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source_name    TEXT COLLATE "C" NOT NULL DEFAULT '',
    source         TEXT COLLATE "C" NOT NULL DEFAULT '',
    link           TEXT NOT NULL DEFAULT '',
    link_key       TEXT COLLATE "C" NOT NULL UNIQUE,
    ref_key        TEXT COLLATE "C",
    title_date_key TEXT COLLATE "C" NOT NULL DEFAULT '',
    simhash        BIGINT NOT NULL DEFAULT 0,
    simhash_b0     INTEGER,
    simhash_b1     INTEGER,
    simhash_b2     INTEGER,
    simhash_b3     INTEGER,
    variant        TEXT COLLATE "C" NOT NULL DEFAULT 'primary' CHECK (variant IN ('primary', 'press-release', 'hindi', 'pdf', 'repost')),
    canonical_id   BIGINT REFERENCES ingest_items (id) ON DELETE CASCADE,
    title          TEXT NOT NULL DEFAULT '',
    published_date TEXT COLLATE "C" NOT NULL DEFAULT '',
    status         TEXT COLLATE "C" NOT NULL CHECK (status IN ('queued', 'written', 'merged', 'pending', 'known')),
    file_path      TEXT NOT NULL DEFAULT '',
    draft          TEXT NOT NULL DEFAULT '',
    first_seen_at  TEXT COLLATE "C" NOT NULL DEFAULT ''
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
    ref     TEXT COLLATE "C" NOT NULL,
    item_id BIGINT NOT NULL REFERENCES ingest_items (id) ON DELETE CASCADE,
    PRIMARY KEY (ref, item_id)
);
CREATE INDEX ingest_item_refs_item ON ingest_item_refs (item_id);

-- +goose Down
DROP TABLE ingest_item_refs;
DROP TABLE ingest_items;
