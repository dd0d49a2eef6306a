package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// The scheduled jobs' lock (job_runs, internal/jobs): a leased mutex or
// once per job and run key, for the jobs without a lock of their own
// (alerts keep alert_runs, the digest newsletter_runs).

// ClaimJobRun takes job's run key for holder until lease runs out: true
// when no one else holds it (or their lease ran out) and the run is not
// finished. When false, heldBy and until say who holds it ("" when the
// run is finished).
func (s *DB) ClaimJobRun(ctx context.Context, job, key, holder string, lease time.Duration) (ok bool, heldBy string, until time.Time, err error) {
	defer wrap(&err, "ClaimJobRun")
	now := s.now().UTC()
	res, err := s.db.ExecContext(ctx, `INSERT INTO job_runs (job, run_key, holder, lease_until) VALUES (?, ?, ?, ?)
		ON CONFLICT (job, run_key) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
		WHERE job_runs.finished_at IS NULL AND (job_runs.lease_until < ? OR job_runs.holder = excluded.holder)`,
		job, key, holder, leaseText(now.Add(lease)), leaseText(now))
	if err != nil {
		return false, "", time.Time{}, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 1 {
		return n == 1, "", time.Time{}, err
	}
	var leaseUntil string
	var finished sql.NullString
	err = s.db.QueryRowContext(ctx, "SELECT holder, lease_until, finished_at FROM job_runs WHERE job = ? AND run_key = ?", job, key).
		Scan(&heldBy, &leaseUntil, &finished)
	if errors.Is(err, sql.ErrNoRows) || finished.Valid {
		return false, "", time.Time{}, nil // released or finished in between
	}
	if err != nil {
		return false, "", time.Time{}, err
	}
	until, err = time.Parse(time.RFC3339, leaseUntil)
	return false, heldBy, until, err
}

// ReleaseJobRun ends holder's lease on job's run key without finishing
// the run: the next run may take it at once (a mutex, not a once).
func (s *DB) ReleaseJobRun(ctx context.Context, job, key, holder string) (err error) {
	defer wrap(&err, "ReleaseJobRun")
	_, err = s.db.ExecContext(ctx, "UPDATE job_runs SET lease_until = ? WHERE job = ? AND run_key = ? AND holder = ? AND finished_at IS NULL",
		leaseText(time.Time{}), job, key, holder)
	return err
}

// FinishJobRun marks job's run done: no one claims it again.
func (s *DB) FinishJobRun(ctx context.Context, job, key string) (err error) {
	defer wrap(&err, "FinishJobRun")
	_, err = s.db.ExecContext(ctx, "UPDATE job_runs SET finished_at = ? WHERE job = ? AND run_key = ?", timeText(s.now()), job, key)
	return err
}
