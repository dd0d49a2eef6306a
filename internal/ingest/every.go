package ingest

import (
	"context"
	"log/slog"
	"regpulse/internal/schedule"
	"time"
)

// RunFunc runs one ingestion.
type RunFunc func(ctx context.Context) (Report, error)

// Every runs run every interval until ctx is cancelled and logs what each
// run found. A failed run is logged and the next one runs on schedule;
// after, when not nil, is called after each run.
func Every(ctx context.Context, interval time.Duration, run RunFunc, log *slog.Logger, after func()) {
	var start time.Time
	schedule.Every(ctx, interval, func(ctx context.Context) (Report, error) {
		start = time.Now()
		return run(ctx)
	}, func(rep Report, err error) {
		rep.Log(log)
		if err != nil {
			log.Error("ingest failed", "err", err)
		}
		log.Info("ingested feeds", "written", len(rep.Written), "skipped", len(rep.Skipped),
			"warnings", rep.Warnings(), "backfilled", rep.Backfilled(), "merged", len(rep.Merged),
			"took", time.Since(start).Round(time.Millisecond))
		if after != nil {
			after()
		}
	})
}

// Log writes each written file and each malformed item to log; items
// already in the content are only counted.
func (r Report) Log(log *slog.Logger) {
	for _, w := range r.Written {
		log.Info("ingested an unpublished circular", "feed", w.Feed, "file", w.Path, "title", w.Title)
	}
	for _, m := range r.Merged {
		log.Info("kept another copy as \"also published as\"", "feed", m.Feed, "link", m.Link, "as", m.As,
			"of", m.Of, "rule", string(m.Rule), "added", m.Added)
	}
	for _, s := range r.Skipped {
		if s.Warning {
			log.Warn("skipped a feed item", "feed", s.Feed, "item", s.Item, "reason", s.Reason)
		}
	}
}
