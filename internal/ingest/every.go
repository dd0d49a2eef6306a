package ingest

import (
	"context"
	"log/slog"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/schedule"
)

// RunFunc runs one ingestion.
type RunFunc func(ctx context.Context) (Report, error)

// Every runs run every interval until ctx is cancelled and logs what each
// run found. A failed run is logged and the next one runs on schedule;
// after, when not nil, is called after each run. With a State, interval
// is only the tick: each run polls the sources that are due (their
// cadence, Feed.Cadence), so it may be short (a minute).
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
		// A tick with nothing due has nothing to say.
		if fig := rep.Figures(); fig.Polls > 0 || err != nil {
			log.Info("ingested feeds", "written", len(rep.Written), "skipped", len(rep.Skipped),
				"warnings", rep.Warnings(), "polls", fig.Polls, "not_modified", fig.NotModified, "unchanged", fig.Unchanged,
				"new", fig.New, "backfilled", fig.Backfilled, "merged", fig.Merged, "errors", fig.Errors, "not_due", fig.NotDue,
				"took", time.Since(start).Round(time.Millisecond))
		}
		if after != nil {
			after()
		}
	})
}

// Log writes each poll (at debug level), each written file, each
// malformed item and each stale source (at error level) to log; items
// already in the content are only counted.
func (r Report) Log(log *slog.Logger) {
	for _, p := range r.Polls {
		log.Debug("polled a source", "feed", p.Name, "outcome", string(p.Outcome), "status", p.HTTPStatus,
			"items", p.Items, "new", p.New, "took", p.Took.Round(time.Millisecond), "next", p.NextPoll.Format(time.RFC3339))
	}
	for _, s := range r.Stale {
		last := "never"
		if !s.LastSuccess.IsZero() {
			last = s.LastSuccess.UTC().Format(time.RFC3339)
		}
		log.Error("ingest source stale: no successful poll for "+catalog.StaleAfter.String(), "feed", s.Feed, "source", s.Source,
			"last_success", last, "new_spell", s.New, "err", s.Err)
	}
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
