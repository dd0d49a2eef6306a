-- +goose Up
-- Search holds the Master Directions' provisions in force too; see
-- ../00028_provisions_searched.sql.
ALTER TABLE search_version ADD COLUMN provisions BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE search_version DROP COLUMN provisions;
