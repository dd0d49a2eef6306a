-- +goose Up
-- Master Directions (catalog.MasterDirection, a column per field), their
-- versions (catalog.DirectionVersion) and every text each provision has
-- had (catalog.ProvisionSpan): the text in force on a day is the spans
-- whose [valid_from, valid_to) holds it, in position order, so a text is
-- rebuilt from its changes, not stored once per version. Written by the
-- catalog sync, by content hash, like every catalog table.
CREATE TABLE master_directions (
    id                   TEXT PRIMARY KEY,
    slug                 TEXT NOT NULL UNIQUE,
    title                TEXT NOT NULL,
    short_title          TEXT NOT NULL DEFAULT '',
    source               TEXT NOT NULL,
    number               TEXT NOT NULL DEFAULT '',
    department_reference TEXT NOT NULL DEFAULT '',
    department           TEXT NOT NULL DEFAULT '',
    issued_date          TEXT NOT NULL,          -- YYYY-MM-DD
    reviewed_on          TEXT NOT NULL,          -- YYYY-MM-DD
    applies_to           TEXT NOT NULL DEFAULT '[]', -- JSON list of entity types
    circular             TEXT NOT NULL DEFAULT '',
    official_url         TEXT NOT NULL DEFAULT '',
    verification         TEXT NOT NULL DEFAULT '',
    status               TEXT NOT NULL CHECK (status IN ('in-force', 'replaced', 'withdrawn')),
    status_date          TEXT,                   -- YYYY-MM-DD; NULL while in force
    status_circular      TEXT NOT NULL DEFAULT '',
    replaced_by          TEXT NOT NULL DEFAULT '[]', -- JSON list of direction slugs
    successors           TEXT NOT NULL DEFAULT '[]', -- JSON list of names
    about                TEXT NOT NULL DEFAULT '',
    chapters             TEXT NOT NULL DEFAULT '[]', -- JSON list of {id, title}
    content_hash         TEXT NOT NULL
);

CREATE TABLE direction_versions (
    id            TEXT PRIMARY KEY,
    direction     TEXT NOT NULL,                 -- the direction's slug
    date          TEXT NOT NULL,                 -- YYYY-MM-DD, in force from
    circulars     TEXT NOT NULL DEFAULT '[]',    -- JSON list of circular slugs
    amending      TEXT,                          -- JSON {number, title, url}; NULL when the catalog has the circular
    note          TEXT NOT NULL DEFAULT '',
    verification  TEXT NOT NULL DEFAULT '',
    changes_known INTEGER NOT NULL DEFAULT 1,
    source        TEXT,                          -- JSON {url, sha256, fetched}
    effects       TEXT NOT NULL DEFAULT '[]',    -- JSON list of catalog.Effect
    content_hash  TEXT NOT NULL
);
CREATE UNIQUE INDEX direction_versions_date ON direction_versions (direction, date);

CREATE TABLE provision_spans (
    id           TEXT PRIMARY KEY,
    direction    TEXT NOT NULL,
    lineage      INTEGER NOT NULL,               -- one provision through renumbering
    position     INTEGER NOT NULL,               -- its place among every provision that ever was
    provision    TEXT NOT NULL,                  -- its id in this span (3A, 38(c))
    chapter      TEXT NOT NULL DEFAULT '',
    heading      TEXT NOT NULL DEFAULT '',
    text         TEXT NOT NULL,
    wording      TEXT NOT NULL CHECK (wording IN ('official', 'digest')),
    valid_from   TEXT NOT NULL,                  -- YYYY-MM-DD
    valid_to     TEXT,                           -- YYYY-MM-DD, not included; NULL while in force
    version      TEXT,                           -- the date of the version that gave this text; NULL as issued
    change       TEXT NOT NULL DEFAULT '',
    touches      TEXT NOT NULL DEFAULT '[]',     -- JSON list of entity types
    content_hash TEXT NOT NULL
);
CREATE INDEX provision_spans_from ON provision_spans (direction, valid_from);

-- +goose Down
DROP TABLE provision_spans;
DROP TABLE direction_versions;
DROP TABLE master_directions;
