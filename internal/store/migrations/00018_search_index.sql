-- +goose Up
-- The circulars' full-text index moves into the process that searches
-- (internal/search/index), the same for SQLite and PostgreSQL. The store
-- keeps what that index is built from: each circular's keys counted per
-- column (circular_terms.terms, index.Terms encoded), with what filters
-- and orders read, and the words for prefix and typo look-ups. Every
-- change is stamped with the next search_version, so an instance applies
-- only the rows newer than what it holds; a removed circular keeps its
-- row with terms NULL, so other instances learn of the removal.
DROP TRIGGER circulars_search_delete;
DROP TABLE circular_search_vocab;
DROP TABLE circular_search;
DROP TABLE circular_search_rows;
CREATE TABLE circular_terms (
    rid            INTEGER PRIMARY KEY, -- circulars.rowid
    version        INTEGER NOT NULL,
    source         TEXT NOT NULL,
    category       TEXT NOT NULL,
    published_date TEXT NOT NULL,
    slug           TEXT NOT NULL,
    terms          BLOB -- NULL: removed
);
CREATE INDEX circular_terms_version ON circular_terms (version);
ALTER TABLE search_words ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
CREATE INDEX search_words_version ON search_words (version);
-- generation tells a database apart from one rebuilt from scratch whose
-- version happens to be the same.
CREATE TABLE search_version (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    generation TEXT NOT NULL,
    version    INTEGER NOT NULL
);
INSERT INTO search_version (id, generation, version) VALUES (1, lower(hex(randomblob(16))), 0);
-- The next sync rewrites every circular, which indexes it.
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP TABLE search_version;
DROP INDEX search_words_version;
ALTER TABLE search_words DROP COLUMN version;
DROP TABLE circular_terms;
CREATE VIRTUAL TABLE circular_search USING fts5(
    number, title, summary, content,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE TABLE circular_search_rows (
    rid            INTEGER PRIMARY KEY,
    source         TEXT NOT NULL,
    category       TEXT NOT NULL,
    published_date TEXT NOT NULL,
    slug           TEXT NOT NULL
);
CREATE VIRTUAL TABLE circular_search_vocab USING fts5vocab(circular_search, row);
-- +goose StatementBegin
CREATE TRIGGER circulars_search_delete AFTER DELETE ON circulars BEGIN
    DELETE FROM circular_search WHERE rowid = old.rowid;
    DELETE FROM circular_search_rows WHERE rid = old.rowid;
END;
-- +goose StatementEnd
UPDATE circulars SET content_hash = '';
