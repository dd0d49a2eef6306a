-- +goose Up
-- The scheduled jobs' lock (issue 45), for the jobs that have none of
-- their own (alerts keep alert_runs, the digest newsletter_runs): one row
-- per job and run key, leased to a holder (a process: host/pid/random)
-- until lease_until, then released (a mutex: ingest's 'poll', taken at
-- each tick) or finished (a once). A run killed by its host (a function
-- past its time limit) never releases: its lease, longer than the run's
-- budget, runs out and the next tick takes it. Times are RFC 3339 UTC,
-- lease_until fixed-width so text order is time order.
CREATE TABLE job_runs (
    job         TEXT NOT NULL,
    run_key     TEXT NOT NULL,
    holder      TEXT NOT NULL,
    lease_until TEXT NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (job, run_key)
);

-- +goose Down
DROP TABLE job_runs;
