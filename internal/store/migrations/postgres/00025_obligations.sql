-- +goose Up
-- Obligations (catalog.Obligation, a column per field).
-- circular_obligations mirrors what editors wrote in content/ (the
-- catalog sync writes it, by content hash, like every catalog table).
CREATE TABLE circular_obligations (
    id             TEXT COLLATE "C" PRIMARY KEY,
    circular_id    TEXT COLLATE "C" NOT NULL,
    position       INTEGER NOT NULL,
    applies_to     TEXT NOT NULL DEFAULT '[]', -- JSON list: entity types, or ["all"]
    what           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    due_date       TEXT COLLATE "C",                        -- YYYY-MM-DD; NULL without a dated deadline
    deadline       TEXT NOT NULL DEFAULT '',   -- as the circular states it
    binding        BOOLEAN NOT NULL DEFAULT FALSE,
    source_text    TEXT NOT NULL,
    source_start   INTEGER NOT NULL,           -- UTF-16 offsets in the circular's content
    source_end     INTEGER NOT NULL,
    origin         TEXT NOT NULL CHECK (origin IN ('editor', 'extracted')),
    provider       TEXT NOT NULL DEFAULT '',
    model          TEXT NOT NULL DEFAULT '',
    accepted       BOOLEAN NOT NULL DEFAULT FALSE,
    circular_slug  TEXT COLLATE "C" NOT NULL,
    circular_title TEXT NOT NULL,
    source         TEXT COLLATE "C" NOT NULL,
    impact_level   TEXT NOT NULL,
    content_hash   TEXT NOT NULL
);
CREATE INDEX circular_obligations_circular ON circular_obligations (circular_id, position);
CREATE INDEX circular_obligations_due ON circular_obligations (due_date);

-- extracted_obligations are the AI layer's proposals for circulars
-- without written ones (regpulse obligations extract, and each server's
-- start): kept, not recomputed per request, and never touched by sync.
-- input_hash is the hash of what they were extracted from, so a changed
-- circular is extracted again; accepted rows (an editor's decision) are
-- never replaced.
CREATE TABLE extracted_obligations (
    id             TEXT COLLATE "C" PRIMARY KEY,
    circular_id    TEXT COLLATE "C" NOT NULL,
    position       INTEGER NOT NULL,
    applies_to     TEXT NOT NULL DEFAULT '[]', -- JSON list: entity types, or ["all"]
    what           TEXT NOT NULL,
    kind           TEXT NOT NULL,
    due_date       TEXT COLLATE "C",                        -- YYYY-MM-DD; NULL without a dated deadline
    deadline       TEXT NOT NULL DEFAULT '',   -- as the circular states it
    binding        BOOLEAN NOT NULL DEFAULT FALSE,
    source_text    TEXT NOT NULL,
    source_start   INTEGER NOT NULL,           -- UTF-16 offsets in the circular's content
    source_end     INTEGER NOT NULL,
    origin         TEXT NOT NULL CHECK (origin IN ('editor', 'extracted')),
    provider       TEXT NOT NULL DEFAULT '',
    model          TEXT NOT NULL DEFAULT '',
    accepted       BOOLEAN NOT NULL DEFAULT FALSE,
    circular_slug  TEXT COLLATE "C" NOT NULL,
    circular_title TEXT NOT NULL,
    source         TEXT COLLATE "C" NOT NULL,
    impact_level   TEXT NOT NULL,
    input_hash     TEXT NOT NULL,
    extracted_at   TEXT NOT NULL
);
CREATE INDEX extracted_obligations_circular ON extracted_obligations (circular_id, position);

-- One row per circular extracted, found obligations or not, so a refresh
-- asks again only about circulars whose input changed.
CREATE TABLE obligation_extractions (
    circular_id  TEXT COLLATE "C" PRIMARY KEY,
    input_hash   TEXT NOT NULL,
    extracted_at TEXT NOT NULL
);

-- The obligations shown: the editors', and the extracted ones of
-- circulars that still exist and have none written.
CREATE VIEW obligations_shown AS
SELECT id, circular_id, position, applies_to, what, kind, due_date, deadline, binding, source_text, source_start, source_end,
       origin, provider, model, accepted, circular_slug, circular_title, source, impact_level
FROM circular_obligations
UNION ALL
SELECT e.id, e.circular_id, e.position, e.applies_to, e.what, e.kind, e.due_date, e.deadline, e.binding, e.source_text,
       e.source_start, e.source_end, e.origin, e.provider, e.model, e.accepted, c.slug, c.title, c.source, c.impact_level
FROM extracted_obligations e JOIN circulars c ON c.id = e.circular_id
WHERE NOT EXISTS (SELECT 1 FROM circular_obligations w WHERE w.circular_id = e.circular_id);

-- A user's register: the status and note each user set on an
-- obligation (one row per user and obligation), and every change with
-- its time. Rows go with their user; an obligation's id is stable
-- (catalog.ObligationID), so they survive edits of its wording.
CREATE TABLE obligation_statuses (
    user_id       TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    obligation_id TEXT COLLATE "C" NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('todo', 'in-progress', 'done', 'not-applicable')),
    note          TEXT NOT NULL DEFAULT '',
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (user_id, obligation_id)
);

CREATE TABLE obligation_status_history (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id       TEXT COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    obligation_id TEXT COLLATE "C" NOT NULL,
    status        TEXT NOT NULL,
    note          TEXT NOT NULL DEFAULT '',
    changed_at    TEXT NOT NULL
);
CREATE INDEX obligation_status_history_user ON obligation_status_history (user_id, obligation_id, id);

-- +goose Down
DROP TABLE obligation_status_history;
DROP TABLE obligation_statuses;
DROP VIEW obligations_shown;
DROP TABLE obligation_extractions;
DROP TABLE extracted_obligations;
DROP TABLE circular_obligations;
