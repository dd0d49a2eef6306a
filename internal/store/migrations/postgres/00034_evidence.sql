-- +goose Up
-- Evidence on a decision, as in ../00034_evidence.sql (keys and ordered
-- text columns bytewise, "C"; the bytes BYTEA).
CREATE TABLE decision_evidence (
    id              TEXT COLLATE "C" PRIMARY KEY,
    organisation_id TEXT COLLATE "C" NOT NULL,
    subject_type    TEXT COLLATE "C" NOT NULL,
    subject_id      TEXT COLLATE "C" NOT NULL,
    provision       TEXT COLLATE "C" NOT NULL DEFAULT '',
    kind            TEXT NOT NULL CHECK (kind IN ('file', 'link')),
    name            TEXT NOT NULL DEFAULT '',
    size            INTEGER NOT NULL DEFAULT 0,
    sha256          TEXT NOT NULL DEFAULT '',
    media_type      TEXT NOT NULL DEFAULT '',
    client_type     TEXT NOT NULL DEFAULT '',
    link            TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    added_by        TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    added_at        TEXT COLLATE "C" NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected')),
    reviewed_by     TEXT COLLATE "C" REFERENCES users (id) ON DELETE SET NULL,
    reviewed_at     TEXT,
    review_note     TEXT NOT NULL DEFAULT '',
    FOREIGN KEY (organisation_id, subject_type, subject_id, provision)
        REFERENCES decisions (organisation_id, subject_type, subject_id, provision) ON DELETE CASCADE
);
CREATE INDEX decision_evidence_subject ON decision_evidence (organisation_id, subject_type, subject_id, provision, added_at);

CREATE TABLE decision_evidence_files (
    evidence_id TEXT COLLATE "C" PRIMARY KEY REFERENCES decision_evidence (id) ON DELETE CASCADE,
    data        BYTEA NOT NULL
);

-- +goose Down
DROP TABLE decision_evidence_files;
DROP TABLE decision_evidence;
