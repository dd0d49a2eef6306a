-- +goose Up
-- Nothing to do: the PostgreSQL schema began as SQLite's migrations
-- 00001 to 00011 consolidated (00001_schema.sql), which holds what
-- ../00009_ai_results.sql made. The version is here so both folders carry the same ones.

-- +goose Down
