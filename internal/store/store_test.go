package store

import (
	"path/filepath"
	"testing"
)

func TestOpen(t *testing.T) {
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
