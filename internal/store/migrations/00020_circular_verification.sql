-- +goose Up
-- Whether a circular's entry was checked against the regulator's text
-- (catalog.Verifications; '' when the entry does not say). Indexed for
-- GET /api/circulars?verification= and the dashboard's count of those
-- awaiting a check. Emptying content_hash makes the next sync rewrite
-- every row, filling it.
ALTER TABLE circulars ADD COLUMN verification TEXT NOT NULL DEFAULT '';
CREATE INDEX circulars_verification ON circulars (verification);
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP INDEX circulars_verification;
ALTER TABLE circulars DROP COLUMN verification;
