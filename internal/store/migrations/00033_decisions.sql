-- +goose Up
-- Decisions (decisions.Decision, issue 44): an organisation's one
-- decision per subject (a circular or an obligation by id, or a Master
-- Direction's provision: subject_id its slug, provision its number; ''
-- for the others), its owner, due date, status, and the text version it
-- was about; version counts its changes (a write names the one it read).
-- The subject has no foreign key: the catalog's tables are rewritten by
-- each sync, and a decision outlives its text. The comments keep the
-- mentioned members' user ids as a JSON list.
CREATE TABLE decisions (
    organisation_id TEXT NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    subject_type    TEXT NOT NULL CHECK (subject_type IN ('circular', 'obligation', 'provision')),
    subject_id      TEXT NOT NULL,
    provision       TEXT NOT NULL DEFAULT '',
    applicability   TEXT NOT NULL CHECK (applicability IN ('applicable', 'not-applicable', 'deferred')),
    reason          TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    deferred_until  TEXT,
    owner_id        TEXT REFERENCES users (id) ON DELETE SET NULL,
    due             TEXT NOT NULL DEFAULT '',
    due_date        TEXT,
    due_key         TEXT NOT NULL, -- due_date, or '9999-12-31' for none: the order, undated last
    status          TEXT NOT NULL CHECK (status IN ('new', 'assessing', 'action-planned', 'done', 'not-applicable')),
    decided_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    decided_at      TEXT NOT NULL,
    text_version    TEXT NOT NULL DEFAULT '',
    version         INTEGER NOT NULL,
    PRIMARY KEY (organisation_id, subject_type, subject_id, provision)
);
-- The board is read in its order (due_key, then the subject) from an
-- index, whole or by status or owner, so a page of 10,000 items sorts
-- nothing; the owner's index also serves a
-- reassignment, and decisions_owner "my work" across organisations.
CREATE INDEX decisions_board ON decisions (organisation_id, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_board_status ON decisions (organisation_id, status, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_board_owner ON decisions (organisation_id, owner_id, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_owner ON decisions (owner_id, status);

CREATE TABLE decision_comments (
    id              TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    subject_type    TEXT NOT NULL,
    subject_id      TEXT NOT NULL,
    provision       TEXT NOT NULL DEFAULT '',
    author_id       TEXT REFERENCES users (id) ON DELETE SET NULL,
    body            TEXT NOT NULL,
    mentions        TEXT NOT NULL DEFAULT '[]',
    created_at      TEXT NOT NULL,
    FOREIGN KEY (organisation_id, subject_type, subject_id, provision)
        REFERENCES decisions (organisation_id, subject_type, subject_id, provision) ON DELETE CASCADE
);
CREATE INDEX decision_comments_subject ON decision_comments (organisation_id, subject_type, subject_id, provision, created_at);

-- +goose Down
DROP TABLE decision_comments;
DROP TABLE decisions;
