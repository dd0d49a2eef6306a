package obligations_test

import (
	"context"
	"log/slog"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/store"
)

// countingExtractor counts the circulars it is asked about.
type countingExtractor struct {
	svc   *ai.Service
	asked []string
}

func (c *countingExtractor) ExtractObligations(ctx context.Context, req ai.ObligationRequest) ([]catalog.Obligation, error) {
	c.asked = append(c.asked, req.Circular.Slug)
	return c.svc.ExtractObligations(ctx, req)
}

// syncedStore is an in-memory store holding cat, closed when t ends.
func syncedStore(t *testing.T, cat *catalog.Catalog) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestRefresh(t *testing.T) {
	ctx := t.Context()
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	db := syncedStore(t, cat)
	ex := &countingExtractor{svc: ai.NewService(nil, local.New())}
	log := slog.New(slog.DiscardHandler)
	written := 0
	for _, c := range cat.Circulars {
		if len(c.Obligations) > 0 {
			written++
		}
	}
	first, err := obligations.Refresh(ctx, db, ex, cat.Circulars, false, log)
	if err != nil {
		t.Fatal(err)
	}
	if first.Written != written || first.Extracted != len(cat.Circulars)-written || first.Obligations == 0 {
		t.Errorf("first refresh: %v", first)
	}
	t.Log(first)
	// Nothing changed: no circular is asked again, found obligations or not.
	ex.asked = nil
	second, err := obligations.Refresh(ctx, db, ex, cat.Circulars, false, log)
	if err != nil {
		t.Fatal(err)
	}
	if second.Unchanged != first.Extracted || second.Extracted != 0 || len(ex.asked) != 0 {
		t.Errorf("second refresh: %v", second)
	}
	// An edited text is extracted again; an accepted circular never.
	var edited, accepted catalog.Circular
	for _, c := range cat.Circulars {
		if len(c.Obligations) > 0 {
			continue
		}
		obs, _ := db.CircularObligations(ctx, c.ID)
		if len(obs) == 0 {
			continue
		}
		switch {
		case edited.ID == "":
			edited = c
		case accepted.ID == "":
			accepted = c
		}
	}
	if _, err := db.AcceptObligations(ctx, accepted.Slug); err != nil {
		t.Fatal(err)
	}
	edited.Content += "\n\nBanks must file a report."
	ex.asked = nil
	third, err := obligations.Refresh(ctx, db, ex, []catalog.Circular{edited, accepted}, false, log)
	if err != nil {
		t.Fatal(err)
	}
	if third.Extracted != 1 || third.Accepted != 1 || len(ex.asked) != 1 || ex.asked[0] != edited.Slug {
		t.Errorf("third refresh: %v, asked %v", third, ex.asked)
	}
	forced, err := obligations.Refresh(ctx, db, ex, []catalog.Circular{edited, accepted}, true, log)
	if err != nil || forced.Extracted != 1 || forced.Accepted != 1 {
		t.Errorf("forced refresh: %v, %v", forced, err)
	}
}
