package obligations_test

import (
	"log/slog"
	"testing"
	"time"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/register"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// BenchmarkRefresh extracts the obligations of generated circulars
// (storetest.RealisticCirculars, 300 to 3,000 words; STORE_BENCH_CIRCULARS
// sets how many, 1,000 by default) with the local rules into a SQLite
// store, then reads a page of a user's register and their score.
func BenchmarkRefresh(b *testing.B) {
	n := storetest.BenchCirculars(b, 1000)
	cs := storetest.RealisticCirculars(n, 1)
	ctx := b.Context()
	db, err := store.Open(ctx, b.TempDir()+"/regpulse.db")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SyncCatalog(ctx, &catalog.Catalog{Circulars: cs}); err != nil {
		b.Fatal(err)
	}
	svc := ai.NewService(nil, local.New())
	log := slog.New(slog.DiscardHandler)
	var st obligations.Stats
	for b.Loop() {
		if st, err = obligations.Refresh(ctx, db, svc, cs, true, log); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Obligations), "obligations")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/circular")
	u, err := db.CreateUser(ctx, auth.NewUser{Username: "bench", Email: "b@example.com", PasswordHash: "$argon2id$x", FirstName: "B", LastName: "B"})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	const reads = 20
	var total int
	for range reads {
		q := register.Query{EntityTypes: []string{"PSP"}, Now: time.Now(), Page: catalog.Page{Limit: 50}}
		if _, total, err = db.Register(ctx, u.ID, q); err != nil {
			b.Fatal(err)
		}
		if _, err := db.RegisterTally(ctx, u.ID, []string{"PSP"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/reads/1000, "ms/register+score")
	b.ReportMetric(float64(total), "register")
}
