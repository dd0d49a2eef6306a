-- +goose Up
-- The team's e-mails (issue 44): whether a user wants an e-mail when a
-- colleague @mentions them, and the daily reminder of their decisions
-- due within a week or overdue (both on, as e-mail notifications are);
-- and the reminders sent: each decision is reminded once per kind
-- (due-soon, overdue) and due date, claimed with its e-mail before the
-- e-mail leaves (reminder_sends, as alert_sends), so a rerun or a run
-- after a crash never reminds twice. A failed e-mail gives its rows
-- back (send_id NULL), for the next run to claim again.
ALTER TABLE user_preferences ADD COLUMN mention_emails INTEGER NOT NULL DEFAULT 1;
ALTER TABLE user_preferences ADD COLUMN reminder_emails INTEGER NOT NULL DEFAULT 1;

CREATE TABLE reminder_sends (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email_key  TEXT NOT NULL,
    status     TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
    message_id TEXT NOT NULL,
    items      INTEGER NOT NULL,
    error      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX reminder_sends_user ON reminder_sends (user_id, created_at);

CREATE TABLE decision_reminders (
    organisation_id TEXT NOT NULL,
    subject_type    TEXT NOT NULL,
    subject_id      TEXT NOT NULL,
    provision       TEXT NOT NULL DEFAULT '',
    kind            TEXT NOT NULL CHECK (kind IN ('due-soon', 'overdue')),
    due_date        TEXT NOT NULL,
    user_id         TEXT REFERENCES users (id) ON DELETE SET NULL,
    send_id         TEXT REFERENCES reminder_sends (id) ON DELETE SET NULL,
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
