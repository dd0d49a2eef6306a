package render

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// TestHeapLimit: under a memory limit a build collects by the limit alone
// (GOGC off) and gives the process both back; without one it changes
// neither.
func TestHeapLimit(t *testing.T) {
	limit, gc := debug.SetMemoryLimit(-1), debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetMemoryLimit(limit); debug.SetGCPercent(gc) })
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }

	t.Run("Limit", func(t *testing.T) {
		debug.SetMemoryLimit(800 << 20)
		h := NewHeapLimit()
		if p := gcPercent(); p != -1 {
			t.Errorf("GOGC %d during the build, want off", p)
		}
		h.Fit()
		if got := debug.SetMemoryLimit(-1); got < 800<<20 {
			t.Errorf("limit %d after fit, want at least the process's", got)
		}
		h.Restore()
		if got, p := debug.SetMemoryLimit(-1), gcPercent(); got != 800<<20 || p != 100 {
			t.Errorf("after the build: limit %d, GOGC %d; want 800 MiB and 100", got, p)
		}
	})
	t.Run("Runs", func(t *testing.T) {
		debug.SetMemoryLimit(64 << 20) // below what fitRuns gives
		h := NewHeapLimit()
		defer h.Restore()
		h.FitRuns()
		got := debug.SetMemoryLimit(-1)
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(live)
		if room := got - int64(live[0].Value.Uint64()); room < runsHeadroomMiB<<20-16<<20 || room > runsHeadroomMiB<<20+16<<20 {
			t.Errorf("limit %d MiB, %d MiB above the live heap; want %d MiB above it", got>>20, room>>20, runsHeadroomMiB)
		}
		h.Fit() // back to the steps' rule: one and a half times the heap plus 512 MiB
		if got := debug.SetMemoryLimit(-1); got >= runsHeadroomMiB<<20 {
			t.Errorf("limit %d MiB after fit, want the steps' rule's (below %d MiB for this test's heap)", got>>20, runsHeadroomMiB)
		}
	})
	t.Run("Raise", func(t *testing.T) {
		debug.SetMemoryLimit(800 << 20)
		h := NewHeapLimit()
		h.Raise(300 << 20)
		if got := debug.SetMemoryLimit(-1); got != 1100<<20 {
			t.Errorf("limit %d MiB after raising 800 MiB by 300, want 1100", got>>20)
		}
		h.Restore()
		if got := debug.SetMemoryLimit(-1); got != 800<<20 {
			t.Errorf("limit %d MiB after the build, want the process's 800", got>>20)
		}
	})
	t.Run("Floor", func(t *testing.T) {
		debug.SetMemoryLimit(64 << 20) // below what a fit gives this test's heap
		h := NewHeapLimit()
		h.RaiseFloor(4 << 30)
		if got := debug.SetMemoryLimit(-1); got != 64<<20+4<<30 {
			t.Errorf("limit %d MiB after raising the floor of 64 MiB by 4 GiB, want %d", got>>20, 64+4<<10)
		}
		forced := func() uint64 {
			m := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
			metrics.Read(m)
			return m[0].Value.Uint64()
		}
		before := forced()
		h.Fit()
		h.FitRuns()
		if got := debug.SetMemoryLimit(-1); got != 64<<20+4<<30 {
			t.Errorf("limit %d MiB after fits below the floor, want the floor's %d", got>>20, 64+4<<10)
		}
		if n := forced() - before; n != 0 {
			t.Errorf("%d collections forced by fits whose heap, garbage and all, is below the floor; want none", n)
		}
		h.Restore()
		if got := debug.SetMemoryLimit(-1); got != 64<<20 {
			t.Errorf("limit %d MiB after the build, want the process's 64", got>>20)
		}
	})
	t.Run("RaisedWithoutLimit", func(t *testing.T) {
		for name, raise := range map[string]func(*HeapLimit){
			"Raise":      func(h *HeapLimit) { h.Raise(300 << 20) },
			"RaiseFloor": func(h *HeapLimit) { h.RaiseFloor(4 << 30) },
		} {
			debug.SetMemoryLimit(math.MaxInt64)
			h := NewHeapLimit()
			raise(&h)
			if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
				t.Errorf("%s: limit %d set without a limit, want none", name, got)
			}
			h.Restore()
		}
	})
	t.Run("Later", func(t *testing.T) {
		debug.SetMemoryLimit(64 << 20)
		h := NewHeapLimit()
		h.FitRunsLater()
		h.Restore()      // waits for the fit: the process's limit after it, not the fit's
		h.fitting.Wait() // (a fit Restore did not wait for sets its limit by now)
		if got := debug.SetMemoryLimit(-1); got != 64<<20 {
			t.Errorf("limit %d MiB after the build, want the process's 64 MiB", got>>20)
		}
		h = NewHeapLimit()
		defer h.Restore()
		h.FitRunsLater()
		h.Fit() // waits for the later fit, then fits by its own rule
		h.fitting.Wait()
		if got := debug.SetMemoryLimit(-1); got >= runsHeadroomMiB<<20 {
			t.Errorf("limit %d MiB after fit, want the steps' rule's, not the later FitRuns'", got>>20)
		}
	})
	t.Run("NoLimit", func(t *testing.T) {
		debug.SetMemoryLimit(math.MaxInt64)
		h := NewHeapLimit()
		if p := gcPercent(); p != 100 {
			t.Errorf("GOGC %d during the build, want the process's 100", p)
		}
		h.Restore()
		if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
			t.Errorf("limit %d after the build, want none", got)
		}
	})
}

// TestLimitAbove: a process without a limit gets one above its live heap
// until restored; one with a limit keeps it; 0 sets none.
func TestLimitAbove(t *testing.T) {
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(limit) })
	debug.SetMemoryLimit(math.MaxInt64)
	restore := LimitAbove(800)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if got := debug.SetMemoryLimit(-1); got < 800<<20 || got > int64(live[0].Value.Uint64())+800<<20 {
		t.Errorf("limit %d, want the live heap (%d) plus 800 MiB", got, live[0].Value.Uint64())
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after restore, want none", got)
	}
	if LimitAbove(0)(); debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Error("LimitAbove(0) set a limit")
	}
	debug.SetMemoryLimit(300 << 20) // GOMEMLIMIT's, say
	restore = LimitAbove(800)
	if got := debug.SetMemoryLimit(-1); got != 300<<20 {
		t.Errorf("limit %d with the process's 300 MiB, want it kept", got)
	}
	if restore(); debug.SetMemoryLimit(-1) != 300<<20 {
		t.Error("restore changed the process's limit")
	}
}
