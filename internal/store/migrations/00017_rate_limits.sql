-- +goose Up
-- Request counts of the API's rate limits per key and window (see
-- ratelimits.go): shared by every instance using the same database, so
-- a limit holds across them.
CREATE TABLE rate_limits (
    key          TEXT NOT NULL,
    window_start INTEGER NOT NULL, -- Unix seconds
    count        INTEGER NOT NULL,
    PRIMARY KEY (key, window_start)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE rate_limits;
