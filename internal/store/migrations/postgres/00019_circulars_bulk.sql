-- +goose Up
-- A catalog of a hundred thousand circulars must sync in about a minute
-- (the search at archive size). Two things made that impossible:
--   * the trigram index on the circulars' whole lower-cased text: each
--     circular adds thousands of trigrams to it (about 2 ms a row, over
--     three minutes for 100,000). Both stores now read the lower-cased
--     text in full for a list's substring search (SQLite never had such
--     an index); the full-text search has its own index in memory.
--   * pglz, PostgreSQL's default compression of long values: lz4 writes
--     them twice as fast. Where the server was built without lz4 the
--     columns keep pglz.
DROP INDEX circulars_content_trgm;
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE circulars ALTER COLUMN content SET COMPRESSION lz4,
        ALTER COLUMN content_lc SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
    RAISE NOTICE 'lz4 is not available: long texts stay compressed with pglz';
END
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE circulars ALTER COLUMN content SET COMPRESSION default,
    ALTER COLUMN content_lc SET COMPRESSION default;
CREATE INDEX circulars_content_trgm ON circulars USING gin (content_lc gin_trgm_ops);
