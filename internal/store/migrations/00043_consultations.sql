-- +goose Up
-- Consultations (issue 45): a draft's or paper's comment deadline
-- (catalog.Circular's commentsDue), the draft a final instrument
-- finalises (finalOf) and, derived by the loader, a draft's final
-- instruments (finalisedBy, a JSON list like supersededBy). Emptying
-- content_hash makes the next sync rewrite every row, filling them.
ALTER TABLE circulars ADD COLUMN comments_due TEXT;                          -- YYYY-MM-DD; NULL for none
ALTER TABLE circulars ADD COLUMN final_of TEXT NOT NULL DEFAULT '';          -- the draft's slug; '' for none
ALTER TABLE circulars ADD COLUMN finalised_by TEXT NOT NULL DEFAULT '[]';    -- JSON list of circular slugs
CREATE INDEX circulars_comments_due ON circulars (comments_due) WHERE comments_due IS NOT NULL;
UPDATE circulars SET content_hash = '';

-- The comment deadlines' reminders (alerts.ReminderKinds): each
-- (alert, circular, reminder) is claimed once, before its e-mail leaves
-- (send_id set, status 'sending'); a failed one may be claimed again.
CREATE TABLE alert_reminders (
    alert_id    TEXT NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    circular_id TEXT NOT NULL,
    reminder    TEXT NOT NULL CHECK (reminder IN ('comments-7d', 'comments-1d')),
    send_id     TEXT NOT NULL UNIQUE,
    email_key   TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
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
