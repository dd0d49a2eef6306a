-- +goose Up
-- What each circular link is (catalog.SourceKinds), how its official
-- link was matched (catalog.OfficialURLConfidences), and every link with
-- its kind, host and label (a JSON list, like every list column).
-- catalog_status keeps when the catalog was last synced, for the lists'
-- "up to date as of". Emptying content_hash makes the next sync rewrite
-- every row, filling the columns.
ALTER TABLE circulars ADD COLUMN official_url_confidence TEXT NOT NULL DEFAULT '';
ALTER TABLE circulars ADD COLUMN source_kind TEXT NOT NULL DEFAULT '';
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
