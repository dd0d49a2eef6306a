// Package schedule runs a job again and again at a fixed interval, the
// way serve's background work runs (rebuilds, ingestion, alerts).
package schedule

import (
	"context"
	"errors"
	"time"
)

// Every calls run at each tick of interval, the first one interval from
// now, until ctx ends, and gives each run's result to report. A run that
// fails with ctx's end (its error is, or wraps, ctx.Err()) is not
// reported: shutting down cancels a run, it does not break it; any other
// outcome is, whenever it comes. Every returns once ctx has ended, never during a run.
// The ticks a run outlasts are not queued: they make one, and the next
// run starts as the slow one ends.
func Every[R any](ctx context.Context, interval time.Duration, run func(context.Context) (R, error), report func(R, error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		res, err := run(ctx)
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return
		}
		report(res, err)
	}
}
