package index

import (
	"context"
	"os"
	"strconv"
	"testing"

	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// benchDocs is how many generated circulars the benchmarks index:
// REGPULSE_BENCH_CIRCULARS (make bench sets 100000), else 20,000.
func benchDocs(b *testing.B) int {
	if v := os.Getenv("REGPULSE_BENCH_CIRCULARS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("REGPULSE_BENCH_CIRCULARS=%q is not a positive number", v)
		}
		return n
	}
	return 20_000
}

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

// BenchmarkFind runs the search classes of api's BenchmarkSearch on the
// index alone: Prepare and Find, without reading circulars, the answer
// or JSON.
func BenchmarkFind(b *testing.B) {
	x, _ := benchIndex(b, benchDocs(b))
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
	} {
		b.Run(class.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				p, err := search.Prepare(context.Background(), search.Query{Text: class.queries[i%len(class.queries)]}, x)
				if err != nil {
					b.Fatal(err)
				}
				x.Find(p)
				i++
			}
		})
	}
}

// BenchmarkApply is one changed circular applied to an index of many:
// what an instance does after another's sync.
func BenchmarkApply(b *testing.B) {
	x, docs := benchIndex(b, benchDocs(b))
	i := 0
	for b.Loop() {
		if err := x.Apply([]Doc{docs[i%len(docs)]}, nil, nil); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkLoad is a whole index built from its documents: an instance's
// cold start, less reading the rows.
func BenchmarkLoad(b *testing.B) {
	_, docs := benchIndex(b, benchDocs(b))
	for b.Loop() {
		if err := New().Apply(docs, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
