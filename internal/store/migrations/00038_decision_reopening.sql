-- +goose Up
-- A decision reopens when the text it was about changes (issue 44,
-- decisions.Reopening): reopened keeps the last reopening as JSON (NULL:
-- never reopened). The catalog's sync looks for such decisions each time
-- it runs, from the subjects' side: decisions_subject finds a
-- subject's decisions (a withdrawn circular's, a direction's provisions'
-- by text version), decisions_dated the few decided on a circular
-- already withdrawn (text_version not ''), circulars_withdrawn the
-- circulars no longer in force.
ALTER TABLE decisions ADD COLUMN reopened TEXT;
CREATE INDEX decisions_subject ON decisions (subject_type, subject_id, provision, text_version);
CREATE INDEX decisions_dated ON decisions (subject_type, subject_id) WHERE text_version <> '';
CREATE INDEX circulars_withdrawn ON circulars (withdrawn_on) WHERE withdrawn_on IS NOT NULL;

-- +goose Down
DROP INDEX circulars_withdrawn;
DROP INDEX decisions_dated;
DROP INDEX decisions_subject;
ALTER TABLE decisions DROP COLUMN reopened;
