package api

import (
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

// benchCirculars is how many generated circulars BenchmarkSearch indexes:
// REGPULSE_BENCH_CIRCULARS (make bench sets 100000), else a few thousand
// so that a casual -bench run stays quick.
func benchCirculars(b *testing.B) int {
	if v := os.Getenv("REGPULSE_BENCH_CIRCULARS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("REGPULSE_BENCH_CIRCULARS=%q is not a positive number", v)
		}
		return n
	}
	return 3000
}

// BenchmarkSearch serves GET /api/search from each kind of store (a
// SQLite file, as in production, and a PostgreSQL database of the
// throwaway test cluster) of generated circulars shaped like real ones
// (300 to 3,000 words; storetest.RealisticCirculars), and reports for each
// class of query the median and 95th percentile latency (p50-ms, p95-ms),
// plus the time to build the index (sync included) and its size.
func BenchmarkSearch(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchSearch(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("postgres", func(b *testing.B) { benchSearch(b, pgtest.URL(b)) })
}

func benchSearch(b *testing.B, target string) {
	n := benchCirculars(b)
	db, err := store.Open(b.Context(), target, store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cs := storetest.RealisticCirculars(n, 1)
	numbers := []string{string(cs[0].CircularNumber), string(cs[n/2].CircularNumber), string(cs[n-1].CircularNumber)}
	start := time.Now()
	if _, err := db.SyncCatalog(b.Context(), &catalog.Catalog{Circulars: cs}); err != nil {
		b.Fatal(err)
	}
	build := time.Since(start)
	cs = nil
	size, err := db.SearchIndexSize(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s, %d circulars: index built (with the sync) in %s; index size %.1f MB", db.Dialect(), n, build.Round(time.Millisecond), float64(size)/1e6)
	f := &fixture{api: New(db, discardLog)}
	for _, class := range []struct {
		name    string
		queries []string
	}{
		{"SingleTerm", []string{"tokenisation", "ombudsman", "escrow", "chargeback", "aadhaar"}},
		{"Phrase", []string{"card data storage", "additional factor of authentication", "net worth requirement", "key fact statement"}},
		{"Number", numbers},
		{"Misspelling", []string{"tokenisaton", "ombudsmen", "authentcation", "reconcilation"}},
		{"UPI", []string{"upi", "UPI collect request", "unified payment interface limits"}},
	} {
		b.Run(class.name, func(b *testing.B) {
			targets := make([]string, len(class.queries))
			for i, q := range class.queries {
				targets[i] = "/search?q=" + url.QueryEscape(q)
				if res := f.get(b, targets[i]); res.status != 200 {
					b.Fatalf("GET %s = %d %s", targets[i], res.status, res.body)
				}
			}
			var took []time.Duration
			i := 0
			for b.Loop() {
				target := targets[i%len(targets)]
				i++
				t0 := time.Now()
				rec := httptest.NewRecorder()
				f.api.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
				took = append(took, time.Since(t0))
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
			}
			slices.Sort(took)
			b.ReportMetric(percentile(took, 50), "p50-ms")
			b.ReportMetric(percentile(took, 95), "p95-ms")
			b.ReportMetric(build.Seconds(), "build-s")
			b.ReportMetric(float64(size)/1e6, "index-MB")
		})
	}
}

// percentile is the p-th percentile of sorted durations, in milliseconds.
func percentile(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[min(len(sorted)-1, len(sorted)*p/100)]) / float64(time.Millisecond)
}
