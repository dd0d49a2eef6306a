package store

import (
	"path/filepath"
	"testing"

	"golang.org/x/sync/errgroup"

	"regpulse/internal/catalog"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestOpen(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	path := filepath.Join(t.TempDir(), "sub", "regpulse.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000"} {
		got, err := db.pragma(ctx, pragma)
		if err != nil || got != want {
			t.Errorf("PRAGMA %s = %q, %v; want %q", pragma, got, err, want)
		}
	}
	v := schemaVersion(t, db)
	if v < 1 {
		t.Fatalf("schema version = %d", v)
	}
	db.Close()

	t.Run("ReopenKeepsVersion", func(t *testing.T) {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if v2 := schemaVersion(t, db); v2 != v {
			t.Errorf("version after reopen = %d, want %d", v2, v)
		}
	})
	t.Run("ErrBadPath", func(t *testing.T) {
		if _, err := Open(ctx, filepath.Join("/proc", "nope", "x.db")); err == nil {
			t.Error("Open on an impossible path succeeded")
		}
	})
}

// schemaVersion is the newest migration applied to db.
func schemaVersion(t *testing.T, db *DB) int64 {
	t.Helper()
	var v int64
	err := db.db.QueryRowContext(t.Context(), `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&v)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOpen_PostgresAtOnce opens four stores on one new PostgreSQL database
// at once, as instances starting together do: the migrations run once,
// under goose's lock, and the catalog syncs wait for each other.
func TestOpen_PostgresAtOnce(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t)
	ctx := t.Context()
	var g errgroup.Group
	for range 4 {
		g.Go(func() error {
			db, err := Open(ctx, url, WithNow(storetest.Clock))
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.SyncCatalog(ctx, storetest.Catalog())
			return err
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	db := openAndClose(t, url, nil)
	if db.Dialect() != "postgres" {
		t.Errorf("Dialect() = %q", db.Dialect())
	}
	var n int
	if err := db.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM goose_db_version WHERE version_id = 1`).Scan(&n); err != nil || n != 1 {
		t.Errorf("migration 1 recorded %d times (%v), want once", n, err)
	}
	list, total, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: catalog.Page{Limit: 100}})
	if err != nil || total != len(storetest.Catalog().Circulars) || len(list) != total {
		t.Errorf("after four syncs: %d of %d circulars, %v", len(list), total, err)
	}
}
