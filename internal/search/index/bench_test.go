package index

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// benchIndex indexes n generated circulars shaped like real ones.
func benchIndex(b *testing.B, n int) (*Index, []Doc) {
	b.Helper()
	cs := storetest.RealisticCirculars(n, 1)
	docs := make([]Doc, len(cs))
	var words []search.Word
	for i, c := range cs {
		d := search.Index(c, string(c.Summary))
		terms, err := Count(d).AppendBinary(nil)
		if err != nil {
			b.Fatal(err)
		}
		docs[i] = Doc{Key: int64(i + 1), Source: c.Source, Category: c.Category, Date: c.PublishedDate.Format("2006-01-02"), Slug: c.Slug, Terms: terms}
		words = append(words, d.Words...)
	}
	x := New()
	if err := x.Apply(docs, nil, words); err != nil {
		b.Fatal(err)
	}
	return x, docs
}

// BenchmarkIndex_Find runs the search classes of api's BenchmarkSearch on the
// index alone: Prepare and Find, without reading circulars, the answer
// or JSON.
func BenchmarkIndex_Find(b *testing.B) {
	x, _ := benchIndex(b, storetest.BenchCirculars(b, 20_000))
	for _, class := range []struct {
		name    string
		queries []string
	}{
		{"Common", []string{"payment", "bank account"}},
		{"Rare", []string{"escrow", "chargeback", "tokenisation"}},
		{"Phrase", []string{"card data storage", "additional factor of authentication", "net worth requirement"}},
		{"Misspelling", []string{"tokenisaton", "ombudsmen", "authentcation"}},
		{"UPI", []string{"upi", "UPI collect request"}},
		{"Question", []string{"can payment aggregators keep merchant funds in an escrow account",
			"how long do card issuers have to comply with tokenisation"}},
		{"Hindi", hindiQueries},
	} {
		b.Run(class.name, func(b *testing.B) {
			i := 0
			var took []time.Duration
			cpu0 := processCPU(b)
			for b.Loop() {
				start := time.Now()
				p, err := search.Prepare(context.Background(), search.Query{Text: class.queries[i%len(class.queries)]}, x)
				if err != nil {
					b.Fatal(err)
				}
				x.Find(p)
				took = append(took, time.Since(start))
				i++
			}
			b.ReportMetric(float64((processCPU(b)-cpu0).Nanoseconds())/float64(max(len(took), 1)), "cpu-ns/op")
			reportP95(b, took)
		})
	}
}

// reportP95 reports the 95th percentile of a benchmark's timed
// operations (p95-ns), beside the mean Go reports.
func reportP95(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)*95/100].Nanoseconds()), "p95-ns")
}

// processCPU is the CPU time the process has used (user and system):
// per operation, the figure a busy machine moves least.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// englishQueries and hindiQueries are the plan step's benchmark classes:
// English queries, which Translate must leave as fast as they were, and
// Devanagari, Hinglish and mixed ones (issue 48).
var (
	englishQueries = []string{"payment", "bank account", "tokenisaton", "card data storage", "UPI collect request",
		"can payment aggregators keep merchant funds in an escrow account"}
	hindiQueries = []string{"केवाईसी नियम", "UPI लाइट सीमा", "bhugtan aggregator", "UPI लाइट की सीमा कितनी है?",
		"कार्ड डेटा का भंडारण", "shikayat nivaran lokpal"}
)

// BenchmarkIndex_Prepare is the plan step alone (search.Prepare over the
// index's vocabulary), for English and for Hindi queries: what the
// terms list costs a query.
func BenchmarkIndex_Prepare(b *testing.B) {
	x, _ := benchIndex(b, storetest.BenchCirculars(b, 20_000))
	for _, class := range []struct {
		name    string
		queries []string
	}{{"English", englishQueries}, {"Hindi", hindiQueries}} {
		b.Run(class.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := search.Prepare(context.Background(), search.Query{Text: class.queries[i%len(class.queries)]}, x); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkIndex_Apply is one changed circular applied to an index of many:
// what an instance does after another's sync.
func BenchmarkIndex_Apply(b *testing.B) {
	x, docs := benchIndex(b, storetest.BenchCirculars(b, 20_000))
	i := 0
	for b.Loop() {
		if err := x.Apply([]Doc{docs[i%len(docs)]}, nil, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkIndex_Load is a whole index built from its documents: an instance's
// cold start, less reading the rows.
func BenchmarkIndex_Load(b *testing.B) {
	_, docs := benchIndex(b, storetest.BenchCirculars(b, 20_000))
	for b.Loop() {
		if err := New().Apply(docs, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshot_Open is a function's cold start from a snapshot, less
// the rows changed since: the snapshot's file opened (mapped, checked)
// and its first search. file-MB is the snapshot's size, heap-MB what
// opening it allocates.
func BenchmarkSnapshot_Open(b *testing.B) {
	x, _ := benchIndex(b, storetest.BenchCirculars(b, 20_000))
	path := filepath.Join(b.TempDir(), "search-index.snapshot")
	if err := x.WriteSnapshotFile(path, Stamp{Generation: "g", Version: 1}); err != nil {
		b.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	var heap uint64
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		y, _, err := OpenSnapshotFile(path)
		if err != nil {
			b.Fatal(err)
		}
		p, err := search.Prepare(context.Background(), search.Query{Text: "card tokenisation"}, y)
		if err != nil {
			b.Fatal(err)
		}
		y.Find(p)
		runtime.ReadMemStats(&after)
		heap = after.TotalAlloc - before.TotalAlloc
	}
	b.ReportMetric(float64(info.Size())/(1<<20), "file-MB")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
}
