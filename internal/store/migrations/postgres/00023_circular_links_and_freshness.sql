-- +goose Up
-- Each circular link's kind, the official link's confidence, the links
-- with their labels, and when the catalog was last synced, as in
-- ../00023_circular_links_and_freshness.sql.
ALTER TABLE circulars ADD COLUMN official_url_confidence TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE circulars ADD COLUMN source_kind TEXT COLLATE "C" NOT NULL DEFAULT '';
ALTER TABLE circulars ADD COLUMN links TEXT NOT NULL DEFAULT '[]';
CREATE TABLE catalog_status (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    synced_at TEXT NOT NULL
);
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP TABLE catalog_status;
ALTER TABLE circulars DROP COLUMN links;
ALTER TABLE circulars DROP COLUMN source_kind;
ALTER TABLE circulars DROP COLUMN official_url_confidence;
