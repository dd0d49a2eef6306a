package schedule

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestEvery: runs at each interval, none before the first; each result
// reported, an error too; the ticks a slow run outlasts make one run,
// at once; a run cut short by the end of ctx is not reported, and Every
// returns.
func TestEvery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		type result struct {
			N   int
			Err string
		}
		var mu sync.Mutex // the test reads what Every's goroutine writes
		var got []result
		var at []time.Duration // when each run started
		start := time.Now()
		n := 0
		runs := func() int { mu.Lock(); defer mu.Unlock(); return n }
		bad := errors.New("bad run")
		done := make(chan struct{})
		go func() {
			defer close(done)
			Every(ctx, time.Minute, func(ctx context.Context) (int, error) {
				mu.Lock()
				n++
				at = append(at, time.Since(start))
				run := n
				mu.Unlock()
				switch run {
				case 2:
					return run, bad
				case 3:
					time.Sleep(150 * time.Second) // past two ticks
				case 4:
					cancel()
					<-ctx.Done()
					return run, ctx.Err()
				}
				return run, nil
			}, func(n int, err error) {
				r := result{N: n}
				if err != nil {
					r.Err = err.Error()
				}
				mu.Lock()
				got = append(got, r)
				mu.Unlock()
			})
		}()
		time.Sleep(time.Minute - time.Nanosecond)
		synctest.Wait()
		if n := runs(); n != 0 {
			t.Fatalf("%d runs before the first interval", n)
		}
		time.Sleep(time.Nanosecond) // 1m: run 1
		synctest.Wait()
		time.Sleep(time.Minute) // 2m: run 2, failed
		synctest.Wait()
		time.Sleep(time.Minute) // 3m: run 3, until 5m30s
		synctest.Wait()
		time.Sleep(150 * time.Second) // 5m30s: run 3 ends, run 4 starts and is cancelled
		<-done
		if diff := cmp.Diff([]time.Duration{time.Minute, 2 * time.Minute, 3 * time.Minute, 330 * time.Second}, at); diff != "" {
			t.Errorf("runs started at (-want +got):\n%s", diff)
		}
		want := []result{{1, ""}, {2, "bad run"}, {3, ""}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("reports (-want +got):\n%s", diff)
		}
	})
}
