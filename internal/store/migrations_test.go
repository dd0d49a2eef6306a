package store

import (
	"io/fs"
	"testing"

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
