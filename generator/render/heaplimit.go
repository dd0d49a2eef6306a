package render

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// MemoryLimitMiB is the soft memory limit `regpulse build` sets by
// default (debug.SetMemoryLimit) and the build benchmark runs under: the
// least the build is kept to. Build raises it as it needs (HeapLimit,
// RaiseFloor): at 10,000 circulars the process peaks near 1.0 GB, at
// 100,000 near 1.4 GB.
const MemoryLimitMiB = 800

// HeapLimit keeps the process's soft memory limit, when one is set
// (`regpulse build` sets MemoryLimitMiB), above the heap the build holds:
// before Hugo, at least one and a half times that heap plus 512 MiB
// (Fit); for Hugo's runs, that heap plus runsHeadroomMiB (FitRuns).
// Under a limit below the live heap the collector runs without pause,
// taking half the CPU: at 100,000 circulars the build holds some 500 MB
// once the texts are rendered. (Twice the heap let the process reach
// 1.5 GB there, its budget.)
//
// Under a limit the build also turns GOGC's proportional collection off:
// the limit, fitted as the heap grows, is what keeps the process small,
// and collecting each time the heap doubled from a small one cost the
// loading of 100,000 circulars a fifth of its CPU (17.4 s against 14.5 s,
// RSS 742 against 858 MB, under the same 800 MiB limit).
//
// A fit collects the whole heap to know what is live (some 150 ms at
// 100,000 circulars). FitRunsLater collects on a goroutine of its own
// while Hugo's next run goes on under the limit the build had; the next
// fit and Restore wait for it. (Fit is not done so: the views' step,
// allocating fast during that collection, took the process 150 MB
// higher at 100,000 circulars.)
type HeapLimit struct {
	set     int64           // the limit the process had
	floor   int64           // the least a fit sets: set, raised by RaiseFloor
	gc      int             // the GOGC percentage it had, while a limit is set
	fitting *sync.WaitGroup // FitRunsLater's goroutine
}

// NewHeapLimit takes over the process's limit and GOGC until Restore.
func NewHeapLimit() HeapLimit {
	h := HeapLimit{set: debug.SetMemoryLimit(-1), fitting: new(sync.WaitGroup)}
	h.floor = h.set
	if h.set != math.MaxInt64 {
		h.gc = debug.SetGCPercent(-1)
	}
	return h
}

// Fit sets the limit from the heap live now: raised while the build holds
// more than the process's limit allows, lowered again (never below it,
// or the floor RaiseFloor set) once the build holds less, so the
// collector keeps the process small.
func (h HeapLimit) Fit() {
	h.wait()
	h.fitTo(func(live int64) int64 { return live*3/2 + 512<<20 })
}

// RaiseFloor raises by n bytes the least the limit is fitted to, while a
// limit is set, and the limit with it. The build's heap grows with the
// archive (FloorPerFile), and each collection marks all of it: a floor
// in proportion keeps a large archive's collections as far apart as a
// small one's, where the process's limit alone made them some ten times
// as many, each marking ten times as much.
func (h *HeapLimit) RaiseFloor(n int64) {
	if h.set == math.MaxInt64 || n <= 0 {
		return
	}
	h.wait()
	h.floor += n
	debug.SetMemoryLimit(max(debug.SetMemoryLimit(-1), h.floor))
}

// FloorPerFile is what the build raises its floor by for each content
// file (RaiseFloor): at 100,000 circulars some 490 MiB over the
// process's MemoryLimitMiB. There, with it, an edit's collections took
// 1.5 s of CPU against 3.3 s, its peak RSS 1.35 GB against 1.09 GB,
// and a fresh build peaked at 1.37 GB against 1.36 GB.
const FloorPerFile = 5 << 10

// runsHeadroomMiB is what Hugo's runs are given above the heap the build
// holds when they start: a run holds some 300 MB of its own (RunPages
// pages, their data), and the rest is room to allocate between two
// collections. Each collection marks the whole live heap, so with the
// build's own heap held as bytes (Views, Page.Encode) and a fixed room
// above it, Hugo's runs at 100,000 circulars collect less often and each
// collection costs less.
const runsHeadroomMiB = 896

// Raise raises the limit by n bytes, for what the build is about to
// read, until the next fit.
func (h HeapLimit) Raise(n int64) {
	if h.set == math.MaxInt64 || n <= 0 {
		return
	}
	h.wait()
	debug.SetMemoryLimit(debug.SetMemoryLimit(-1) + n)
}

// FitRuns sets the limit for Hugo's runs: the heap live now plus
// runsHeadroomMiB (never below the process's limit, or its floor).
func (h HeapLimit) FitRuns() {
	h.wait()
	h.fitTo(fitRuns)
}

// FitRunsLater is FitRuns on a goroutine of its own, once the fit
// before it is done.
func (h HeapLimit) FitRunsLater() {
	if h.fitting == nil { // (a HeapLimit not made by NewHeapLimit)
		h.FitRuns()
		return
	}
	if h.set == math.MaxInt64 {
		return
	}
	h.wait()
	h.fitting.Go(func() { h.fitTo(fitRuns) })
}

func fitRuns(live int64) int64 { return live + runsHeadroomMiB<<20 }

// wait waits for a later fit.
func (h HeapLimit) wait() {
	if h.fitting != nil {
		h.fitting.Wait()
	}
}

func (h HeapLimit) fitTo(limit func(live int64) int64) {
	if h.set == math.MaxInt64 {
		return
	}
	// What the heap holds, garbage included, bounds what is live: when
	// even that is fitted below the floor, so would the live heap be,
	// and the full collection that measures it is not made (at 100,000
	// circulars the floor is above both fits before Hugo's runs, whose
	// collections took an edit 0.35 s).
	if held, ok := readBytes("/memory/classes/heap/objects:bytes"); ok && limit(held) <= h.floor {
		debug.SetMemoryLimit(h.floor)
		return
	}
	runtime.GC()
	if live, ok := readBytes("/gc/heap/live:bytes"); ok {
		debug.SetMemoryLimit(max(h.floor, limit(live)))
	}
}

// readBytes reads the runtime metric name, in bytes.
func readBytes(name string) (int64, bool) {
	m := []metrics.Sample{{Name: name}}
	metrics.Read(m)
	if m[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(m[0].Value.Uint64()), true
}

// LimitAbove sets the process's soft memory limit, while it has none
// (GOMEMLIMIT or debug.SetMemoryLimit), to the heap live at the last
// collection plus mib MiB, and returns what takes it off again: serve
// runs its rebuilds so, as `regpulse build` runs under MemoryLimitMiB,
// above what the server holds besides (its search index, its caches).
// Without it a rebuild let the heap double under GOGC: at 100,000
// circulars an edit peaked at 4.3 GB, a fresh build at 11 GB.
func LimitAbove(mib int64) (restore func()) {
	if mib <= 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	live, _ := readBytes("/gc/heap/live:bytes")
	debug.SetMemoryLimit(live + mib<<20)
	return func() { debug.SetMemoryLimit(math.MaxInt64) }
}

// Restore gives the process its limit and GOGC back.
func (h HeapLimit) Restore() {
	h.wait()
	debug.SetMemoryLimit(h.set)
	if h.set != math.MaxInt64 {
		debug.SetGCPercent(h.gc)
	}
}
