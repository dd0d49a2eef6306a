package store

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestDB_TakeRate(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		minute := time.Minute
		w0 := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
		w1, w2 := w0.Add(minute), w0.Add(2*minute)
		for i, step := range []struct {
			key       string
			window    time.Time
			allowance int
			count     int
			ok        bool
		}{
			{"login:a", w0, 3, 1, true},
			{"login:a", w0, 3, 2, true},
			{"login:a", w0, 3, 3, true},
			{"login:a", w0, 3, 3, false}, // full: not counted
			{"login:a", w0, 0, 0, false}, // nothing allowed: nothing written
			{"login:b", w0, 3, 1, true},  // another key counts apart
			{"login:a", w1, 1, 1, true},
		} {
			count, ok, err := db.TakeRate(ctx, step.key, step.window, step.allowance, minute)
			if err != nil || count != step.count || ok != step.ok {
				t.Errorf("step %d: TakeRate(%s, %v, %d) = %d, %v, %v; want %d, %v", i, step.key, step.window.Format("15:04"),
					step.allowance, count, ok, err, step.count, step.ok)
			}
		}
		for _, want := range []struct {
			key    string
			window time.Time
			n      int
		}{{"login:a", w0, 3}, {"login:a", w1, 1}, {"login:b", w0, 1}, {"login:b", w1, 0}} {
			if n, err := db.Rate(ctx, want.key, want.window); err != nil || n != want.n {
				t.Errorf("Rate(%s, %s) = %d, %v; want %d", want.key, want.window.Format("15:04"), n, err, want.n)
			}
		}
		t.Run("OldWindowsForgotten", func(t *testing.T) {
			if _, _, err := db.TakeRate(ctx, "login:a", w2, 5, minute); err != nil {
				t.Fatal(err)
			}
			if n, err := db.Rate(ctx, "login:a", w0); err != nil || n != 0 {
				t.Errorf("window w0 after a write in w2: %d, %v; want 0", n, err)
			}
		})
	})
}

// TestDB_TakeRate_TwoInstances races two handles on one database (two
// instances of the API) for a window's allowance: exactly the allowance
// is counted, however the requests interleave.
func TestDB_TakeRate_TwoInstances(t *testing.T) {
	t.Parallel()
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			url := kind.target(t)
			a, b := openAndClose(t, url, nil), openAndClose(t, url, nil)
			const allowance, tries = 25, 200
			window := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
			var taken atomic.Int32
			var wg sync.WaitGroup
			for i := range tries {
				db := a
				if i%2 == 1 {
					db = b
				}
				wg.Go(func() {
					_, ok, err := db.TakeRate(t.Context(), "signup:192.0.2.1", window, allowance, time.Minute)
					if err != nil {
						t.Error(err)
					}
					if ok {
						taken.Add(1)
					}
				})
			}
			wg.Wait()
			if n := taken.Load(); n != allowance {
				t.Errorf("%d of %d racing requests counted, want exactly %d", n, tries, allowance)
			}
			if n, _ := a.Rate(t.Context(), "signup:192.0.2.1", window); n != allowance {
				t.Errorf("stored count %d, want %d", n, allowance)
			}
		})
	}
}
