package main

import (
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/generator"
	"regpulse/internal/catalog"
	"regpulse/internal/readcache"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestStoredInputs(t *testing.T) {
	ctx := t.Context()
	t.Run("NoStore", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		var opts generator.Options
		err := storedInputs(ctx, storeFlags{data: dir}, &opts)
		if err != nil || opts.Summaries != nil || opts.ActiveUsers != 0 {
			t.Errorf("storedInputs without a store = %v, %d, %v; want none", opts.Summaries, opts.ActiveUsers, err)
		}
	})
	t.Run("ErrNotPostgres", func(t *testing.T) {
		if err := storedInputs(ctx, storeFlags{url: "mysql://x"}, &generator.Options{}); err == nil {
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
		opts := generator.Options{Now: func() time.Time { return storetest.Now }}
		err = storedInputs(ctx, sf, &opts)
		if diff := cmp.Diff(map[string]catalog.GeneratedSummary{cat.Circulars[0].ID: sum}, opts.Summaries); err != nil || diff != "" {
			t.Errorf("storedInputs' summaries (-want +got):\n%s%v", diff, err)
		}
	}
}

func TestSyncStore_InvalidatesReads(t *testing.T) {
	ctx := t.Context()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reads := readcache.New(8, time.Minute)
	reads.Add(readcache.Key{Path: "/api/circulars"}, readcache.NewEntry(reads.Version(), http.Header{}, []byte("[]")))
	syncStore(ctx, db, reads, storetest.Catalog(), "", slog.New(slog.DiscardHandler))
	if _, ok := reads.Get(readcache.Key{Path: "/api/circulars"}); ok {
		t.Error("a read cached before the sync is still served after it")
	}
}
