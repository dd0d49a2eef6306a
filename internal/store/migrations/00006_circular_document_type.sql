-- +goose Up
-- A circular's document type (catalog.DocumentTypes). Emptying
-- content_hash makes the next sync rewrite every row, filling it.
ALTER TABLE circulars ADD COLUMN document_type TEXT NOT NULL DEFAULT 'circular';
UPDATE circulars SET content_hash = '';

-- +goose Down
ALTER TABLE circulars DROP COLUMN document_type;
