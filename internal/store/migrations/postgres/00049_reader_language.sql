-- +goose Up
-- A reader's language, as in ../00049_reader_language.sql.
ALTER TABLE users ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));
ALTER TABLE newsletter_subscribers ADD COLUMN language TEXT COLLATE "C" NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));

-- +goose Down
ALTER TABLE newsletter_subscribers DROP COLUMN language;
ALTER TABLE users DROP COLUMN language;
