package obligations

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"regpulse/internal/catalog"
)

// Extraction refreshes the stored extracted obligations in the
// background, one refresh at a time, so that a server answers as soon as
// its store is synced: at 20,000 circulars a first extraction takes over
// a minute, at 100,000 several. A refresh asked for while one runs is
// taken up when it ends, with the circulars of the latest request only
// (each sync's catalog replaces the one before). Status says how far it
// is, for the register to say the extraction is under way.
type Extraction struct {
	st  Store
	ex  Extractor
	log *slog.Logger

	ctx    context.Context // ended by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	status  ExtractionStatus
	next    []catalog.Circular // the circulars of a request made while one ran
	waiting bool               // next holds a request (it may be empty)
	idle    chan struct{}      // closed when no refresh runs nor waits; nil while one does
}

// ExtractionStatus is how far the extraction of obligations is: while Running,
// Done of Total circulars have been read (those with written or
// unchanged obligations count at once). FinishedAt and Last are those of
// the last refresh that ended; Error says why it stopped, when it failed.
type ExtractionStatus struct {
	Running    bool       `json:"running"`
	Done       int        `json:"done"`
	Total      int        `json:"total"`
	StartedAt  *time.Time `json:"startedAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	Last       *Stats     `json:"last"`
	Error      string     `json:"error,omitempty"`
}

// NewExtraction is a background extraction over st, with ex, logging to
// log. Close stops it.
func NewExtraction(st Store, ex Extractor, log *slog.Logger) *Extraction {
	ctx, cancel := context.WithCancel(context.Background())
	idle := make(chan struct{})
	close(idle)
	return &Extraction{st: st, ex: ex, log: log, ctx: ctx, cancel: cancel, idle: idle}
}

// Start asks for the obligations of cs to be refreshed (Refresh, not
// forced) and returns at once.
func (e *Extraction) Start(cs []catalog.Circular) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ctx.Err() != nil {
		return // closed
	}
	if e.status.Running {
		e.next, e.waiting = cs, true
		return
	}
	e.begin(cs)
	e.wg.Add(1)
	go e.run(cs)
}

// begin marks a refresh of cs as running (under mu).
func (e *Extraction) begin(cs []catalog.Circular) {
	now := time.Now().UTC()
	e.status.Running, e.status.Done, e.status.Total, e.status.StartedAt = true, 0, len(cs), &now
	if e.idle != nil {
		select {
		case <-e.idle:
			e.idle = make(chan struct{})
		default:
		}
	}
}

// run refreshes cs, then each request made meanwhile, until none waits.
func (e *Extraction) run(cs []catalog.Circular) {
	defer e.wg.Done()
	for {
		start := time.Now()
		stats, err := refresh(e.ctx, e.st, e.ex, cs, false, e.log, func(done int) {
			e.mu.Lock()
			e.status.Done = done
			e.mu.Unlock()
		})
		switch {
		case e.ctx.Err() != nil:
		case err != nil:
			e.log.Error("obligations: extraction stopped", "err", err)
		default:
			e.log.Info("obligations extracted", "changes", stats.String(), "took", time.Since(start).Round(time.Millisecond))
		}
		e.mu.Lock()
		now := time.Now().UTC()
		e.status.Running, e.status.FinishedAt, e.status.Last, e.status.Error = false, &now, &stats, ""
		if err != nil {
			e.status.Error = err.Error()
		}
		if !e.waiting || e.ctx.Err() != nil {
			e.waiting, e.next = false, nil
			close(e.idle)
			e.mu.Unlock()
			return
		}
		cs, e.next, e.waiting = e.next, nil, false
		e.begin(cs)
		e.mu.Unlock()
	}
}

// Status is the extraction's as of now.
func (e *Extraction) Status() ExtractionStatus {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status
}

// Idle is closed once no refresh runs or waits (as of the call).
func (e *Extraction) Idle() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.idle
}

// Close stops the refresh running, if one is, and waits for it: the
// store may be closed after.
func (e *Extraction) Close() {
	e.cancel()
	e.wg.Wait()
}
