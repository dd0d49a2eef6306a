package store

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// relevanceCase is a query and the circulars a professional would accept
// first.
type relevanceCase struct {
	query string
	want  []string
}

// readRelevance reads testdata/relevance.txt: "query | slug, slug".
func readRelevance(t *testing.T) []relevanceCase {
	t.Helper()
	f, err := os.Open("testdata/relevance.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []relevanceCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, slugs, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("relevance.txt:%d: want query | slugs", n)
		}
		c := relevanceCase{query: strings.TrimSpace(q)}
		for s := range strings.SplitSeq(slugs, ",") {
			c.want = append(c.want, strings.TrimSpace(s))
		}
		out = append(out, c)
	}
	return out
}

// TestSearch_Relevance runs the query set over the real content (read at
// run time, so new circulars count) and requires every query's expected
// circular in its first three results and a mean reciprocal rank of 0.98.
func TestSearch_Relevance(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat, err := catalog.Load("../../content")
		if err != nil {
			t.Fatal(err)
		}
		db := openSynced(t, open, cat)
		cases := readRelevance(t)
		if len(cases) < 40 {
			t.Fatalf("%d queries; the set needs at least 40", len(cases))
		}
		var top3, rr float64
		for _, c := range cases {
			for _, slug := range c.want {
				if _, ok := circularBySlug(cat, slug); !ok {
					t.Fatalf("%q: no circular %s in content/", c.query, slug)
				}
			}
			// The first two pages: a rank beyond 10 adds nothing to either figure.
			var got []string
			for page := 1; page <= 2; page++ {
				r, err := db.Search(t.Context(), search.Query{Text: c.query, Page: page})
				if err != nil {
					t.Fatalf("%q: %v", c.query, err)
				}
				got = append(got, slugsOf(r.Circulars)...)
			}
			rank := slices.IndexFunc(got, func(s string) bool { return slices.Contains(c.want, s) }) + 1
			if rank >= 1 && rank <= 3 {
				top3++
			} else {
				t.Logf("miss: %q: rank %d; got %v", c.query, rank, got[:min(len(got), 3)])
			}
			if rank > 0 {
				rr += 1 / float64(rank)
			}
		}
		n := float64(len(cases))
		t.Logf("%d queries: top-3 hit rate %.1f%%, MRR %.3f", len(cases), 100*top3/n, rr/n)
		if top3/n < 1 || rr/n < 0.98 {
			t.Errorf("top-3 hit rate %.1f%% (want 100%%), MRR %.3f (want at least 0.98)", 100*top3/n, rr/n)
		}
	})
}
