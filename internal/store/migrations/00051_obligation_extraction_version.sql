-- +goose Up
-- A version of each circular's extracted obligations, one more at every
-- write of them (a refresh, an editor's acceptance): with the input's
-- hash and the time it was extracted, the stamp a site build keys the
-- circular's page by (ExtractedStamps), so that a build reads the
-- obligations of the pages it renders only, not millions.
ALTER TABLE obligation_extractions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
-- The dated ones, which the calendars list (DatedExtractedObligations):
-- found without reading the millions undated.
CREATE INDEX extracted_obligations_due ON extracted_obligations (due_date) WHERE due_date IS NOT NULL;

-- +goose Down
DROP INDEX extracted_obligations_due;
ALTER TABLE obligation_extractions DROP COLUMN version;
