-- +goose Up
-- Reopened decisions, as in ../00038_decision_reopening.sql (the indexed
-- texts bytewise, "C", as SQLite compares them).
ALTER TABLE decisions ADD COLUMN reopened TEXT;
CREATE INDEX decisions_subject ON decisions (subject_type, subject_id, provision, text_version COLLATE "C");
CREATE INDEX decisions_dated ON decisions (subject_type, subject_id) WHERE text_version <> '';
CREATE INDEX circulars_withdrawn ON circulars (withdrawn_on COLLATE "C") WHERE withdrawn_on IS NOT NULL;

-- +goose Down
DROP INDEX circulars_withdrawn;
DROP INDEX decisions_dated;
DROP INDEX decisions_subject;
ALTER TABLE decisions DROP COLUMN reopened;
