package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestStoredSummaries(t *testing.T) {
	ctx := t.Context()
	t.Run("NoStore", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		got, err := storedSummaries(ctx, storeFlags{data: dir})
		if err != nil || got != nil {
			t.Errorf("storedSummaries without a store = %v, %v; want none", got, err)
		}
	})
	t.Run("ErrNotPostgres", func(t *testing.T) {
		if _, err := storedSummaries(ctx, storeFlags{url: "mysql://x"}); err == nil {
			t.Error("storedSummaries with a mysql:// URL succeeded")
		}
	})
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run("Store/"+kind, func(t *testing.T) { testStoredSummaries(t, kind) })
	}
}

// testStoredSummaries reads summaries back from a store of kind.
func testStoredSummaries(t *testing.T, kind string) {
	ctx := t.Context()
	{
		sf := storeFlags{data: t.TempDir()}
		if kind == "postgres" {
			sf.url = pgtest.URL(t)
		}
		target, err := sf.target()
		if err != nil {
			t.Fatal(err)
		}
		db, err := store.Open(ctx, target)
		if err != nil {
			t.Fatal(err)
		}
		cat := storetest.Catalog()
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		sum := catalog.GeneratedSummary{Summary: "S.", Provider: "local", Model: "lexrank", GeneratedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		if err := db.PutCircularSummary(ctx, cat.Circulars[0].ID, sum); err != nil {
			t.Fatal(err)
		}
		db.Close()
		got, err := storedSummaries(ctx, sf)
		if diff := cmp.Diff(map[string]catalog.GeneratedSummary{cat.Circulars[0].ID: sum}, got); err != nil || diff != "" {
			t.Errorf("storedSummaries (-want +got):\n%s%v", diff, err)
		}
	}
}
