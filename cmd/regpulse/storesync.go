package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regpulse/generator"
	"strings"
	"time"

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

// DatabaseURLEnv names the PostgreSQL database every command uses
// instead of the SQLite one in --data (--database-url's default).
const DatabaseURLEnv = "DATABASE_URL"

// storeFlags choose the store: PostgreSQL at --database-url, else SQLite
// in --data (which also keeps the secrets generated when the environment
// gives none).
type storeFlags struct {
	data, url string
}

func (s *storeFlags) register(fs *flag.FlagSet, dataUsage string) {
	fs.StringVar(&s.data, "data", "./data", dataUsage)
	fs.StringVar(&s.url, "database-url", os.Getenv(DatabaseURLEnv),
		"PostgreSQL database to use instead of SQLite in --data, postgres://... (default $"+DatabaseURLEnv+")")
}

// target is what store.Open takes.
func (s *storeFlags) target() (string, error) {
	if s.url == "" {
		return filepath.Join(s.data, "regpulse.db"), nil
	}
	if !strings.HasPrefix(s.url, "postgres://") && !strings.HasPrefix(s.url, "postgresql://") {
		return "", fmt.Errorf("--database-url: want postgres://... (got %.20q)", s.url)
	}
	return s.url, nil
}

func (s *storeFlags) open(ctx context.Context) (*store.DB, error) {
	t, err := s.target()
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, t)
}

// storedInputs sets what a build shows from the store (the AI summaries
// and the dashboard's Active Users figure); nothing when there is no SQLite
// database yet (a build needs no store).
func storedInputs(ctx context.Context, sf storeFlags, opts *generator.Options) error {
	t, err := sf.target()
	if err != nil {
		return err
	}
	if sf.url == "" {
		if _, err := os.Stat(t); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	db, err := store.Open(ctx, t)
	if err != nil {
		return err
	}
	defer db.Close()
	return setStoredInputs(ctx, db, opts)
}

// setStoredInputs reads the store's part of a build's inputs into opts.
func setStoredInputs(ctx context.Context, db *store.DB, opts *generator.Options) error {
	sums, err := db.CircularSummaries(ctx)
	if err != nil {
		return err
	}
	opts.Summaries = sums
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	st, err := db.DashboardStats(ctx, now())
	if err != nil {
		return err
	}
	opts.ActiveUsers = st.ActiveUsers
	return nil
}
