-- +goose Up
-- A version of each circular's extracted obligations, as in
-- ../00051_obligation_extraction_version.sql.
ALTER TABLE obligation_extractions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE obligation_extractions DROP COLUMN version;
