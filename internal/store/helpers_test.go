package store

import (
	"slices"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// openTest opens an in-memory store on the fixture's clock.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(t.Context(), ":memory:", WithNow(storetest.Clock))
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
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	return db
}

func slugsOf(list []catalog.Circular) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.Slug
	}
	return out
}

func idOf(slug string) string { return catalog.IDForPath("circulars/" + slug + ".md") }

// circularBySlug finds a circular of cat.
func circularBySlug(cat *catalog.Catalog, slug string) (catalog.Circular, bool) {
	i := slices.IndexFunc(cat.Circulars, func(c catalog.Circular) bool { return c.Slug == slug })
	if i < 0 {
		return catalog.Circular{}, false
	}
	return cat.Circulars[i], true
}
