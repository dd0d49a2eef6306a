package store

import (
	"context"
	"fmt"
	"time"

	"regpulse/internal/catalog"
)

// IngestFreshness says, per catalog source, when ingest last read it
// successfully (ingest_sources, migration 00040): a source with several
// feeds or listing pages is as fresh as its least fresh one, and one that
// never answered is not fresh at all (zero LastSuccess). Stale follows
// catalog.IsStale at now. Sources come in name order, their feeds too.
func (s *DB) IngestFreshness(ctx context.Context, now time.Time) (_ []catalog.SourceFreshness, err error) {
	defer wrap(&err, "IngestFreshness")
	rows, err := s.db.QueryContext(ctx, `SELECT source, name, last_success_at FROM ingest_sources ORDER BY source, name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []catalog.SourceFreshness{}
	never := map[string]bool{}
	for rows.Next() {
		var source, name, last string
		if err := rows.Scan(&source, &name, &last); err != nil {
			return nil, err
		}
		var t time.Time
		if last != "" {
			if t, err = time.Parse(time.RFC3339, last); err != nil {
				return nil, fmt.Errorf("%s: last_success_at: %w", name, err)
			}
		}
		if n := len(out); n == 0 || out[n-1].Source != source {
			out = append(out, catalog.SourceFreshness{Source: source, LastSuccess: t})
		}
		f := &out[len(out)-1]
		f.Feeds = append(f.Feeds, name)
		switch {
		case t.IsZero():
			never[source] = true
		case t.Before(f.LastSuccess):
			f.LastSuccess = t
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if never[out[i].Source] {
			out[i].LastSuccess = time.Time{}
		}
		out[i].LastSuccess = out[i].LastSuccess.UTC()
		out[i].Stale = catalog.IsStale(out[i].LastSuccess, now)
	}
	return out, nil
}
