package store

import (
	"context"
	"strconv"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// BenchmarkPublicationLog measures what the log adds to a catalog sync
// of n circulars (REGPULSE_BENCH_CIRCULARS, default 10,000) on SQLite:
// Steady is logPublications when the sync changed nothing (no table
// looked at), OneChanged when one circular was revised (the join that
// finds the moved rows), AllRows when
// every row's content_hash moved but no text (a new column: every item
// is hashed and its state rewritten, nothing logged); Page reads a page
// of 50 entries after a seq, filtered by source.
func BenchmarkPublicationLog(b *testing.B) {
	n := storetest.BenchCirculars(b, 10_000)
	ctx := context.Background()
	db, err := Open(ctx, b.TempDir()+"/bench.db", WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cat := &catalog.Catalog{Circulars: storetest.Circulars(n)}
	if _, err := db.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	touched := SyncStats{Circulars: KindStats{Changed: 1}}
	inTx := func(b *testing.B, stats SyncStats, before func(tx *txConn)) {
		for b.Loop() {
			tx, err := db.db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			st := newTxStmts(tx)
			if before != nil {
				b.StopTimer()
				before(tx)
				b.StartTimer()
			}
			if err := logPublications(ctx, tx, st, cat, stats, time.Now(), nil); err != nil {
				b.Fatal(err)
			}
			st.close()
			tx.Rollback()
		}
	}
	b.Run("Steady", func(b *testing.B) { inTx(b, SyncStats{}, nil) })
	b.Run("OneChanged", func(b *testing.B) {
		inTx(b, touched, func(tx *txConn) {
			if _, err := tx.ExecContext(ctx, `UPDATE circulars SET content_hash = 'x' WHERE id = ?`, cat.Circulars[0].ID); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("AllRows", func(b *testing.B) {
		inTx(b, touched, func(tx *txConn) {
			if _, err := tx.ExecContext(ctx, `UPDATE circulars SET content_hash = 'x'`); err != nil {
				b.Fatal(err)
			}
		})
	})
	// a log of n entries: every circular revised once
	for i := range cat.Circulars {
		cat.Circulars[i].Content += " Revised " + strconv.Itoa(i) + "."
	}
	if _, err := db.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	var rows int
	if err := db.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM publication_state`).Scan(&rows); err != nil {
		b.Fatal(err)
	}
	var bytes int64
	if err := db.db.QueryRowContext(ctx, `SELECT SUM(pgsize) FROM dbstat WHERE name IN ('publication_state', 'sqlite_autoindex_publication_state_1', 'publication_log', 'publication_log_at', 'publication_log_source')`).Scan(&bytes); err != nil {
		b.Logf("dbstat: %v", err)
	} else {
		b.Logf("publication_log and publication_state with their indexes: %d bytes, %.0f per circular", bytes, float64(bytes)/float64(n))
	}
	b.Logf("%d circulars: %d publication_state rows", n, rows)
	b.Run("Page", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := db.PublicationLog(ctx, catalog.PublicationQuery{AfterSeq: int64(n / 2), Source: "SEBI", Limit: 50}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FeedPage", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := db.PublicationLog(ctx, catalog.PublicationQuery{Before: int64(n / 2), Event: "revised", Limit: 20}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
