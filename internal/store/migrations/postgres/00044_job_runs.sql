-- +goose Up
-- The scheduled jobs' lock, as in ../00044_job_runs.sql (keys and the
-- lease compared bytewise, "C", here).
CREATE TABLE job_runs (
    job         TEXT COLLATE "C" NOT NULL,
    run_key     TEXT COLLATE "C" NOT NULL,
    holder      TEXT NOT NULL,
    lease_until TEXT COLLATE "C" NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (job, run_key)
);

-- +goose Down
DROP TABLE job_runs;
