package ingest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"

	"regpulse/internal/catalog"
	"regpulse/internal/metrics"
)

// A poll of one source, politely: the store says when it is next due
// (its cadence, jitter and back-off) and what it answered last (its
// validators), so a source that has not changed costs a 304, or at worst
// a body hashed and dropped, and nothing is parsed. Every poll is
// recorded (State.SaveIngestPoll), counted (metrics.IngestPolls,
// IngestItems) and reported (Report.Polls).

// parseFeed reads a feed's body (Options.parse replaces it in tests, to
// count the parses).
func parseFeed(data []byte) (*gofeed.Feed, error) {
	return gofeed.NewParser().Parse(bytes.NewReader(asUTF8(data)))
}

// poll is one source's poll under way.
type poll struct {
	f     Feed
	state SourceState // zero before its first poll, or without a State
	start time.Time   // on Options.Now's clock
	began time.Time   // on the real one, for Took
	resp  response
	// unchanged: a 200 whose body hashes as the last one did.
	unchanged bool
	items     int
	// the report's lengths when the poll began, for its figures
	written, skipped, warnings, merged, backfilled int
}

// beginPoll reads what the store knows of f; nil when f is not due yet
// (Options.Force polls it anyway).
func (r *runner) beginPoll(ctx context.Context, f Feed) (*poll, error) {
	p := &poll{f: f, start: r.opts.Now(), began: time.Now(), written: len(r.report.Written), skipped: len(r.report.Skipped),
		warnings: r.report.Warnings(), merged: len(r.report.Merged), backfilled: r.report.Backfilled()}
	if r.opts.State != nil {
		st, ok, err := r.opts.State.IngestSource(ctx, f.Name)
		if err != nil {
			return nil, fmt.Errorf("its state: %w", err)
		}
		if ok {
			p.state = st
			// The gauges hold across restarts and between polls.
			if !st.LastSuccess.IsZero() {
				metrics.IngestLastSuccess.WithLabelValues(f.Name).Set(float64(st.LastSuccess.Unix()))
			}
			metrics.IngestStale.WithLabelValues(f.Name).Set(map[bool]float64{true: 1}[catalog.IsStale(st.LastSuccess, p.start)])
		}
		if ok && !r.opts.Force && st.NextPoll.After(p.start) {
			r.report.NotDue = append(r.report.NotDue, NotDue{Feed: f.Name, Next: st.NextPoll})
			return nil, nil
		}
	}
	return p, nil
}

// fetchFeed fetches f conditionally and parses it; nil (and no error)
// when there is nothing to read: a 304, or the body last read.
func (r *runner) fetchFeed(ctx context.Context, p *poll) (*gofeed.Feed, error) {
	fctx, cancel := context.WithTimeout(ctx, r.opts.Timeout)
	defer cancel()
	sent := p.state.Validators
	if r.opts.Force {
		sent = Validators{}
	}
	resp, err := fetchConditional(fctx, r.opts.Client, p.f.URL, r.opts.MaxBytes, userAgent(r.opts.Contact), sent)
	p.resp = resp
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return nil, fmt.Errorf("no answer within %s: %w", r.opts.Timeout, err)
		}
		return nil, err
	}
	if resp.NotModified {
		return nil, nil
	}
	if sent.BodySHA256 != "" && resp.Validators.BodySHA256 == sent.BodySHA256 {
		p.unchanged = true
		return nil, nil
	}
	parse := r.opts.parse
	if parse == nil {
		parse = parseFeed
	}
	parsed, err := parse(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("not a feed that can be read: %w", err)
	}
	p.items = len(parsed.Items)
	return parsed, nil
}

// endPoll records how p ended (err: its failure, if any), counts it and
// decides when the source is next due; a source with no success for
// catalog.StaleAfter is reported stale, and the Operator told once per
// spell. It returns err, with any failure to record it.
func (r *runner) endPoll(ctx context.Context, p *poll, err error) error {
	if ctx.Err() != nil {
		return err // cut short (a shutdown): not the source's failure
	}
	now := r.opts.Now()
	rec := Poll{Name: p.f.Name, Source: p.f.Source, Kind: p.f.kind(), URL: p.f.URL, At: p.start,
		HTTPStatus: p.resp.Status, Items: p.items, Took: time.Since(p.began),
		New:    len(r.report.Written) - p.written,
		Merged: len(r.report.Merged) - p.merged, Backfilled: r.report.Backfilled() - p.backfilled,
		Validators: p.state.Validators, StaleReported: p.state.StaleReported, ShapeReported: p.state.ShapeReported}
	warnings := r.report.Warnings() - p.warnings
	known := len(r.report.Skipped) - p.skipped - warnings
	errs := p.state.ConsecutiveErrors + 1
	lastSuccess := p.state.LastSuccess
	var shape *ShapeError
	switch {
	case errors.As(err, &shape):
		rec.Outcome, rec.Err = ShapeChanged, err.Error()
	case err != nil:
		rec.Outcome, rec.Err = Failed, err.Error()
	case p.resp.NotModified:
		rec.Outcome = NotModified
	case p.unchanged:
		rec.Outcome = Unchanged
	default:
		rec.Outcome = Parsed
	}
	var shapeErr error
	switch {
	case rec.Outcome == ShapeChanged && (rec.ShapeReported.IsZero() || now.Sub(rec.ShapeReported) >= 24*time.Hour):
		// Loud, and once a day per source while it lasts.
		if shapeErr = r.tellShape(ctx, p.f, err); shapeErr == nil {
			rec.ShapeReported = now
		}
	case rec.Outcome != ShapeChanged:
		rec.ShapeReported = time.Time{}
	}
	if rec.Outcome != Failed && rec.Outcome != ShapeChanged {
		rec.Validators, errs, lastSuccess = p.resp.Validators, 0, now
		metrics.IngestLastSuccess.WithLabelValues(p.f.Name).Set(float64(now.Unix()))
	}
	rec.NextPoll = p.f.cadence().After(now, errs, r.rnd)
	if se := (*statusError)(nil); errors.As(err, &se) && se.RetryAfter > 0 && now.Add(se.RetryAfter).After(rec.NextPoll) {
		rec.NextPoll = now.Add(se.RetryAfter)
	}

	metrics.IngestPolls.WithLabelValues(p.f.Name, strings.ReplaceAll(string(rec.Outcome), "-", "_")).Inc()
	for result, n := range map[string]int{"new": rec.New, "known": known, "malformed": warnings} {
		if n > 0 {
			metrics.IngestItems.WithLabelValues(p.f.Name, result).Add(float64(n))
		}
	}

	// Staleness needs the history: without a State every run is a first.
	stale := r.opts.State != nil && catalog.IsStale(lastSuccess, now)
	var staleErr error
	switch {
	case !stale:
		rec.StaleReported = time.Time{} // the spell, if any, is over
		metrics.IngestStale.WithLabelValues(p.f.Name).Set(0)
	default:
		metrics.IngestStale.WithLabelValues(p.f.Name).Set(1)
		s := Stale{Feed: p.f.Name, Source: p.f.Source, URL: p.f.URL, LastSuccess: lastSuccess, Err: rec.Err}
		if rec.StaleReported.IsZero() {
			s.New = true
			staleErr = r.tellStale(ctx, s)
			if staleErr == nil {
				rec.StaleReported = now
			}
		}
		r.report.Stale = append(r.report.Stale, s)
	}

	r.report.Polls = append(r.report.Polls, rec)
	if r.opts.State != nil {
		if serr := r.opts.State.SaveIngestPoll(ctx, rec); serr != nil {
			staleErr = errors.Join(staleErr, fmt.Errorf("recording the poll: %w", serr))
		}
	}
	return errors.Join(err, shapeErr, staleErr)
}

// tellStale tells the Operator, if any, that s went stale.
func (r *runner) tellStale(ctx context.Context, s Stale) error {
	if r.opts.Operator == nil {
		return nil
	}
	since := "it has never been read successfully"
	if !s.LastSuccess.IsZero() {
		since = "it was last read successfully at " + s.LastSuccess.UTC().Format(time.RFC3339)
	}
	text := fmt.Sprintf("The %s source %q (%s) has had no successful poll for %s: %s.\n\nLast error: %s\n\n"+
		"Readers see its items as possibly behind until it answers again. `regpulse ingest status` shows every source; "+
		"you will not be told again until it has answered and then stopped again.\n",
		s.Source, s.Feed, s.URL, catalog.StaleAfter, since, s.Err)
	if err := r.opts.Operator.Tell(ctx, fmt.Sprintf("RegPulse: ingest source %s is stale", s.Feed), text); err != nil {
		return fmt.Errorf("telling the operator it is stale: %w", err)
	}
	return nil
}

// newRand is the jitter's source when Options.Rand is nil.
func newRand() *rand.Rand { return rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64())) }

// NotDue is a source a run left alone: its next poll is later.
type NotDue struct {
	Feed string
	Next time.Time
}

// Stale is a source with no successful poll for catalog.StaleAfter.
type Stale struct {
	Feed, Source, URL string
	LastSuccess       time.Time // zero: never
	Err               string    // the last poll's error
	// New: the spell began at this poll (the Operator was told).
	New bool
}

// Figures are a run's counts, for its log line.
type Figures struct {
	Polls, NotModified, Unchanged, New, Backfilled, Merged, Errors, NotDue int
}

// Figures counts r's polls by outcome.
func (r Report) Figures() Figures {
	f := Figures{Polls: len(r.Polls), NotDue: len(r.NotDue)}
	for _, p := range r.Polls {
		f.New += p.New
		f.Backfilled += p.Backfilled
		f.Merged += p.Merged
		switch p.Outcome {
		case NotModified:
			f.NotModified++
		case Unchanged:
			f.Unchanged++
		case Failed, ShapeChanged:
			f.Errors++
		}
	}
	return f
}

func (f Figures) String() string {
	return fmt.Sprintf("polls %d, 304s %d, unchanged %d, new %d, backfilled %d, merged %d, errors %d, not due %d",
		f.Polls, f.NotModified, f.Unchanged, f.New, f.Backfilled, f.Merged, f.Errors, f.NotDue)
}
