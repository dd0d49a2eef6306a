package store

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
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
	v, err := db.SchemaVersion(ctx)
	if err != nil || v < 1 {
		t.Fatalf("SchemaVersion = %d, %v", v, err)
	}
	db.Close()

	t.Run("ReopenKeepsVersion", func(t *testing.T) {
		db, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if v2, _ := db.SchemaVersion(ctx); v2 != v {
			t.Errorf("version after reopen = %d, want %d", v2, v)
		}
	})
	t.Run("ErrBadPath", func(t *testing.T) {
		if _, err := Open(ctx, filepath.Join("/proc", "nope", "x.db")); err == nil {
			t.Error("Open on an impossible path succeeded")
		}
	})
}
