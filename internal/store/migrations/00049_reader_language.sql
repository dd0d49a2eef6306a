-- +goose Up
-- A reader's language (issue 48): the language of the e-mails a user or
-- a newsletter subscriber receives, i18n.Languages' codes. It is the
-- language of the page they signed up or subscribed on (the islands send
-- Accept-Language), and a user changes it in their profile. Everyone
-- before reads English, as they did.
ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));
ALTER TABLE newsletter_subscribers ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'hi'));

-- +goose Down
ALTER TABLE newsletter_subscribers DROP COLUMN language;
ALTER TABLE users DROP COLUMN language;
