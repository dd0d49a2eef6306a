package store

import (
	"context"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// openTest opens an in-memory store on the fixture's clock.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), ":memory:", WithClock(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openSynced opens a store holding cat.
func openSynced(t testing.TB, cat *catalog.Catalog) *DB {
	t.Helper()
	db := openTest(t)
	if _, err := db.SyncCatalog(context.Background(), cat); err != nil {
		t.Fatal(err)
	}
	return db
}

func slugsOf(list []Circular) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.Slug
	}
	return out
}

func idOf(slug string) string { return catalog.IDForPath("circulars/" + slug + ".md") }
