package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/index"
	"regpulse/internal/store/storetest"
)

func TestSearch_Query(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat := storetest.Catalog()
		// The newest circular mentions UPI only in passing: the UPI rule must
		// not lift it above the circulars about UPI.
		bima, _ := circularBySlug(cat, storetest.SlugBimaSugam)
		bima.Content += " Premiums may be paid by UPI."
		for i := range cat.Circulars {
			if cat.Circulars[i].Slug == bima.Slug {
				cat.Circulars[i] = bima
			}
		}
		db := openSynced(t, open, cat)
		tests := []struct {
			name       string
			q          search.Query
			want       []string
			total      int
			correction *search.Correction
		}{
			// A number finds its circular, not those sharing some of its parts.
			{"NumberAsTyped", search.Query{Text: "RBI/2025-26/41"}, []string{storetest.SlugUPIFraud}, 1, nil},
			{"NumberOtherPunctuation", search.Query{Text: "rbi 2025-26 / 41"}, []string{storetest.SlugUPIFraud}, 1, nil},
			// Some terms are enough when too few circulars hold them all.
			{"SomeTermsWhenFewHoldAll", search.Query{Text: "marketplace controls"},
				[]string{storetest.SlugBimaSugam, storetest.SlugUPIFraud, storetest.SlugCyber}, 3, nil},
			{"AmericanSpelling", search.Query{Text: "tokenization"}, []string{storetest.SlugTokenisation}, 1, nil},
			{"Prefix", search.Query{Text: "tokeni"}, []string{storetest.SlugTokenisation}, 1, nil},
			{"Typo", search.Query{Text: "marketplce"}, []string{storetest.SlugBimaSugam}, 1,
				&search.Correction{Original: "marketplce", Corrected: "marketplace"}},
			{"TitleBeforeText", search.Query{Text: "fraud"},
				[]string{storetest.SlugUPIFraud, storetest.SlugBimaSugam, storetest.SlugCyber}, 3, nil},
			{"AllTermsFirst", search.Query{Text: "fraud monitoring"},
				[]string{storetest.SlugCyber, storetest.SlugUPIFraud, storetest.SlugBimaSugam}, 3, nil},
			{"UPIStrongMatchesNewestFirst", search.Query{Text: "upi"},
				[]string{storetest.SlugUPIFraud, storetest.SlugUPILite, storetest.SlugBimaSugam}, 3, nil},
			{"SourceFilter", search.Query{Text: "fraud", Source: "SEBI"}, []string{storetest.SlugCyber}, 1, nil},
			{"CategoryFilter", search.Query{Text: "fraud", Category: "UPI"}, []string{storetest.SlugUPIFraud}, 1, nil},
			{"PageBeyondTheEnd", search.Query{Text: "fraud", Page: 9}, nil, 3, nil},
			{"NothingMatches", search.Query{Text: "xylophone"}, nil, 0, nil},
			{"FeedNewestFirst", search.Query{Text: "fraud", ByDate: true, Limit: 10},
				[]string{storetest.SlugBimaSugam, storetest.SlugUPIFraud, storetest.SlugCyber}, 3, nil},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				r, err := db.Search(t.Context(), tt.q)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, slugsOrNil(r.Circulars)); diff != "" {
					t.Errorf("circulars (-want +got):\n%s", diff)
				}
				if r.Pagination.TotalResults != tt.total {
					t.Errorf("total = %d, want %d", r.Pagination.TotalResults, tt.total)
				}
				if diff := cmp.Diff(tt.correction, r.Correction); diff != "" {
					t.Errorf("correction (-want +got):\n%s", diff)
				}
			})
		}
		t.Run("Facets", func(t *testing.T) {
			r, err := db.Search(t.Context(), search.Query{Text: "fraud", Source: "RBI"})
			if err != nil {
				t.Fatal(err)
			}
			want := search.Facets{
				Source:   map[string]int{"RBI": 1, "SEBI": 1, "IRDAI": 1}, // the source filter does not narrow its own counts
				Category: map[string]int{"UPI": 1},
			}
			if diff := cmp.Diff(want, r.Facets); diff != "" {
				t.Errorf("facets (-want +got):\n%s", diff)
			}
		})
		t.Run("PaginationBeyondTheEnd", func(t *testing.T) {
			r, err := db.Search(t.Context(), search.Query{Text: "fraud", Page: 9})
			if err != nil {
				t.Fatal(err)
			}
			want := search.Pagination{CurrentPage: 9, TotalPages: 1, TotalResults: 3, HasPrev: true}
			if diff := cmp.Diff(want, r.Pagination); diff != "" {
				t.Errorf("pagination (-want +got):\n%s", diff)
			}
			if len(r.Answer.Sources) == 0 {
				t.Error("a later page has no answer sources; want the best matches'")
			}
		})
		t.Run("Errors", func(t *testing.T) {
			for _, tt := range []struct {
				text string
				want error
			}{
				{"", search.ErrEmptyQuery},
				{"   ", search.ErrEmptyQuery},
				{strings.Repeat("a", search.MaxQueryLength+1), search.ErrQueryTooLong},
			} {
				if _, err := db.Search(t.Context(), search.Query{Text: tt.text}); !errors.Is(err, tt.want) {
					t.Errorf("Search(%.20q) = %v, want %v", tt.text, err, tt.want)
				}
			}
		})
		t.Run("QuerySyntaxIsText", func(t *testing.T) {
			for _, text := range []string{`"`, `fraud"`, `NEAR(fraud`, `*`, `{title}: fraud`, `fraud AND`, `OR`, `-- ;`, `^fraud`, `fraud NOT upi`, "\x00", `'`} {
				if _, err := db.Search(t.Context(), search.Query{Text: text}); err != nil {
					t.Errorf("Search(%q) = %v", text, err)
				}
			}
		})
	})
}

func slugsOrNil(cs []catalog.Circular) []string {
	if len(cs) == 0 {
		return nil
	}
	return slugsOf(cs)
}

// TestSearch_IndexInStep: the index follows every sync and stored summary.
func TestSearch_IndexInStep(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		find := func(t *testing.T, text string) []string {
			t.Helper()
			r, err := db.Search(t.Context(), search.Query{Text: text})
			if err != nil {
				t.Fatal(err)
			}
			return slugsOrNil(r.Circulars)
		}
		t.Run("Changed", func(t *testing.T) {
			for i := range cat.Circulars {
				if cat.Circulars[i].Slug == storetest.SlugTokenisation {
					cat.Circulars[i].Title = "Card vaulting"
					cat.Circulars[i].Content = "Vaults replace stored card numbers."
				}
			}
			if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{storetest.SlugTokenisation}, find(t, "vaulting")); diff != "" {
				t.Errorf("new text (-want +got):\n%s", diff)
			}
			if got := find(t, "tokenisation"); got != nil {
				t.Errorf("old text still finds %v", got)
			}
		})
		t.Run("Removed", func(t *testing.T) {
			cat.Circulars = cat.Circulars[1:] // the first is Bima Sugam
			if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatal(err)
			}
			if got := find(t, "marketplace"); got != nil {
				t.Errorf("a removed circular is still found: %v", got)
			}
		})
		t.Run("StoredSummary", func(t *testing.T) {
			if err := db.PutCircularSummary(t.Context(), idOf(storetest.SlugCyber),
				catalog.GeneratedSummary{Summary: "Zebra crossings for regulated entities.", Provider: "local", Model: "lexrank", GeneratedAt: storetest.Now}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{storetest.SlugCyber}, find(t, "zebra")); diff != "" {
				t.Errorf("stored summary (-want +got):\n%s", diff)
			}
		})
	})
}

// TestSearch_Pages: pages ranked tier by tier still cover every match
// once, tiers in order, whatever page a tier boundary falls on.
func TestSearch_Pages(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cs := storetest.Circulars(300)
		for i := range cs {
			if i%7 == 0 {
				cs[i].Title = "fraud " + cs[i].Title // a strong tier of about 43
			}
		}
		db := openSynced(t, open, &catalog.Catalog{Circulars: cs})
		for _, q := range []search.Query{{Text: "fraud"}, {Text: "fraud audit"}, {Text: "fraud", Source: "RBI"}} {
			first, err := db.Search(t.Context(), q)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			lastTier := 0
			for page := 1; page <= first.Pagination.TotalPages; page++ {
				q.Page = page
				r, err := db.Search(t.Context(), q)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range r.Circulars {
					if seen[c.Slug] {
						t.Fatalf("%+v: %s on two pages", q, c.Slug)
					}
					seen[c.Slug] = true
					tier := 2
					if strings.Contains(strings.ToLower(c.Title+" "+string(c.Summary)+" "+string(c.CircularNumber)), "fraud") {
						tier = 1
					}
					if q.Text == "fraud" && tier < lastTier { // the strong tier of a one-word query is easy to tell
						t.Fatalf("%+v page %d: a strong match (%s) after a weaker one", q, page, c.Slug)
					}
					lastTier = tier
				}
			}
			if len(seen) != first.Pagination.TotalResults || len(seen) < 20 {
				t.Errorf("%+v: pages hold %d circulars, total says %d", q, len(seen), first.Pagination.TotalResults)
			}
		}
	})
}

// TestSearch_SameOnBothStores: SQLite and PostgreSQL answer the relevance
// set's queries with the same first ten circulars (one index ranks both).
func TestSearch_SameOnBothStores(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	lite := openSynced(t, openSQLiteTest, cat)
	pg := openSynced(t, openPostgresTest, cat)
	for _, c := range readRelevance(t) {
		var got [2][]string
		for i, db := range []*DB{lite, pg} {
			for page := 1; page <= 2; page++ {
				r, err := db.Search(t.Context(), search.Query{Text: c.query, Page: page})
				if err != nil {
					t.Fatal(err)
				}
				got[i] = append(got[i], slugsOf(r.Circulars)...)
			}
		}
		if diff := cmp.Diff(got[0], got[1]); diff != "" {
			t.Errorf("%q (-sqlite +postgres):\n%s", c.query, diff)
		}
	}
}

// TestSearch_Instances: two stores on one database, as two instances
// are: what one syncs or stores, the other's next search finds; a
// database rebuilt from scratch is read again whole.
func TestSearch_Instances(t *testing.T) {
	t.Parallel()
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			target := kind.target(t)
			writer := openAndClose(t, target, nil)
			reader := openAndClose(t, target, nil)
			cat := storetest.Catalog()
			if _, err := writer.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatal(err)
			}
			find := func(t *testing.T, text string) []string {
				t.Helper()
				r, err := reader.Search(t.Context(), search.Query{Text: text})
				if err != nil {
					t.Fatal(err)
				}
				return slugsOrNil(r.Circulars)
			}
			if got := find(t, "marketplace"); !slices.Equal(got, []string{storetest.SlugBimaSugam}) {
				t.Fatalf("first search: %v", got)
			}
			t.Run("Changed", func(t *testing.T) {
				cat.Circulars[0].Content += " Zeugmatic premiums."
				if _, err := writer.SyncCatalog(t.Context(), cat); err != nil {
					t.Fatal(err)
				}
				if got := find(t, "zeugmatic"); !slices.Equal(got, []string{cat.Circulars[0].Slug}) {
					t.Errorf("changed text: %v", got)
				}
			})
			t.Run("Removed", func(t *testing.T) {
				cat.Circulars = cat.Circulars[1:]
				if _, err := writer.SyncCatalog(t.Context(), cat); err != nil {
					t.Fatal(err)
				}
				if got := find(t, "marketplace"); got != nil {
					t.Errorf("a removed circular is found: %v", got)
				}
			})
			t.Run("StoredSummary", func(t *testing.T) {
				if err := writer.PutCircularSummary(t.Context(), idOf(storetest.SlugCyber),
					catalog.GeneratedSummary{Summary: "Quokka drills.", Provider: "local", Model: "lexrank", GeneratedAt: storetest.Now}); err != nil {
					t.Fatal(err)
				}
				if got := find(t, "quokka"); !slices.Equal(got, []string{storetest.SlugCyber}) {
					t.Errorf("stored summary: %v", got)
				}
			})
			t.Run("Rebuilt", func(t *testing.T) {
				// Another database whose version happens to equal the
				// reader's: the generation tells them apart.
				stamp, err := reader.storedSearchVersion(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				version := stamp.version
				for _, q := range []string{`DELETE FROM circular_terms`, `DELETE FROM search_words`} {
					if _, err := writer.db.ExecContext(t.Context(), q); err != nil {
						t.Fatal(err)
					}
				}
				if _, err := writer.db.ExecContext(t.Context(), `UPDATE search_version SET generation = 'rebuilt', version = ?`, version); err != nil {
					t.Fatal(err)
				}
				if got := find(t, "quokka"); got != nil {
					t.Errorf("the index of the old database is still searched: %v", got)
				}
			})
		})
	}
}

// TestSearch_UnreadableRow: a row of the index that cannot be read is
// reported, naming its circular, and every other circular is found.
func TestSearch_UnreadableRow(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		if _, err := db.db.ExecContext(t.Context(), `UPDATE circular_terms SET terms = ?
WHERE rid = (SELECT c.rowid FROM circulars c WHERE c.slug = ?)`, []byte{1, 200}, storetest.SlugBimaSugam); err != nil {
			t.Fatal(err)
		}
		// Nothing was searched yet: the index is read now, whole.
		if _, err := db.LoadSearchIndex(t.Context()); !errors.Is(err, index.ErrTerms) || !strings.Contains(err.Error(), "circular ") {
			t.Errorf("LoadSearchIndex = %v, want index.ErrTerms naming the circular", err)
		}
		r, err := db.Search(t.Context(), search.Query{Text: "fraud"})
		if err != nil || r.Pagination.TotalResults != 2 {
			t.Errorf("the other circulars: %+v, %v", r.Pagination, err)
		}
	})
}

// TestSearch_Concurrent: searches run while syncs and stored summaries
// change the index (run with -race).
func TestSearch_Concurrent(t *testing.T) {
	t.Parallel()
	db := openAndClose(t, filepath.Join(t.TempDir(), "regpulse.db"), nil)
	cs := storetest.RealisticCirculars(200, 8)
	if _, err := db.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: cs}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errs := make(chan error, 4)
	for range 3 {
		go func() {
			for ctx.Err() == nil {
				if _, err := db.Search(ctx, search.Query{Text: "payment tokenisation"}); err != nil && ctx.Err() == nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for i := range 20 {
		cs[i].Content += " Zeugmatic."
		if _, err := db.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: cs[i%3:]}); err != nil {
			t.Fatal(err)
		}
		if err := db.PutCircularSummary(t.Context(), cs[50].ID, catalog.GeneratedSummary{
			Summary: fmt.Sprint("Summary ", i), Provider: "local", Model: "lexrank", GeneratedAt: storetest.Now}); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	for range 3 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	r, err := db.Search(t.Context(), search.Query{Text: "zeugmatic"})
	if err != nil || r.Pagination.TotalResults != 19 { // cs[1:20]: the last sync left cs[0] out
		t.Errorf("after the syncs: %+v, %v", r.Pagination, err)
	}
}

// sharedTargets are a database of each kind that two stores can open, as
// two instances do.
func sharedTargets() []struct {
	name   string
	target func(t *testing.T) string
} {
	return []struct {
		name   string
		target func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "regpulse.db") }},
		{"postgres", func(t *testing.T) string { return newPostgresTest(t) }},
	}
}
