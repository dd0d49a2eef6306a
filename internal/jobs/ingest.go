package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"regpulse/internal/ingest"
)

// IngestEnv is ingest's part of Env.
type IngestEnv struct {
	// Feeds reads the list of sources, at each run (an editor's change
	// to feeds.yaml needs no restart of serve).
	Feeds func() ([]ingest.Feed, error)
	// State is the store's side of polling (validators, cadence, polls):
	// the store. nil: every source is polled at every run.
	State ingest.State
	// Items keeps every instrument and copy seen and the drafts queued:
	// the store. With no content folder (a function) the drafts are
	// queued there only (`regpulse ingest pull` writes them out).
	Items ingest.Items
	// Operator is told of stale sources and changed page shapes (nil:
	// the log and the metrics only).
	Operator ingest.Operator
	// Timeout bounds each source's fetch (0: ingest.DefaultTimeout).
	Timeout time.Duration
	// Contact is added to the User-Agent the regulators' servers see.
	Contact string
	// Budget bounds the whole run (0: none): a function has 30 s
	// (Netlify's limit for scheduled functions), so it stops polling at
	// FunctionBudget and the sources not reached wait for the next tick
	// (their state is in the store).
	Budget time.Duration
}

// Ingest's lock: a leased mutex on job_runs (job "ingest", run key
// "poll"), released at the end of each run. Its lease outlasts the run's
// budget by leaseMargin, so a run its host kills (a function past its
// time limit never releases) frees it by the next tick.
const (
	ingestJob      = "ingest"
	ingestRunKey   = "poll"
	leaseMargin    = 35 * time.Second
	unbudgetedRun  = 15 * time.Minute // serve's runs, without a budget: past any tick's polls (a crashed server holds it no longer)
	FunctionBudget = 25 * time.Second
)

// errNoContent: ingest has nowhere to write its drafts (neither a
// content folder nor the store's queue).
var errNoContent = errors.New("ingest: no content folder and no store queue to write drafts into")

// IngestResult is what one ingest tick did.
type IngestResult struct {
	Report ingest.Report
	// HeldBy, when set, is the run holding the lock (until HeldUntil):
	// this one skipped.
	HeldBy    string
	HeldUntil time.Time
	// BudgetSpent: the run stopped at its budget; the sources it did not
	// reach wait for the next tick.
	BudgetSpent bool
	Budget      time.Duration
	Took        time.Duration
}

func (r IngestResult) String() string {
	if r.HeldBy != "" {
		return fmt.Sprintf("ingest: skipped: held by %s until %s", r.HeldBy, r.HeldUntil.UTC().Format(time.RFC3339))
	}
	s := fmt.Sprintf("ingest: %d written, %d already known, %d skipped with a warning; %s; took %s",
		len(r.Report.Written), len(r.Report.Skipped)-r.Report.Warnings(), r.Report.Warnings(), r.Report.Figures(), r.Took.Round(time.Millisecond))
	if r.BudgetSpent {
		s += fmt.Sprintf("; budget of %s spent, the rest at the next tick", r.Budget)
	}
	return s
}

// Ingest is one ingest tick: unless another run holds ingest's lock, the
// sources are polled (ingest.Run) until the budget is spent. A run that
// finds the lock held returns a result saying by whom, not an error:
// overlapping ticks are expected (a slow run, serve beside a function).
func Ingest(ctx context.Context, env Env) (IngestResult, error) {
	if env.Ingest.Feeds == nil {
		return IngestResult{}, errors.New("ingest: no feeds to read")
	}
	if env.Content == "" && env.Ingest.Items == nil {
		return IngestResult{}, errNoContent
	}
	lease := unbudgetedRun
	if env.Ingest.Budget > 0 {
		lease = env.Ingest.Budget + leaseMargin
	}
	ok, heldBy, until, err := env.DB.ClaimJobRun(ctx, ingestJob, ingestRunKey, env.Holder, lease)
	if err != nil {
		return IngestResult{}, err
	}
	if !ok {
		// heldBy "" only if the key were finished, which ingest's never is
		return IngestResult{HeldBy: cmp.Or(heldBy, "a finished run"), HeldUntil: until}, nil
	}
	defer func() {
		// released even when ctx has ended (a shutdown): the next run
		// need not wait for the lease
		if err := env.DB.ReleaseJobRun(context.WithoutCancel(ctx), ingestJob, ingestRunKey, env.Holder); err != nil {
			env.log().Error("ingest: release the lock", "err", err)
		}
	}()
	start := time.Now()
	feeds, err := env.Ingest.Feeds()
	if err != nil {
		return IngestResult{}, err
	}
	runCtx := ctx
	if env.Ingest.Budget > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, env.Ingest.Budget)
		defer cancel()
	}
	rep, err := ingest.Run(runCtx, feeds, ingest.Options{ContentDir: env.Content, Timeout: env.Ingest.Timeout,
		State: env.Ingest.State, Items: env.Ingest.Items, Operator: env.Ingest.Operator, Contact: env.Ingest.Contact, Now: env.Now})
	res := IngestResult{Report: rep, Budget: env.Ingest.Budget, Took: time.Since(start)}
	res.BudgetSpent = env.Ingest.Budget > 0 && errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	return res, err
}
