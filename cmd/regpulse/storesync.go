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
// the extracted obligations, the dashboard's Active Users figure, each
// source's freshness and the publication log's newest entries); nothing
// when there is no SQLite database yet (a build needs no store). The
// build reads the extracted obligations of the pages it renders from the
// store as it goes: the caller calls done once it has built.
func storedInputs(ctx context.Context, sf app.Store, opts *generator.Options) (done func(), err error) {
	t, err := sf.Target()
	if err != nil {
		return nil, err
	}
	if sf.URL == "" {
		if _, err := os.Stat(t); errors.Is(err, fs.ErrNotExist) {
			return func() {}, nil
		}
	}
	db, err := store.Open(ctx, t)
	if err != nil {
		return nil, err
	}
	if err := setStoredInputs(ctx, db, opts); err != nil {
		db.Close()
		return nil, err
	}
	return func() { db.Close() }, nil
}

// setStoredInputs reads the store's part of a build's inputs into opts.
func setStoredInputs(ctx context.Context, db *store.DB, opts *generator.Options) error {
	sums, err := db.CircularSummaries(ctx)
	if err != nil {
		return err
	}
	opts.Summaries = sums
	opts.Obligations = db // read as the build goes (generator.StoredObligations)
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
