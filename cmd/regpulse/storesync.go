package main

import (
	"context"
	"log/slog"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
)

// syncStore mirrors the catalog into the API's store (cat, or when nil the
// entries loaded from contentDir). A failure is logged, not fatal: the API
// keeps serving what the store last received.
func syncStore(ctx context.Context, db *store.DB, cat *catalog.Catalog, contentDir string, log *slog.Logger) {
	var (
		stats store.SyncStats
		err   error
	)
	if cat != nil {
		stats, err = db.SyncCatalog(ctx, cat)
	} else {
		stats, err = db.SyncContentDir(ctx, contentDir)
	}
	if err != nil {
		log.Error("catalog sync failed; the API serves the last synced data", "content", contentDir, "err", err)
		return
	}
	log.Info("catalog synced into the store", "changes", stats.String())
}
