-- +goose Up
-- Evidence on a decision (decisions.Evidence, issue 44): a file or a
-- link, its review state, reviewer, time and note. A file's bytes are a
-- BLOB in a table of their own: the store is the one place the data
-- lives, so a backup (VACUUM INTO, or the copy from PostgreSQL) carries
-- the files with the rows that name them and a restore cannot lose one
-- half; the lists read decision_evidence without touching the bytes.
-- Files are at most 20 MB (decisions.MaxEvidenceBytes).
CREATE TABLE decision_evidence (
    id              TEXT PRIMARY KEY,
    organisation_id TEXT NOT NULL,
    subject_type    TEXT NOT NULL,
    subject_id      TEXT NOT NULL,
    provision       TEXT NOT NULL DEFAULT '',
    kind            TEXT NOT NULL CHECK (kind IN ('file', 'link')),
    name            TEXT NOT NULL DEFAULT '',
    size            INTEGER NOT NULL DEFAULT 0,
    sha256          TEXT NOT NULL DEFAULT '',
    media_type      TEXT NOT NULL DEFAULT '',
    client_type     TEXT NOT NULL DEFAULT '',
    link            TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    added_by        TEXT REFERENCES users (id) ON DELETE SET NULL,
    added_at        TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('pending', 'accepted', 'rejected')),
    reviewed_by     TEXT REFERENCES users (id) ON DELETE SET NULL,
    reviewed_at     TEXT,
    review_note     TEXT NOT NULL DEFAULT '',
    FOREIGN KEY (organisation_id, subject_type, subject_id, provision)
        REFERENCES decisions (organisation_id, subject_type, subject_id, provision) ON DELETE CASCADE
);
CREATE INDEX decision_evidence_subject ON decision_evidence (organisation_id, subject_type, subject_id, provision, added_at);

CREATE TABLE decision_evidence_files (
    evidence_id TEXT PRIMARY KEY REFERENCES decision_evidence (id) ON DELETE CASCADE,
    data        BLOB NOT NULL
);

-- +goose Down
DROP TABLE decision_evidence_files;
DROP TABLE decision_evidence;
