package store

import (
	"os"
	"path/filepath"
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

// readCases reads a query set of testdata: one case a line, its fields
// separated by "|" (the last a comma-separated list of slugs), blank
// lines and "#" comments skipped; a line of another shape fails the test
// naming it.
func readCases(t *testing.T, name string, fields ...string) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != len(fields) {
			t.Fatalf("%s:%d: want %s", name, n+1, strings.Join(fields, " | "))
		}
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		out = append(out, parts)
	}
	return out
}

// slugList is a case's "slug, slug".
func slugList(s string) []string {
	var out []string
	for slug := range strings.SplitSeq(s, ",") {
		out = append(out, strings.TrimSpace(slug))
	}
	return out
}

// readRelevance reads testdata/relevance.txt: "query | slug, slug".
func readRelevance(t *testing.T) []relevanceCase {
	t.Helper()
	var out []relevanceCase
	for _, c := range readCases(t, "relevance.txt", "query", "slugs") {
		out = append(out, relevanceCase{query: c[0], want: slugList(c[1])})
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
