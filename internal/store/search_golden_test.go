package store

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/search.golden")

// TestSearch_Golden runs a few hundred searches (the benchmark's classes
// and words drawn from titles; with a later page, each filter and the
// by-date order) over 1,000 generated circulars and compares every
// answer's page, total, facets, correction and answer with
// testdata/search.golden. The file was written by the search this index
// replaced (SQLite's FTS5 with bm25), so the index ranks exactly as it did;
// a change of ranking on purpose rewrites it with -update.
func TestSearch_Golden(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cs := storetest.RealisticCirculars(1000, 3)
		db := openSynced(t, open, &catalog.Catalog{Circulars: cs})
		var b strings.Builder
		for _, q := range goldenQueries(cs) {
			r, err := db.Search(t.Context(), q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			writeGolden(&b, q, r)
		}
		if *updateGolden {
			if err := os.WriteFile("testdata/search.golden", []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		want, err := os.ReadFile("testdata/search.golden")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), b.String()); diff != "" {
			t.Errorf("search answers differ from testdata/search.golden (-want +got):\n%s", diff)
		}
	})
}

// goldenQueries are the golden test's searches over cs.
func goldenQueries(cs []catalog.Circular) []search.Query {
	texts := []string{"tokenisation", "ombudsman", "escrow", "chargeback", "aadhaar", "card data storage",
		"additional factor of authentication", "net worth requirement", "key fact statement",
		string(cs[0].CircularNumber), string(cs[500].CircularNumber), "tokenisaton", "ombudsmen", "authentcation",
		"reconcilation", "upi", "UPI collect request", "unified payment interface limits",
		"what is the limit for upi lite", "how long do card issuers have to comply", "payment", "bank", "tok",
		"merch", "escrow zebra", "zebra", "wallet kyc limit reload", "payment payments"}
	r := rand.New(rand.NewPCG(5, 5))
	for range 40 {
		ws := strings.Fields(cs[r.IntN(40)].Title)
		start := r.IntN(len(ws))
		texts = append(texts, strings.Join(ws[start:min(len(ws), start+1+r.IntN(3))], " "))
	}
	var out []search.Query
	for _, text := range texts {
		out = append(out, search.Query{Text: text}, search.Query{Text: text, Page: 3},
			search.Query{Text: text, Source: "RBI"}, search.Query{Text: text, Category: "UPI", Source: "NPCI"},
			search.Query{Text: text, ByDate: true, Limit: 7})
	}
	return out
}

// writeGolden writes what the golden file keeps of r, the answer to q.
func writeGolden(b *strings.Builder, q search.Query, r search.Response) {
	facets, _ := json.Marshal(r.Facets)
	fmt.Fprintf(b, "%q page=%d source=%q category=%q byDate=%v\n", q.Text, q.Page, q.Source, q.Category, q.ByDate)
	fmt.Fprintf(b, "  %v total=%d latest=%v %s\n", slugsOf(r.Circulars), r.Pagination.TotalResults, r.Latest, facets)
	if r.Correction != nil {
		fmt.Fprintf(b, "  corrected %q\n", r.Correction.Corrected)
	}
	fmt.Fprintf(b, "  answer %q %v\n", r.Answer.DirectAnswer, r.Answer.Confidence)
	for _, s := range r.Answer.Sources {
		fmt.Fprintf(b, "  source %s %q %v\n", s.Slug, s.RelevantExcerpt, s.Highlights)
	}
}
