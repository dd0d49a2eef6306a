package main

import (
	"log/slog"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/readcache"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

func TestStoredSummaries(t *testing.T) {
	ctx := t.Context()
	t.Run("NoStore", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		got, err := storedSummaries(ctx, dir)
		if err != nil || got != nil {
			t.Errorf("storedSummaries without a store = %v, %v; want none", got, err)
		}
	})
	t.Run("Store", func(t *testing.T) {
		dir := t.TempDir()
		db, err := store.Open(ctx, filepath.Join(dir, "regpulse.db"))
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
		got, err := storedSummaries(ctx, dir)
		if diff := cmp.Diff(map[string]catalog.GeneratedSummary{cat.Circulars[0].ID: sum}, got); err != nil || diff != "" {
			t.Errorf("storedSummaries (-want +got):\n%s%v", diff, err)
		}
	})
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
