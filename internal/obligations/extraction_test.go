package obligations_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
)

// gatedExtractor waits at each circular until let through, counting them.
type gatedExtractor struct {
	svc  *ai.Service
	gate chan struct{}
	mu   sync.Mutex
	seen []string
}

func (g *gatedExtractor) ExtractObligations(ctx context.Context, req ai.ObligationRequest) ([]catalog.Obligation, error) {
	select {
	case <-g.gate:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	g.mu.Lock()
	g.seen = append(g.seen, req.Circular.Slug)
	g.mu.Unlock()
	return g.svc.ExtractObligations(ctx, req)
}

// TestExtraction: Start returns at once and the status says the
// extraction is under way, how far, then done with its stats; a request
// made meanwhile runs after it with the latest circulars only; Close
// stops a running one.
func TestExtraction(t *testing.T) {
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	db := syncedStore(t, cat)
	var unwritten []catalog.Circular
	for _, c := range cat.Circulars {
		if len(c.Obligations) == 0 {
			unwritten = append(unwritten, c)
		}
	}
	if len(unwritten) < 3 {
		t.Fatalf("%d circulars without written obligations in the content, want 3 or more", len(unwritten))
	}
	ex := &gatedExtractor{svc: ai.NewService(nil, local.New()), gate: make(chan struct{})}
	e := obligations.NewExtraction(db, ex, slog.New(slog.DiscardHandler))
	defer e.Close()

	if st := e.Status(); st.Running || st.StartedAt != nil {
		t.Fatalf("status before any start: %+v", st)
	}
	e.Start(unwritten)
	st := e.Status()
	if !st.Running || st.Total != len(unwritten) || st.Done != 0 || st.StartedAt == nil {
		t.Errorf("status once started: %+v, want running, 0 of %d", st, len(unwritten))
	}
	ex.gate <- struct{}{} // the first circular read
	// asked again meanwhile, twice: the latest request alone runs next
	e.Start(unwritten[:2])
	e.Start(unwritten[1:2])
	if st := e.Status(); !st.Running || st.Total != len(unwritten) {
		t.Errorf("status after more requests: %+v, want the first still running", st)
	}
	close(ex.gate)
	select {
	case <-e.Idle():
	case <-time.After(30 * time.Second):
		t.Fatal("the extraction did not end")
	}
	st = e.Status()
	if st.Running || st.Done != 1 || st.Total != 1 || st.FinishedAt == nil || st.Last == nil || st.Error != "" {
		t.Fatalf("status when idle: %+v, want the latest request's, done", st)
	}
	if st.Last.Unchanged != 1 { // the first refresh extracted it
		t.Errorf("the second refresh: %v, want its one circular unchanged", st.Last)
	}
	if len(ex.seen) != len(unwritten) {
		t.Errorf("%d circulars extracted, want each of the first request's once (%d)", len(ex.seen), len(unwritten))
	}

	t.Run("Close", func(t *testing.T) {
		// A store of its own: in db every circular is already read, and a
		// run finding them unchanged would end before Close is called.
		db := syncedStore(t, cat)
		ex := &gatedExtractor{svc: ai.NewService(nil, local.New()), gate: make(chan struct{})}
		e := obligations.NewExtraction(db, ex, slog.New(slog.DiscardHandler))
		e.Start(unwritten)
		done := make(chan struct{})
		go func() { e.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("Close did not stop the running extraction")
		}
		if st := e.Status(); st.Running || st.Error == "" {
			t.Errorf("status after Close: %+v, want stopped, saying why", st)
		}
		e.Start(unwritten) // closed: nothing runs
		if st := e.Status(); st.Running {
			t.Error("a closed extraction started again")
		}
	})
}
