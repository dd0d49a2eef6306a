-- +goose Up
-- Whether a circular's entry was checked against the regulator's text
-- (catalog.Verifications; '' when the entry does not say), as in
-- ../00020_circular_verification.sql.
ALTER TABLE circulars ADD COLUMN verification TEXT COLLATE "C" NOT NULL DEFAULT '';
CREATE INDEX circulars_verification ON circulars (verification);
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP INDEX circulars_verification;
ALTER TABLE circulars DROP COLUMN verification;
