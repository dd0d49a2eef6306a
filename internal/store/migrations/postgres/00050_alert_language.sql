-- +goose Up
-- An anonymous subscription's language, as in ../00050_alert_language.sql.
ALTER TABLE alerts ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));

-- +goose Down
ALTER TABLE alerts DROP COLUMN language;
