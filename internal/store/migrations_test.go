package store

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"regpulse/internal/store/storetest"
)

// TestMigrations_DownUp rolls every migration back and applies it again on
// a store holding data, so each Down undoes its Up.
func TestMigrations_DownUp(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		sub, err := fs.Sub(migrations, db.db.d.migrations)
		if err != nil {
			t.Fatal(err)
		}
		p, err := goose.NewProvider(db.db.d.goose, db.db.db, sub)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.DownTo(ctx, 0); err != nil {
			t.Fatalf("down to 0: %v", err)
		}
		if _, err := p.Up(ctx); err != nil {
			t.Fatalf("up again: %v", err)
		}
		if _, err := db.SyncCatalog(ctx, storetest.Catalog()); err != nil {
			t.Fatalf("sync after down and up: %v", err)
		}
		recs, err := db.ImpactTracking(ctx)
		if err != nil || len(recs) != 3 || recs[0].ComplianceScore != 93 {
			t.Errorf("impact tracking after down and up: %+v, %v", recs, err)
		}
	})
}

// TestMigrations_SameVersions holds both dialects to one schema history:
// every version in one folder is in the other, so a field added to one
// store is not forgotten in the other.
func TestMigrations_SameVersions(t *testing.T) {
	versions := func(dir string) []int64 {
		t.Helper()
		entries, err := fs.ReadDir(migrations, dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			v, err := goose.NumericComponent(e.Name())
			if err != nil {
				t.Fatalf("%s/%s: %v", dir, e.Name(), err)
			}
			out = append(out, v)
		}
		return out
	}
	sqlite, postgres := versions(sqliteDialect.migrations), versions(postgresDialect.migrations)
	if len(sqlite) == 0 {
		t.Fatal("no SQLite migrations")
	}
	if diff := cmp.Diff(sqlite, postgres); diff != "" {
		t.Errorf("migration versions (-sqlite +postgres):\n%s", diff)
	}
}

// TestMigrations_PostgresPlaceholders opens a PostgreSQL database made
// before the folder had 00002 to 00011 (its history: 00001, 00017 and
// on): they are applied, out of order, as the no-ops they are.
func TestMigrations_PostgresPlaceholders(t *testing.T) {
	ctx := t.Context()
	url := newPostgresTest(t)
	db := openAndClose(t, url, nil)
	if _, err := db.db.db.ExecContext(ctx, "DELETE FROM goose_db_version WHERE version_id BETWEEN 2 AND 16"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openAndClose(t, url, nil)
	var n int
	if err := db.db.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM goose_db_version WHERE version_id BETWEEN 2 AND 16").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 9 {
		t.Errorf("versions 2 to 16 applied: %d, want 9 (00002 to 00009 and 00011)", n)
	}
	if _, err := db.SyncCatalog(ctx, storetest.Catalog()); err != nil {
		t.Errorf("sync after the placeholders: %v", err)
	}
}
