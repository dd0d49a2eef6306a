-- +goose Up
-- The full-text index of circulars. Its text is not the circulars' own but
-- their index keys (internal/search: spelling, stems and numbers already
-- normalised in Go), so the tokenizer only splits on spaces. Contentless:
-- the circulars table holds the text; rows are keyed by circulars.rowid,
-- which an upsert keeps. contentless_delete lets a changed row be replaced.
CREATE VIRTUAL TABLE circular_search USING fts5(
    number, title, summary, content,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0'
);
-- What ranking and facets read of each indexed circular, by the same
-- rowid: a narrow table, so that counting and ordering thousands of
-- matches never reads the circulars' long text.
CREATE TABLE circular_search_rows (
    rid            INTEGER PRIMARY KEY,
    source         TEXT NOT NULL,
    category       TEXT NOT NULL,
    published_date TEXT NOT NULL,
    slug           TEXT NOT NULL
);
-- Each key and how many circulars hold it: the vocabulary typo correction
-- and prefix completion check their guesses against.
CREATE VIRTUAL TABLE circular_search_vocab USING fts5vocab(circular_search, row);
-- Every indexed word as written (lower-cased) with its key, for prefix and
-- typo look-ups of words the index holds only as stems. Words of removed
-- circulars may stay: a look-up keeps only keys the index still has.
CREATE TABLE search_words (
    word TEXT PRIMARY KEY,
    key  TEXT NOT NULL
) WITHOUT ROWID;
-- +goose StatementBegin
CREATE TRIGGER circulars_search_delete AFTER DELETE ON circulars BEGIN
    DELETE FROM circular_search WHERE rowid = old.rowid;
    DELETE FROM circular_search_rows WHERE rid = old.rowid;
END;
-- +goose StatementEnd
-- The next sync rewrites every circular, which indexes it.
UPDATE circulars SET content_hash = '';

-- +goose Down
DROP TRIGGER circulars_search_delete;
DROP TABLE search_words;
DROP TABLE circular_search_rows;
DROP TABLE circular_search_vocab;
DROP TABLE circular_search;
