package store

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestListCirculars(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		const (
			bima  = storetest.SlugBimaSugam
			fraud = storetest.SlugUPIFraud
			lite  = storetest.SlugUPILite
			cyber = storetest.SlugCyber
			token = storetest.SlugTokenisation
		)
		for _, tc := range []struct {
			name string
			q    catalog.CircularQuery
			want []string
		}{
			{"NewestFirst", catalog.CircularQuery{}, []string{bima, fraud, lite, cyber, token}},
			{"Limit", catalog.CircularQuery{Page: catalog.Page{Limit: 2}}, []string{bima, fraud}},
			{"Source", catalog.CircularQuery{Source: "RBI"}, []string{fraud, token}},
			{"Category", catalog.CircularQuery{Category: "UPI"}, []string{fraud, lite}},
			{"SourceAndCategory", catalog.CircularQuery{Source: "RBI", Category: "UPI"}, []string{fraud}},
			{"Impact", catalog.CircularQuery{Impact: "high"}, []string{fraud, cyber, token}},
			{"DocumentType", catalog.CircularQuery{Type: "master-direction"}, []string{cyber}},
			{"DocumentTypeNone", catalog.CircularQuery{Type: "draft"}, []string{}},
			{"VerificationChecked", catalog.CircularQuery{Verification: "checked"}, []string{fraud}},
			{"VerificationReported", catalog.CircularQuery{Verification: "reported"}, []string{lite}},
			{"VerificationPending", catalog.CircularQuery{Verification: "pending"}, []string{token}},
			{"VerificationAndSource", catalog.CircularQuery{Verification: "pending", Source: "NPCI"}, []string{}},
			{"NoMatch", catalog.CircularQuery{Source: "PRB"}, []string{}},
			{"SearchTitle", catalog.CircularQuery{Search: "tokenisation"}, []string{token}},
			{"SearchCaseInsensitive", catalog.CircularQuery{Search: "bIMA sUGAM"}, []string{bima}},
			{"SearchUnicodeCase", catalog.CircularQuery{Search: "MARKETPLACE"}, []string{bima}},
			{"SearchContent", catalog.CircularQuery{Search: "wallet limits"}, []string{lite}},
			{"SearchNumber", catalog.CircularQuery{Search: "rbi/2025-26"}, []string{fraud}},
			{"SearchCategory", catalog.CircularQuery{Search: "digital insurance"}, []string{bima}},
			{"SearchSource", catalog.CircularQuery{Search: "irdai"}, []string{bima}},
			{"SearchPercentIsLiteral", catalog.CircularQuery{Search: "100%"}, []string{fraud}},
			{"SearchPercentAlone", catalog.CircularQuery{Search: "%"}, []string{fraud}},
			{"SearchUnderscoreIsLiteral", catalog.CircularQuery{Search: "upi_lite"}, []string{fraud}},
			{"SearchUnderscoreAlone", catalog.CircularQuery{Search: "_"}, []string{fraud}},
			{"SearchBackslash", catalog.CircularQuery{Search: `\`}, []string{}},
			{"SearchNoSpanAcrossFields", catalog.CircularQuery{Search: "41upi"}, []string{}},
			{"SortImpact", catalog.CircularQuery{Sort: catalog.SortImpact}, []string{fraud, cyber, token, lite, bima}},
			{"SortImpactFiltered", catalog.CircularQuery{Category: "UPI", Sort: catalog.SortImpact}, []string{fraud, lite}},
			// "fraud": fraud has 1 in title (3) + 2 in content (2) = 5; bima and
			// cyber 0 + 1 = 1, newer first.
			{"SortRelevance", catalog.CircularQuery{Search: "fraud", Sort: catalog.SortRelevance}, []string{fraud, bima, cyber}},
			{"SortDateSearch", catalog.CircularQuery{Search: "fraud"}, []string{bima, fraud, cyber}},
			// "upi": fraud 1×3 + 3 = 6 (UPI, UPI, UPI_LITE); lite 1×3 + 1 = 4.
			{"SortRelevanceCounts", catalog.CircularQuery{Search: "upi", Sort: catalog.SortRelevance}, []string{fraud, lite}},
			{"SortRelevanceWithoutSearchIsDate", catalog.CircularQuery{Sort: catalog.SortRelevance}, []string{bima, fraud, lite, cyber, token}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.q.Limit == 0 {
					tc.q.Limit = 50
				}
				list, total, err := db.ListCirculars(ctx, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, slugsOf(list)); diff != "" {
					t.Errorf("slugs (-want +got):\n%s", diff)
				}
				if tc.q.Limit > len(list) && total != len(list) {
					t.Errorf("total %d for a page of %d that is not full", total, len(list))
				}
			})
		}

		t.Run("Fields", func(t *testing.T) {
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Source: "RBI", Category: "UPI", Page: catalog.Page{Limit: 1}})
			if err != nil || len(list) != 1 {
				t.Fatal(list, err)
			}
			// The catalog's circular comes back whole, every field.
			want, _ := circularBySlug(storetest.Catalog(), fraud)
			want.Path = ""
			if diff := cmp.Diff(want, list[0], cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("circular (-catalog +store):\n%s", diff)
			}
		})
		t.Run("Pages", func(t *testing.T) {
			all := []string{bima, fraud, lite, cyber, token}
			for _, tc := range []struct {
				name      string
				page      catalog.Page
				want      []string
				wantTotal int
			}{
				{"First", catalog.Page{Limit: 2}, all[:2], 5},
				{"Second", catalog.Page{Limit: 2, Offset: 2}, all[2:4], 5},
				{"Last", catalog.Page{Limit: 2, Offset: 4}, all[4:], 5},
				{"Exact", catalog.Page{Limit: 5}, all, 5},
				{"Past", catalog.Page{Limit: 2, Offset: 9}, []string{}, 5},
			} {
				t.Run(tc.name, func(t *testing.T) {
					list, total, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: tc.page})
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tc.want, slugsOf(list)); diff != "" || total != tc.wantTotal {
						t.Errorf("page %+v: total %d (want %d), slugs (-want +got):\n%s", tc.page, total, tc.wantTotal, diff)
					}
				})
			}
			// The total counts what the filters select, on every page, with a
			// search (counted in the page's own query) or without.
			for _, tc := range []struct {
				q    catalog.CircularQuery
				want int
			}{
				{catalog.CircularQuery{Source: "RBI", Page: catalog.Page{Limit: 1}}, 2},
				{catalog.CircularQuery{Search: "fraud", Page: catalog.Page{Limit: 1}}, 3},
				{catalog.CircularQuery{Search: "fraud", Sort: catalog.SortRelevance, Page: catalog.Page{Limit: 1, Offset: 2}}, 3},
				{catalog.CircularQuery{Search: "fraud", Page: catalog.Page{Limit: 1, Offset: 5}}, 3},
				{catalog.CircularQuery{Search: "no such words", Page: catalog.Page{Limit: 1}}, 0},
			} {
				if _, total, err := db.ListCirculars(ctx, tc.q); err != nil || total != tc.want {
					t.Errorf("%+v: total = %d, %v; want %d", tc.q, total, err, tc.want)
				}
			}
		})
		t.Run("ErrBadPage", func(t *testing.T) {
			for _, p := range []catalog.Page{{}, {Limit: 1, Offset: -1}} {
				if _, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: p}); err == nil {
					t.Errorf("page %+v accepted", p)
				}
			}
		})
	})
}

func TestCircularRefs(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		// duplicates asked once, unknown slugs left out
		got, err := db.CircularRefs(t.Context(), []string{storetest.SlugCyber, "no-such-circular", storetest.SlugTokenisation, storetest.SlugCyber})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]catalog.CircularRef{}
		for _, c := range cat.Circulars {
			if c.Slug == storetest.SlugCyber || c.Slug == storetest.SlugTokenisation {
				want[c.Slug] = catalog.CircularRef{Slug: c.Slug, CircularNumber: c.CircularNumber, Title: c.Title}
			}
		}
		if want[storetest.SlugTokenisation].CircularNumber == "" || len(want) != 2 {
			t.Fatalf("the fixture changed: %v", want)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("CircularRefs (-want +got):\n%s", diff)
		}
		none, err := db.CircularRefs(t.Context(), nil)
		if err != nil || len(none) != 0 {
			t.Errorf("CircularRefs(nil) = %v, %v; want none", none, err)
		}
		// by id, the same refs
		var ids []string
		byID := map[string]catalog.CircularRef{}
		for _, c := range cat.Circulars {
			if _, ok := want[c.Slug]; ok {
				ids = append(ids, c.ID)
				byID[c.ID] = want[c.Slug]
			}
		}
		got, err = db.CircularRefsByID(t.Context(), append(ids, "no-such-id", ids[0]))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(byID, got); diff != "" {
			t.Errorf("CircularRefsByID (-want +got):\n%s", diff)
		}
	})
}

func TestPutCircularSummary(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		fromList := func(slug string) catalog.Circular {
			t.Helper()
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: catalog.Page{Limit: 100}})
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range list {
				if c.Slug == slug {
					return c
				}
			}
			t.Fatalf("no circular %s", slug)
			return catalog.Circular{}
		}
		if got := fromList(storetest.SlugUPILite).AISummary; got != nil {
			t.Errorf("AI summary of a circular without one = %+v", got)
		}
		at := storetest.Now
		for _, tc := range []struct {
			name, slug string
			sum        catalog.GeneratedSummary
		}{
			{"New", storetest.SlugUPILite, catalog.GeneratedSummary{Summary: "First.", Provider: "local", Model: "lexrank", GeneratedAt: at}},
			{"Replace", storetest.SlugUPILite, catalog.GeneratedSummary{Summary: "Second.", Provider: "openai", Model: "gpt-4o-mini", GeneratedAt: at.Add(time.Hour)}},
			{"BesideEditorsSummary", storetest.SlugUPIFraud, catalog.GeneratedSummary{Summary: "Stored.", Provider: "local", Model: "lexrank", GeneratedAt: at}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if err := db.PutCircularSummary(ctx, idOf(tc.slug), tc.sum); err != nil {
					t.Fatal(err)
				}
				want, _ := circularBySlug(cat, tc.slug)
				want.Path, want.AISummary = "", &tc.sum
				if diff := cmp.Diff(want, fromList(tc.slug), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("ListCirculars (-want +got):\n%s", diff)
				}
				got, err := db.Circular(ctx, idOf(tc.slug))
				if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); err != nil || diff != "" {
					t.Errorf("Circular (-want +got):\n%s%v", diff, err)
				}
			})
		}
		t.Run("CircularSummaries", func(t *testing.T) {
			got, err := db.CircularSummaries(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]catalog.GeneratedSummary{
				idOf(storetest.SlugUPILite):  {Summary: "Second.", Provider: "openai", Model: "gpt-4o-mini", GeneratedAt: at.Add(time.Hour)},
				idOf(storetest.SlugUPIFraud): {Summary: "Stored.", Provider: "local", Model: "lexrank", GeneratedAt: at},
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("CircularSummaries (-want +got):\n%s", diff)
			}
		})
		t.Run("ErrNotFound", func(t *testing.T) {
			if err := db.PutCircularSummary(ctx, "no-such-id", catalog.GeneratedSummary{Summary: "x"}); !errors.Is(err, ErrNotFound) {
				t.Errorf("PutCircularSummary: err = %v, want ErrNotFound", err)
			}
			if _, err := db.Circular(ctx, "no-such-id"); !errors.Is(err, catalog.ErrNotFound) {
				t.Errorf("Circular: err = %v, want catalog.ErrNotFound", err)
			}
		})
	})
}

// TestListCirculars_Plans checks that SQLite answers every combination of
// filters and orders from an index, in order, without sorting the rows
// (so LIMIT stops the scan) and without reading the whole table.
func TestListCirculars_Plans(t *testing.T) {
	t.Parallel()
	db := openSynced(t, openSQLiteTest, &catalog.Catalog{Circulars: storetest.Circulars(2000)})
	for _, source := range []string{"", "RBI"} {
		for _, category := range []string{"", "UPI"} {
			for _, impact := range []string{"", "high"} {
				for _, sort := range []catalog.CircularSort{catalog.SortDate, catalog.SortImpact} {
					for _, search := range []string{"", "merchant"} {
						q := catalog.CircularQuery{Source: source, Category: category, Impact: impact, Sort: sort, Search: search,
							Page: catalog.Page{Limit: 50}}
						plan := explain(t, db, q)
						if strings.Contains(plan, "TEMP B-TREE") || (strings.Contains(plan, "SCAN c") && !strings.Contains(plan, "USING INDEX")) {
							t.Errorf("%+v:\n%s", q, plan)
						}
					}
				}
			}
		}
	}
}

func explain(t *testing.T, db *DB, q catalog.CircularQuery) string {
	t.Helper()
	query, args := circularsQuery(q).selectSQL()
	rows, err := db.db.QueryContext(t.Context(), "EXPLAIN QUERY PLAN "+query+" LIMIT ?", append(args, q.Limit)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	return b.String()
}
