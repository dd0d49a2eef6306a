package generator

import (
	"log/slog"
	"time"
)

// phases logs how long each step of a build took, at debug level: where a
// build's minutes go at 100,000 circulars (`regpulse build -v`, the build
// benchmark with REGPULSE_BENCH_TRACE).
type phases struct {
	log  *slog.Logger
	last time.Time
}

func newPhases(log *slog.Logger) *phases {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &phases{log: log, last: time.Now()}
}

// done logs the step that ends now, with its attributes.
func (p *phases) done(step string, args ...any) {
	now := time.Now()
	p.log.Debug("build step", append([]any{"step", step, "took", now.Sub(p.last).Round(time.Millisecond)}, args...)...)
	p.last = now
}
