package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/ingeststate"
)

// The ingestion pipeline's state (ingeststate.State): each source's
// validators, schedule and last outcome (ingest_sources), and its polls
// (ingest_polls, kept IngestPollsKept). Times are stored in a fixed-width
// RFC 3339 form (leaseText), so text order is time order and "due" is a
// comparison.

// IngestPollsKept is how long polls are kept: enough for the weekly
// figures and a quarter's look back.
const IngestPollsKept = 90 * 24 * time.Hour

var _ ingeststate.State = (*DB)(nil)

// ingestTime is t as stored; "" for the zero time (never).
func ingestTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return leaseText(t)
}

func parseIngestTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339, s)
}

const ingestSourceColumns = `name, source, kind, url, etag, last_modified, body_sha256, last_poll_at, last_success_at,
	next_poll_at, last_status, last_error, consecutive_errors, stale_reported_at, shape_reported_at`

func scanIngestSource(row interface{ Scan(...any) error }) (ingeststate.SourceState, error) {
	var s ingeststate.SourceState
	var status string
	var times [6]string
	err := row.Scan(&s.Name, &s.Source, &s.Kind, &s.URL, &s.ETag, &s.LastModified, &s.BodySHA256, &times[0], &times[1],
		&times[2], &status, &s.LastError, &s.ConsecutiveErrors, &times[3], &times[4])
	if err != nil {
		return s, err
	}
	s.LastStatus = ingeststate.Outcome(status)
	for i, dst := range []*time.Time{&s.LastPoll, &s.LastSuccess, &s.NextPoll, &s.StaleReported, &s.ShapeReported} {
		if *dst, err = parseIngestTime(times[i]); err != nil {
			return s, err
		}
	}
	return s, nil
}

// IngestSource is what is known of the source named name; ok false
// before its first poll.
func (s *DB) IngestSource(ctx context.Context, name string) (_ ingeststate.SourceState, ok bool, err error) {
	defer wrap(&err, "IngestSource")
	st, err := scanIngestSource(s.db.QueryRowContext(ctx, `SELECT `+ingestSourceColumns+` FROM ingest_sources WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return ingeststate.SourceState{}, false, nil
	}
	return st, err == nil, err
}

// IngestSources is every source polled so far, by name.
func (s *DB) IngestSources(ctx context.Context) (_ []ingeststate.SourceState, err error) {
	defer wrap(&err, "IngestSources")
	rows, err := s.db.QueryContext(ctx, `SELECT `+ingestSourceColumns+` FROM ingest_sources ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ingeststate.SourceState
	for rows.Next() {
		st, err := scanIngestSource(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// SaveIngestPoll records p and updates its source in one transaction: a
// success (parsed, not modified, unchanged) sets its last success and
// clears its errors, a failure counts one more; the polls older than
// IngestPollsKept are dropped.
func (s *DB) SaveIngestPoll(ctx context.Context, p ingeststate.Poll) (err error) {
	defer wrap(&err, "SaveIngestPoll")
	at := ingestTime(p.At)
	success, errs := "", 1
	if p.Outcome != ingeststate.Failed && p.Outcome != ingeststate.ShapeChanged {
		success, errs = at, 0
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO ingest_polls (source_name, at, outcome, http_status, items, new_items,
		backfilled, merged, took_ms, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Name, at, string(p.Outcome), p.HTTPStatus, p.Items, p.New, p.Backfilled, p.Merged, p.Took.Milliseconds(), p.Err); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO ingest_sources (`+ingestSourceColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET source = excluded.source, kind = excluded.kind, url = excluded.url,
			etag = excluded.etag, last_modified = excluded.last_modified, body_sha256 = excluded.body_sha256,
			last_poll_at = excluded.last_poll_at,
			last_success_at = CASE WHEN excluded.last_success_at = '' THEN ingest_sources.last_success_at ELSE excluded.last_success_at END,
			next_poll_at = excluded.next_poll_at, last_status = excluded.last_status, last_error = excluded.last_error,
			consecutive_errors = CASE WHEN excluded.consecutive_errors = 0 THEN 0 ELSE ingest_sources.consecutive_errors + 1 END,
			stale_reported_at = excluded.stale_reported_at, shape_reported_at = excluded.shape_reported_at`,
		p.Name, p.Source, p.Kind, p.URL, p.Validators.ETag, p.Validators.LastModified, p.Validators.BodySHA256, at, success,
		ingestTime(p.NextPoll), string(p.Outcome), p.Err, errs, ingestTime(p.StaleReported), ingestTime(p.ShapeReported)); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM ingest_polls WHERE at < ?`, leaseText(p.At.Add(-IngestPollsKept))); err != nil {
		return err
	}
	return tx.Commit()
}

// IngestPollCounts counts each source's polls since since by outcome.
func (s *DB) IngestPollCounts(ctx context.Context, since time.Time) (_ map[string]map[ingeststate.Outcome]int, err error) {
	defer wrap(&err, "IngestPollCounts")
	rows, err := s.db.QueryContext(ctx, `SELECT source_name, outcome, COUNT(*) FROM ingest_polls WHERE at >= ?
		GROUP BY source_name, outcome`, leaseText(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[ingeststate.Outcome]int{}
	for rows.Next() {
		var name, outcome string
		var n int
		if err := rows.Scan(&name, &outcome, &n); err != nil {
			return nil, err
		}
		if out[name] == nil {
			out[name] = map[ingeststate.Outcome]int{}
		}
		out[name][ingeststate.Outcome(outcome)] = n
	}
	return out, rows.Err()
}

// IngestFreshness is how fresh each catalog source is, by source: as
// fresh as its least fresh feed, stale (at the store's now) after
// catalog.StaleAfter without a success.
func (s *DB) IngestFreshness(ctx context.Context) (_ []catalog.SourceFreshness, err error) {
	defer wrap(&err, "IngestFreshness")
	sources, err := s.IngestSources(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	var out []catalog.SourceFreshness
	at := map[string]int{}
	for _, st := range sources {
		i, ok := at[st.Source]
		if !ok {
			i = len(out)
			at[st.Source] = i
			out = append(out, catalog.SourceFreshness{Source: st.Source, LastSuccess: st.LastSuccess})
		}
		f := &out[i]
		f.Feeds = append(f.Feeds, st.Name)
		if st.LastSuccess.IsZero() || (!f.LastSuccess.IsZero() && st.LastSuccess.Before(f.LastSuccess)) {
			f.LastSuccess = st.LastSuccess
		}
	}
	for i := range out {
		out[i].Stale = catalog.IsStale(out[i].LastSuccess, now)
	}
	slices.SortFunc(out, func(a, b catalog.SourceFreshness) int { return strings.Compare(a.Source, b.Source) })
	return out, nil
}
