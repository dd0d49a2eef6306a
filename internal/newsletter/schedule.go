package newsletter

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// RunLock is the store's lock on a month's digest, shared by every
// process serving the site, so the digest goes out once.
type RunLock interface {
	// ClaimDigestRun answers true when holder may send month's digest:
	// no one else holds it (or their lease ran out) and it is not done.
	ClaimDigestRun(ctx context.Context, month, holder string, lease time.Duration) (bool, error)
	FinishDigestRun(ctx context.Context, month string) error
}

// Schedule timing: a run holds the month for runLease; on the first day
// a run that failed, or another process's that has not finished, is
// checked again every retryEvery.
const (
	runLease   = 2 * time.Hour
	retryEvery = time.Hour
)

// Schedule sends the previous month's digest on the first day of each
// month (UTC), once across every process sharing lock, until ctx ends.
// run sends one month's digest; since deliveries are recorded one by
// one, a run cut short is finished by the next without duplicates.
func Schedule(ctx context.Context, lock RunLock, holder string, run func(ctx context.Context, month time.Time) error, log *slog.Logger) {
	if log == nil {
		log = slog.Default()
	}
	for {
		now := time.Now().UTC()
		wait := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC).Sub(now)
		if now.Day() == 1 && !runMonth(ctx, lock, holder, PreviousMonth(now), run, log) {
			wait = min(wait, retryEvery)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// runMonth sends month's digest if this holder gets it; true when it is
// done (by this process).
func runMonth(ctx context.Context, lock RunLock, holder string, month time.Time, run func(context.Context, time.Time) error, log *slog.Logger) bool {
	done, err := RunMonth(ctx, lock, holder, month, run)
	if err != nil {
		log.Error("digest schedule: "+err.Error(), "month", MonthKey(month))
	}
	return done && err == nil
}

// RunMonth is one of Schedule's runs, for a scheduler outside this
// process (a scheduled function ticking on the first day): it sends
// month's digest when holder gets the month's lock, and marks it sent.
// done is false, with no error, when the digest was sent already or
// another process holds it; a failed run leaves the month to the next.
func RunMonth(ctx context.Context, lock RunLock, holder string, month time.Time, run func(context.Context, time.Time) error) (done bool, err error) {
	key := MonthKey(month)
	ok, err := lock.ClaimDigestRun(ctx, key, holder, runLease)
	if err != nil {
		return false, fmt.Errorf("lock: %w", err)
	}
	if !ok {
		return false, nil // sent already, or another process is sending it
	}
	if err := run(ctx, month); err != nil {
		return false, fmt.Errorf("run failed; retrying later: %w", err)
	}
	if err := lock.FinishDigestRun(ctx, key); err != nil {
		return false, fmt.Errorf("finish: %w", err)
	}
	return true, nil
}
