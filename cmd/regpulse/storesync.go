package main

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"os"
	"regpulse/generator"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/store"
)

// storedInputs sets what a build shows from the store (the AI summaries,
// the dashboard's Active Users figure, each source's freshness and the
// publication log's newest entries); nothing when there is no SQLite
// database yet (a build needs no store).
func storedInputs(ctx context.Context, sf app.Store, opts *generator.Options) error {
	t, err := sf.Target()
	if err != nil {
		return err
	}
	if sf.URL == "" {
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
	if opts.Obligations, err = db.AllObligations(ctx); err != nil {
		return err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	st, err := db.DashboardStats(ctx, now())
	if err != nil {
		return err
	}
	opts.ActiveUsers = st.ActiveUsers
	if opts.SourceFreshness, err = db.IngestFreshness(ctx); err != nil {
		return err
	}
	// /publication-log's newest entries (the rest through the API)
	opts.PublicationLog, _, err = db.PublicationLog(ctx, catalog.PublicationQuery{Before: math.MaxInt64, Limit: publicationLogShown})
	return err
}

// publicationLogShown is how many of the log's newest entries a build's
// /publication-log lists.
const publicationLogShown = 50
