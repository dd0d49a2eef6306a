-- +goose Up
-- The language of an anonymous alert subscription's e-mails (issue 48):
-- the language of the page it was made on (the islands send
-- Accept-Language). A user's alerts read their user's language
-- (users.language, 00049), not this. Subscriptions before read English.
ALTER TABLE alerts ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));

-- +goose Down
ALTER TABLE alerts DROP COLUMN language;
