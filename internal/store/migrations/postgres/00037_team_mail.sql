-- +goose Up
-- The team's e-mails' preferences and the reminders sent, as in
-- ../00037_team_mail.sql (keys and ordered text columns bytewise, "C",
-- here).
ALTER TABLE user_preferences ADD COLUMN mention_emails BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE user_preferences ADD COLUMN reminder_emails BOOLEAN NOT NULL DEFAULT TRUE;

CREATE TABLE reminder_sends (
    id         TEXT COLLATE "C" PRIMARY KEY,
    user_id    TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email_key  TEXT COLLATE "C" NOT NULL,
    status     TEXT COLLATE "C" NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    items      INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT COLLATE "C" NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX reminder_sends_user ON reminder_sends (user_id, created_at);

CREATE TABLE decision_reminders (
    organisation_id TEXT COLLATE "C" NOT NULL,
    subject_type    TEXT COLLATE "C" NOT NULL,
    subject_id      TEXT COLLATE "C" NOT NULL,
    provision       TEXT COLLATE "C" NOT NULL DEFAULT '',
    kind            TEXT COLLATE "C" NOT NULL CHECK (kind IN ('due-soon', 'overdue')),
    due_date        TEXT COLLATE "C" NOT NULL,
    user_id         TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    send_id         TEXT COLLATE "C" REFERENCES reminder_sends (id) ON DELETE SET NULL,
    PRIMARY KEY (organisation_id, subject_type, subject_id, provision, kind, due_date),
    FOREIGN KEY (organisation_id, subject_type, subject_id, provision)
        REFERENCES decisions (organisation_id, subject_type, subject_id, provision) ON DELETE CASCADE
);
CREATE INDEX decision_reminders_send ON decision_reminders (send_id);

-- +goose Down
DROP TABLE decision_reminders;
DROP TABLE reminder_sends;
ALTER TABLE user_preferences DROP COLUMN reminder_emails;
ALTER TABLE user_preferences DROP COLUMN mention_emails;
