-- +goose Up
-- A catalog of a hundred thousand circulars must sync in about a minute
-- (the search at archive size). Three things stood in the way:
--   * the trigram index on the circulars' whole lower-cased text: each
--     circular adds thousands of trigrams to it (about 2 ms a row, over
--     three minutes for 100,000). Both stores now read the text in full
--     for a list's substring search (SQLite never had such an index); the
--     full-text search has its own index in memory;
--   * the lower-cased copy of every text, which doubled what is written:
--     the search lower-cases the text as it reads it (lower());
--   * pglz, PostgreSQL's default compression of long values: lz4 writes
--     them twice as fast. Where the server was built without lz4 the
--     column keeps pglz.
DROP INDEX circulars_content_trgm;
ALTER TABLE circulars DROP COLUMN content_lc;
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE circulars ALTER COLUMN content SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available: long texts stay compressed with pglz';
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE circulars ALTER COLUMN content SET COMPRESSION default;
ALTER TABLE circulars ADD COLUMN content_lc TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE circulars SET content_lc = lower(content), content_hash = '';
CREATE INDEX circulars_content_trgm ON circulars USING gin (content_lc gin_trgm_ops);
