-- +goose Up
-- A version of each circular's extracted obligations, as in
-- ../00051_obligation_extraction_version.sql.
ALTER TABLE obligation_extractions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
-- The dated ones, which the calendars list (DatedExtractedObligations):
-- found without reading the millions undated.
CREATE INDEX extracted_obligations_due ON extracted_obligations (due_date) WHERE due_date IS NOT NULL;

-- +goose Down
DROP INDEX extracted_obligations_due;
ALTER TABLE obligation_extractions DROP COLUMN version;
