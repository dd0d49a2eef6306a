package ingest

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"regpulse/internal/logtest"
)

// take returns what was logged since the last take.
const ingestInterval = time.Hour

// The schedule runs in synctest bubbles: the ticker uses the bubble's fake
// clock, so each hour passes at once and exactly.
func TestEvery(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			content := newContent(t)
			feeds := fixtureFeeds(t)
			logs := &logtest.Buffer{}
			log := slog.New(slog.NewTextHandler(logs, nil))
			ctx, cancel := context.WithCancel(t.Context())
			runs := make(chan int, 10) // files in the tree after each run
			done := make(chan struct{})
			go func() {
				defer close(done)
				Every(ctx, ingestInterval, func(ctx context.Context) (Report, error) {
					return Run(ctx, feeds, Options{ContentDir: content, Now: fixedNow})
				}, log, func() { runs <- len(readTree(t, content)) })
			}()

			time.Sleep(ingestInterval - time.Nanosecond)
			synctest.Wait()
			if n, ok := received(runs); ok {
				t.Fatalf("ran before the interval (%d files)", n)
			}
			time.Sleep(time.Nanosecond)
			synctest.Wait()
			if n, ok := received(runs); !ok || n != len(fixtureFiles) {
				t.Fatalf("first run: %d files (ran: %v), want %d", n, ok, len(fixtureFiles))
			}
			first := logs.Take()
			for _, want := range []string{
				`msg="ingested an unpublished circular" feed=sebi file=content/circulars/sebi-2025-11-14-framework-upi-autopay-mandates-stock-brokers.md`,
				`level=WARN msg="skipped a feed item" feed=rbi-notifications item="\"Item without a link\"" reason="no link"`,
				`msg="ingested feeds" written=6 skipped=4 warnings=3`, `new=6 backfilled=0 merged=0`,
			} {
				if !strings.Contains(first, want) {
					t.Errorf("first run's log lacks %s:\n%s", want, first)
				}
			}

			time.Sleep(ingestInterval)
			synctest.Wait()
			if n, ok := received(runs); !ok || n != len(fixtureFiles) {
				t.Fatalf("second run: %d files (ran: %v), want %d", n, ok, len(fixtureFiles))
			}
			if second := logs.Take(); !strings.Contains(second, `msg="ingested feeds" written=0 skipped=10 warnings=3`) || strings.Contains(second, "ingested an unpublished") {
				t.Errorf("second run's log, want nothing written:\n%s", second)
			}

			cancel()
			synctest.Wait()
			if _, ok := received(done); !ok {
				t.Error("Every did not return after cancel")
			}
		})
	})

	t.Run("ErrRun", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			logs := &logtest.Buffer{}
			log := slog.New(slog.NewTextHandler(logs, nil))
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var calls atomic.Int32
			go Every(ctx, ingestInterval, func(ctx context.Context) (Report, error) {
				if calls.Add(1) == 1 {
					return Report{}, errors.New(`feed "sebi": GET https://www.sebi.gov.in/sebirss.xml: 503 Service Unavailable`)
				}
				return Report{}, nil
			}, log, nil)
			time.Sleep(ingestInterval)
			synctest.Wait()
			if got := logs.Take(); !strings.Contains(got, `level=ERROR msg="ingest failed" err="feed \"sebi\": GET`) {
				t.Errorf("log after a failed run:\n%s", got)
			}
			time.Sleep(ingestInterval)
			synctest.Wait()
			if got := calls.Load(); got != 2 {
				t.Errorf("%d runs after two intervals, want 2: a failure does not stop the schedule", got)
			}
			if got := logs.Take(); strings.Contains(got, "level=ERROR") {
				t.Errorf("log after a good run:\n%s", got)
			}
		})
	})

	t.Run("CancelledRunIsNotAFailure", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			logs := &logtest.Buffer{}
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			go func() {
				defer close(done)
				Every(ctx, ingestInterval, func(ctx context.Context) (Report, error) {
					cancel() // shutting down during a run
					return Report{}, ctx.Err()
				}, slog.New(slog.NewTextHandler(logs, nil)), nil)
			}()
			time.Sleep(ingestInterval)
			synctest.Wait()
			if _, ok := received(done); !ok {
				t.Error("Every did not return after its context was cancelled")
			}
			if got := logs.Take(); got != "" {
				t.Errorf("log of a cancelled run = %q, want nothing", got)
			}
		})
	})
}

// received gives the next value c holds, if it holds one.
func received[T any](c <-chan T) (T, bool) {
	select {
	case v := <-c: // a closed channel counts: done is closed, not sent on
		return v, true
	default:
		var zero T
		return zero, false
	}
}
