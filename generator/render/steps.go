package render

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"runtime/metrics"
	"strconv"
	"syscall"
	"time"
)

// Steps logs how long each step of a build took, with the live heap
// after it and the process's peak resident memory so far, at debug level:
// where a build's minutes and memory go at 100,000 circulars (`regpulse
// build -v`, the build benchmark with REGPULSE_BENCH_TRACE).
type Steps struct {
	log  *slog.Logger
	last time.Time
	cpu  time.Duration // the process's CPU time when the last step ended
	gc   time.Duration // the collector's CPU time (an estimate) then
}

// NewSteps logs the steps to log (nil: nowhere).
func NewSteps(log *slog.Logger) *Steps {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Steps{log: log, last: time.Now()}
	p.cpu, _ = cpuTime()
	p.gc, _ = gcTime()
	return p
}

// Done logs the step that ends now, with its attributes.
func (p *Steps) Done(step string, args ...any) {
	if p == nil {
		return
	}
	now := time.Now()
	defer func() { p.last = now }()
	if !p.log.Enabled(context.Background(), slog.LevelDebug) {
		return // no heap to read, nor /proc
	}
	args = append([]any{"step", step, "took", now.Sub(p.last).Round(time.Millisecond)}, args...)
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() == metrics.KindUint64 {
		args = append(args, "heap_mb", live[0].Value.Uint64()>>20)
	}
	if gc, ok := gcTime(); ok {
		args = append(args, "gc_cpu", (gc - p.gc).Round(time.Millisecond))
		p.gc = gc
	}
	if mb, ok := peakRSS(); ok {
		args = append(args, "peak_rss_mb", mb)
	}
	if cpu, ok := cpuTime(); ok {
		args = append(args, "cpu", (cpu - p.cpu).Round(time.Millisecond))
		p.cpu = cpu
	}
	p.log.Debug("build step", args...)
}

// gcTime is the CPU time the collector has taken so far, as the runtime
// estimates it: at 100,000 circulars, a tenth of the build's.
func gcTime() (time.Duration, bool) {
	s := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64 {
		return 0, false
	}
	return time.Duration(s[0].Value.Float64() * float64(time.Second)), true
}

// peakRSS is the process's peak resident memory in MB, where the system
// says it (Linux: VmHWM).
func peakRSS() (int, bool) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(status, []byte("VmHWM:"))
	if !ok {
		return 0, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	kb, err := strconv.Atoi(string(bytes.TrimSuffix(bytes.TrimSpace(line), []byte(" kB"))))
	if err != nil {
		return 0, false
	}
	return kb >> 10, true
}

// cpuTime is the CPU time, user and system, the process has used so far:
// with a step's wall time, how many cores it kept busy.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
