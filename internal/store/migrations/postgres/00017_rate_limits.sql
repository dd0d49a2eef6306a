-- +goose Up
-- Request counts of the API's rate limits per key and window (see
-- ratelimits.go): shared by every instance, so a limit holds across them.
CREATE TABLE rate_limits (
    key          TEXT COLLATE "C" NOT NULL,
    window_start BIGINT NOT NULL, -- Unix seconds
    count        BIGINT NOT NULL,
    PRIMARY KEY (key, window_start)
);

-- +goose Down
DROP TABLE rate_limits;
