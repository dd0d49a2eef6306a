package api

import (
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/search"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

// BenchmarkSearch serves GET /api/search from each kind of store (a
// SQLite file, as in production, and a PostgreSQL database of the
// throwaway test cluster) of $REGPULSE_BENCH_CIRCULARS (else 3,000)
// generated circulars shaped like real ones (300 to 3,000 words;
// storetest.RealisticCirculars) and $REGPULSE_BENCH_DIRECTIONS (else 250)
// generated Master Directions (directionstest: 20 versions and 300
// provisions each, about 75,000 provisions in force), and reports:
//   - sync-s: the catalog synced into an empty store, the index's rows
//     with it;
//   - load-s and index-MB: the index read into memory by a store opened
//     afresh (an instance's cold start), and what it takes there;
//     provisions-s: the provisions in force read and keyed after it;
//     heap-MB: the Go heap in use with it loaded, after a collection;
//   - resync-s: the sync of the catalog with one circular's text changed;
//     update-ms: from the end of that sync to the answer of the first
//     search of its new word, on the store opened afresh;
//   - for each class of query, the median and 95th percentile latency
//     (p50-ms, p95-ms) of the whole call, JSON included.
func BenchmarkSearch(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchSearch(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("postgres", func(b *testing.B) { benchSearch(b, pgtest.URL(b)) })
}

func benchSearch(b *testing.B, target string) {
	n := storetest.BenchCirculars(b, 3000)
	ctx := b.Context()
	writer, err := store.Open(ctx, target, store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer writer.Close()
	cat := searchBenchCatalog(b, n)
	classes := searchClasses(cat)
	start := time.Now()
	if _, err := writer.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	sync := time.Since(start)
	rows, err := writer.SearchIndexSize(ctx)
	if err != nil {
		b.Fatal(err)
	}

	// A store opened afresh reads the index as an instance starting does.
	db, err := store.Open(ctx, target, store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	start = time.Now()
	stats, err := db.LoadSearchIndex(ctx)
	if err != nil {
		b.Fatal(err)
	}
	load := time.Since(start)
	start = time.Now()
	inForce, err := db.LoadProvisionIndex(ctx)
	if err != nil {
		b.Fatal(err)
	}
	provisions := time.Since(start)

	// One circular changed, synced by the writer, found by the reader.
	changed := &cat.Circulars[n/3]
	changed.Content += " Zeugmatic obligations apply."
	start = time.Now()
	if _, err := writer.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	resync := time.Since(start)
	start = time.Now()
	r, err := db.Search(ctx, search.Query{Text: "zeugmatic"})
	if err != nil || len(r.Circulars) != 1 || r.Circulars[0].Slug != changed.Slug {
		b.Fatalf("the changed circular is not found: %v %+v", err, r.Pagination)
	}
	update := time.Since(start)
	directions := len(cat.Directions)
	cat = nil
	runtime.GC()
	debug.FreeOSMemory()
	var mem runtime.MemStats
	runtime.ReadMemStats(&mem)
	b.Logf("%s, %d circulars, %d directions: sync %s (index rows %.1f MB); index loaded in %s (%d keys, %d postings, %.1f MB; heap %.1f MB), %d provisions in force in %s; one change synced in %s, found %s later",
		db.Dialect(), n, directions, sync.Round(time.Millisecond), float64(rows)/1e6, load.Round(time.Millisecond),
		stats.Keys, stats.Postings, float64(stats.Bytes)/1e6, float64(mem.HeapInuse)/1e6, inForce, provisions.Round(time.Millisecond),
		resync.Round(time.Millisecond), update.Round(time.Microsecond))

	f := &fixture{api: New(db, discardLog)}
	for _, class := range classes {
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
			b.ReportMetric(sync.Seconds(), "sync-s")
			b.ReportMetric(load.Seconds(), "load-s")
			b.ReportMetric(provisions.Seconds(), "provisions-s")
			b.ReportMetric(float64(stats.Bytes)/1e6, "index-MB")
			b.ReportMetric(float64(mem.HeapInuse)/1e6, "heap-MB")
			b.ReportMetric(resync.Seconds(), "resync-s")
			b.ReportMetric(float64(update)/float64(time.Millisecond), "update-ms")
		})
	}
}

// searchBenchCatalog is the catalog the search benchmarks search: n
// generated circulars shaped like real ones (storetest.RealisticCirculars)
// and $REGPULSE_BENCH_DIRECTIONS (else 250) generated Master Directions
// (directionstest: 20 versions and 300 provisions each).
func searchBenchCatalog(b *testing.B, n int) *catalog.Catalog {
	b.Helper()
	cat := &catalog.Catalog{Circulars: storetest.RealisticCirculars(n, 1)}
	for _, g := range directionstest.Directions(benchDirectionCount(b), 20, 300, 1) {
		d := g.Direction
		var problems []catalog.EffectProblem
		if d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions); len(problems) > 0 {
			b.Fatal(problems)
		}
		cat.Directions = append(cat.Directions, d)
	}
	return cat
}

// searchClass is a class of queries the search benchmarks ask.
type searchClass struct {
	name    string
	queries []string
}

// searchClasses are the classes of queries the search benchmarks ask of
// cat (searchBenchCatalog), the numbers being three of its circulars'.
func searchClasses(cat *catalog.Catalog) []searchClass {
	n := len(cat.Circulars)
	numbers := []string{string(cat.Circulars[0].CircularNumber), string(cat.Circulars[n/2].CircularNumber), string(cat.Circulars[n-1].CircularNumber)}
	return []searchClass{
		{"SingleTerm", []string{"tokenisation", "ombudsman", "escrow", "chargeback", "aadhaar", "payment"}},
		{"Phrase", []string{"card data storage", "additional factor of authentication", "net worth requirement", "key fact statement"}},
		{"Number", numbers},
		{"Misspelling", []string{"tokenisaton", "ombudsmen", "authentcation", "reconcilation"}},
		{"UPI", []string{"upi", "UPI collect request", "unified payment interface limits"}},
		{"Question", []string{"what is the limit for upi lite wallets", "how long do card issuers have to comply with tokenisation",
			"can payment aggregators keep merchant funds in an escrow account", "within how many days must a failed transaction be reversed"}},
		// Devanagari, mixed and Hinglish (issue 48), read through the terms list.
		{"Hindi", []string{"केवाईसी नियम", "UPI लाइट की सीमा कितनी है?", "bhugtan aggregator", "कार्ड डेटा का भंडारण"}},
	}
}

// percentile is the p-th percentile of sorted durations, in milliseconds.
func percentile(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return float64(sorted[min(len(sorted)-1, len(sorted)*p/100)]) / float64(time.Millisecond)
}
