package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"

	"regpulse/internal/catalog"
	"regpulse/internal/readcache"
	"regpulse/internal/store"
)

// syncStore mirrors the catalog into the API's store (cat, or when nil the
// entries loaded from contentDir). A failure is logged, not fatal: the API
// keeps serving what the store last received. Either way the API's read
// cache (reads, may be nil) starts a new data version.
func syncStore(ctx context.Context, db *store.DB, reads *readcache.Cache, cat *catalog.Catalog, contentDir string, log *slog.Logger) {
	defer reads.Invalidate()
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

// storedSummaries reads the AI summaries stored in dataDir's database, for
// a build to show; none when there is no database (a build needs no store).
func storedSummaries(ctx context.Context, dataDir string) (map[string]catalog.GeneratedSummary, error) {
	path := filepath.Join(dataDir, "regpulse.db")
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return db.CircularSummaries(ctx)
}
