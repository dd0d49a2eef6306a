-- +goose Up
-- A circular's document type (catalog.DocumentTypes), its compliance
-- dates and its supersession links (JSON lists, like every list column).
-- Emptying content_hash makes the next sync rewrite every row, filling them.
ALTER TABLE circulars ADD COLUMN document_type TEXT NOT NULL DEFAULT 'circular';
ALTER TABLE circulars ADD COLUMN compliance_dates TEXT NOT NULL DEFAULT '[]';
ALTER TABLE circulars ADD COLUMN supersedes TEXT NOT NULL DEFAULT '[]';
ALTER TABLE circulars ADD COLUMN superseded_by TEXT NOT NULL DEFAULT '[]';
CREATE INDEX circulars_document_type ON circulars (document_type);
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP INDEX circulars_document_type;
ALTER TABLE circulars DROP COLUMN superseded_by;
ALTER TABLE circulars DROP COLUMN supersedes;
ALTER TABLE circulars DROP COLUMN compliance_dates;
ALTER TABLE circulars DROP COLUMN document_type;
