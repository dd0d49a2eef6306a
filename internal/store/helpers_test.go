package store

import (
	"context"
	"os"
	"slices"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// opener opens an empty store of one kind for a test, on the fixture's
// clock unless an option says otherwise; it is closed when t ends.
type opener func(t testing.TB, opts ...Option) *DB

// forEachStore runs f once per kind of store, as the subtests sqlite and
// postgres: every store test holds on both.
func forEachStore(t *testing.T, f func(t *testing.T, open opener)) {
	t.Run("sqlite", func(t *testing.T) { f(t, openSQLiteTest) })
	t.Run("postgres", func(t *testing.T) { f(t, openPostgresTest) })
}

// openTest opens an in-memory SQLite store (tests of SQLite alone).
func openTest(t testing.TB) *DB { t.Helper(); return openSQLiteTest(t) }

func openSQLiteTest(t testing.TB, opts ...Option) *DB {
	t.Helper()
	return openAndClose(t, ":memory:", opts)
}

// openPostgresTest opens a fresh PostgreSQL database, copied from one
// migrated once per test process.
func openPostgresTest(t testing.TB, opts ...Option) *DB {
	t.Helper()
	return openAndClose(t, newPostgresTest(t), opts)
}

// newPostgresTest is the URL of a fresh, migrated PostgreSQL database.
func newPostgresTest(t testing.TB) string {
	t.Helper()
	tmpl := pgtest.Template(t, "store_template", func(ctx context.Context, url string) error {
		db, err := Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	})
	return pgtest.From(t, tmpl)
}

func openAndClose(t testing.TB, target string, opts []Option) *DB {
	t.Helper()
	db, err := Open(t.Context(), target, append([]Option{WithNow(storetest.Clock)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// openSynced opens a store of open's kind holding cat.
func openSynced(t testing.TB, open opener, cat *catalog.Catalog) *DB {
	t.Helper()
	db := open(t)
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
