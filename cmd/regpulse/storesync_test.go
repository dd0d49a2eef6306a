package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/generator"
	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestStoredInputs(t *testing.T) {
	ctx := t.Context()
	t.Run("NoStore", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		var opts generator.Options
		done, err := storedInputs(ctx, app.Store{Data: dir}, &opts)
		if err == nil {
			done()
		}
		if err != nil || opts.Summaries != nil || opts.ActiveUsers != 0 {
			t.Errorf("storedInputs without a store = %v, %d, %v; want none", opts.Summaries, opts.ActiveUsers, err)
		}
	})
	t.Run("ErrNotPostgres", func(t *testing.T) {
		if _, err := storedInputs(ctx, app.Store{URL: "mysql://x"}, &generator.Options{}); err == nil {
			t.Error("storedInputs with a mysql:// URL succeeded")
		}
	})
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run("Store/"+kind, func(t *testing.T) { testStoredInputs(t, kind) })
	}
}

// testStoredInputs reads summaries back from a store of kind.
func testStoredInputs(t *testing.T, kind string) {
	ctx := t.Context()
	{
		sf := app.Store{Data: t.TempDir()}
		if kind == "postgres" {
			sf.URL = pgtest.URL(t)
		}
		target, err := sf.Target()
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
		opts := generator.Options{Now: func() time.Time { return storetest.Now }}
		done, err := storedInputs(ctx, sf, &opts)
		if err != nil {
			t.Fatal(err)
		}
		defer done()
		if diff := cmp.Diff(map[string]catalog.GeneratedSummary{cat.Circulars[0].ID: sum}, opts.Summaries); err != nil || diff != "" {
			t.Errorf("storedInputs' summaries (-want +got):\n%s%v", diff, err)
		}
		// The sync logged its baseline; no feed was read yet.
		if len(opts.PublicationLog) != 1 || opts.PublicationLog[0].Event != "baseline" {
			t.Errorf("storedInputs' publication log %+v, want the baseline", opts.PublicationLog)
		}
		// the build reads the extracted obligations from the open store
		if stamps, err := opts.Obligations.ExtractedStamps(ctx); err != nil || len(stamps) != 0 {
			t.Errorf("storedInputs' obligations: stamps %v, %v; want none", stamps, err)
		}
		if len(opts.SourceFreshness) != 0 {
			t.Errorf("storedInputs' source freshness %#v, want none", opts.SourceFreshness)
		}
	}
}
