package newsletter

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// memLock is the store's run lock in memory, with its rules: a month is
// held by one holder until its lease runs out, and never again once done.
type memLock struct {
	mu   sync.Mutex
	runs map[string]*memRun
}

type memRun struct {
	holder string
	until  time.Time
	done   bool
}

func (l *memLock) ClaimDigestRun(_ context.Context, month, holder string, lease time.Duration) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := l.runs[month]
	now := time.Now()
	if r != nil && (r.done || (r.holder != holder && now.Before(r.until))) {
		return false, nil
	}
	l.runs[month] = &memRun{holder: holder, until: now.Add(lease)}
	return true, nil
}

func (l *memLock) FinishDigestRun(_ context.Context, month string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.runs[month].done = true
	return nil
}

func TestSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// The bubble's clock starts at 2000-01-01 00:00 UTC: a first day.
		ctx, cancel := context.WithCancel(t.Context())
		lock := &memLock{runs: map[string]*memRun{}}
		var mu sync.Mutex
		var runs []string
		failOnce := true
		run := func() func(context.Context, time.Time) error {
			return func(_ context.Context, month time.Time) error {
				mu.Lock()
				defer mu.Unlock()
				if failOnce && MonthKey(month) == "2000-01" {
					failOnce = false
					return errors.New("smtp: connection refused")
				}
				runs = append(runs, time.Now().UTC().Format(time.DateTime)+" "+MonthKey(month))
				return nil
			}
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		var wg sync.WaitGroup
		for _, holder := range []string{"a", "b"} { // two processes
			wg.Go(func() { Schedule(ctx, lock, holder, run(), log) })
			synctest.Wait()
		}
		time.Sleep(95 * 24 * time.Hour) // to 2000-04-05
		cancel()
		wg.Wait()
		// 1999-12 at once; 2000-01 fails at first and is sent an hour
		// later (by the process holding the lock); each month by one
		// process only.
		want := []string{"2000-01-01 00:00:00 1999-12", "2000-02-01 01:00:00 2000-01", "2000-03-01 00:00:00 2000-02",
			"2000-04-01 00:00:00 2000-03"}
		if diff := cmp.Diff(want, runs); diff != "" {
			t.Errorf("runs (-want +got):\n%s", diff)
		}
	})
}
