-- +goose Up
-- Decisions and their comments, as in ../00033_decisions.sql (keys and
-- ordered text columns bytewise, "C", here).
CREATE TABLE decisions (
    organisation_id TEXT COLLATE "C" NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    subject_type    TEXT COLLATE "C" NOT NULL CHECK (subject_type IN ('circular', 'obligation', 'provision')),
    subject_id      TEXT COLLATE "C" NOT NULL,
    provision       TEXT COLLATE "C" NOT NULL DEFAULT '',
    applicability   TEXT NOT NULL CHECK (applicability IN ('applicable', 'not-applicable', 'deferred')),
    reason          TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    deferred_until  TEXT,
    owner_id        TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    due             TEXT NOT NULL DEFAULT '',
    due_date        TEXT COLLATE "C",
    due_key         TEXT COLLATE "C" NOT NULL, -- due_date, or '9999-12-31' for none: the order, undated last
    status          TEXT COLLATE "C" NOT NULL CHECK (status IN ('new', 'assessing', 'action-planned', 'done', 'not-applicable')),
    decided_by      TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    decided_at      TEXT NOT NULL,
    text_version    TEXT NOT NULL DEFAULT '',
    version         INTEGER NOT NULL,
    PRIMARY KEY (organisation_id, subject_type, subject_id, provision)
);
CREATE INDEX decisions_board ON decisions (organisation_id, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_board_status ON decisions (organisation_id, status, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_board_owner ON decisions (organisation_id, owner_id, due_key, subject_type, subject_id, provision);
CREATE INDEX decisions_owner ON decisions (owner_id, status);

CREATE TABLE decision_comments (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organisation_id TEXT COLLATE "C" NOT NULL,
    subject_type    TEXT COLLATE "C" NOT NULL,
    subject_id      TEXT COLLATE "C" NOT NULL,
    provision       TEXT COLLATE "C" NOT NULL DEFAULT '',
    author_id       TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    body            TEXT NOT NULL,
    mentions        TEXT NOT NULL DEFAULT '[]',
    created_at      TEXT COLLATE "C" NOT NULL,
    FOREIGN KEY (organisation_id, subject_type, subject_id, provision)
        REFERENCES decisions (organisation_id, subject_type, subject_id, provision) ON DELETE CASCADE
);
CREATE INDEX decision_comments_subject ON decision_comments (organisation_id, subject_type, subject_id, provision, created_at);

-- +goose Down
DROP TABLE decision_comments;
DROP TABLE decisions;
