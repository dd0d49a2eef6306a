-- +goose Up
-- Summaries the API itself makes of a circular (POST
-- /api/circulars/{id}/summarize). They cost money to make and are not
-- content, so SyncCatalog never touches this table. There is deliberately
-- no foreign key to circulars: a summary outlives its circular's removal
-- from content/ (queries join it in, so an orphan is never shown), and
-- comes back if the file returns at the same path (same stable id).
CREATE TABLE circular_summaries (
    circular_id TEXT PRIMARY KEY,
    summary     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- +goose Down
DROP TABLE circular_summaries;
