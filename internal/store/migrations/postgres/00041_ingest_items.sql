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
    simhash_b0     INTEGER NOT NULL DEFAULT 0,
    simhash_b1     INTEGER NOT NULL DEFAULT 0,
    simhash_b2     INTEGER NOT NULL DEFAULT 0,
    simhash_b3     INTEGER NOT NULL DEFAULT 0,
    variant        TEXT COLLATE "C" NOT NULL DEFAULT 'primary' CHECK (variant IN ('primary', 'press-release', 'hindi', 'pdf', 'repost')),
    canonical_id   BIGINT REFERENCES ingest_items (id) ON DELETE CASCADE,
    title          TEXT NOT NULL DEFAULT '',
    published_date TEXT COLLATE "C" NOT NULL DEFAULT '',
    status         TEXT COLLATE "C" NOT NULL CHECK (status IN ('queued', 'written', 'merged', 'pending', 'known')),
    file_path      TEXT NOT NULL DEFAULT '',
    draft          TEXT NOT NULL DEFAULT '',
    first_seen_at  TEXT COLLATE "C" NOT NULL DEFAULT ''
);
CREATE INDEX ingest_items_ref ON ingest_items (ref_key) WHERE ref_key IS NOT NULL;
CREATE INDEX ingest_items_title_date ON ingest_items (title_date_key);
CREATE INDEX ingest_items_b0 ON ingest_items (simhash_b0);
CREATE INDEX ingest_items_b1 ON ingest_items (simhash_b1);
CREATE INDEX ingest_items_b2 ON ingest_items (simhash_b2);
CREATE INDEX ingest_items_b3 ON ingest_items (simhash_b3);
CREATE INDEX ingest_items_canonical ON ingest_items (canonical_id);
CREATE INDEX ingest_items_status ON ingest_items (status);

-- +goose Down
DROP TABLE ingest_items;
