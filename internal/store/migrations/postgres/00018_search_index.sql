-- +goose Up
-- The circulars' full-text index moves into the process that searches
-- (internal/search/index); see ../00018_search_index.sql. The terms are
-- stored uncompressed: they are small varints that compress little, and
-- every instance reads them all at start.
DROP TABLE circular_search;
CREATE TABLE circular_terms (
    rid            BIGINT PRIMARY KEY, -- circulars.rid
    version        BIGINT NOT NULL,
    source         TEXT COLLATE "C" NOT NULL,
    category       TEXT COLLATE "C" NOT NULL,
    published_date TEXT COLLATE "C" NOT NULL,
    slug           TEXT COLLATE "C" NOT NULL,
    terms          BYTEA -- NULL: removed
);
ALTER TABLE circular_terms ALTER COLUMN terms SET STORAGE EXTERNAL;
CREATE INDEX circular_terms_version ON circular_terms (version);
ALTER TABLE search_words ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX search_words_version ON search_words (version);
CREATE TABLE search_version (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation TEXT NOT NULL,
    version    BIGINT NOT NULL
);
INSERT INTO search_version (id, generation, version) VALUES (1, md5(random()::text || clock_timestamp()::text), 0);
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP TABLE search_version;
DROP INDEX search_words_version;
ALTER TABLE search_words DROP COLUMN version;
DROP TABLE circular_terms;
CREATE TABLE circular_search (
    rid            BIGINT PRIMARY KEY REFERENCES circulars (rid) ON DELETE CASCADE,
    source         TEXT COLLATE "C" NOT NULL,
    category       TEXT COLLATE "C" NOT NULL,
    published_date TEXT COLLATE "C" NOT NULL,
    slug           TEXT COLLATE "C" NOT NULL,
    doc            TSVECTOR NOT NULL
);
CREATE INDEX circular_search_doc ON circular_search USING gin (doc);
UPDATE circulars SET content_hash = '';
