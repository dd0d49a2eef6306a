-- +goose Up
-- "Website stats": one row of site-wide counters.
CREATE TABLE website_stats (
    id              TEXT PRIMARY KEY,
    total_visitors  INTEGER NOT NULL DEFAULT 50000,
    unique_visitors INTEGER NOT NULL DEFAULT 0,
    page_views      INTEGER NOT NULL DEFAULT 0,
    last_updated    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO website_stats (id) VALUES ('00000000-0000-4000-8000-000000000001');

-- +goose Down
DROP TABLE website_stats;
