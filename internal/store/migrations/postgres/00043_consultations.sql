-- +goose Up
-- Consultations' columns and the comment deadlines' reminders, as in
-- ../00043_consultations.sql (keys and ordered text columns bytewise,
-- "C", here).
ALTER TABLE circulars ADD COLUMN comments_due TEXT;
ALTER TABLE circulars ADD COLUMN final_of TEXT NOT NULL DEFAULT '';
ALTER TABLE circulars ADD COLUMN finalised_by TEXT NOT NULL DEFAULT '[]';
CREATE INDEX circulars_comments_due ON circulars (comments_due COLLATE "C") WHERE comments_due IS NOT NULL;
UPDATE circulars SET content_hash = '';

CREATE TABLE alert_reminders (
    alert_id    TEXT COLLATE "C" NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    circular_id TEXT COLLATE "C" NOT NULL,
    reminder    TEXT COLLATE "C" NOT NULL CHECK (reminder IN ('comments-7d', 'comments-1d')),
    send_id     TEXT COLLATE "C" NOT NULL UNIQUE,
    email_key   TEXT COLLATE "C" NOT NULL,
    status      TEXT COLLATE "C" NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id  TEXT NOT NULL,
    error       TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (alert_id, circular_id, reminder)
);

-- +goose Down
DROP TABLE alert_reminders;
DROP INDEX circulars_comments_due;
ALTER TABLE circulars DROP COLUMN finalised_by;
ALTER TABLE circulars DROP COLUMN final_of;
ALTER TABLE circulars DROP COLUMN comments_due;
