package store

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestListCirculars(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	const (
		bima  = storetest.SlugBimaSugam
		fraud = storetest.SlugUPIFraud
		lite  = storetest.SlugUPILite
		cyber = storetest.SlugCyber
		token = storetest.SlugTokenisation
	)
	for _, tc := range []struct {
		name string
		q    CircularQuery
		want []string
	}{
		{"NewestFirst", CircularQuery{}, []string{bima, fraud, lite, cyber, token}},
		{"Limit", CircularQuery{Limit: 2}, []string{bima, fraud}},
		{"Source", CircularQuery{Source: "RBI"}, []string{fraud, token}},
		{"Category", CircularQuery{Category: "UPI"}, []string{fraud, lite}},
		{"SourceAndCategory", CircularQuery{Source: "RBI", Category: "UPI"}, []string{fraud}},
		{"Impact", CircularQuery{Impact: "high"}, []string{fraud, cyber, token}},
		{"NoMatch", CircularQuery{Source: "PRB"}, []string{}},
		{"SearchTitle", CircularQuery{Search: "tokenisation"}, []string{token}},
		{"SearchCaseInsensitive", CircularQuery{Search: "bIMA sUGAM"}, []string{bima}},
		{"SearchUnicodeCase", CircularQuery{Search: "MARKETPLACE"}, []string{bima}},
		{"SearchContent", CircularQuery{Search: "wallet limits"}, []string{lite}},
		{"SearchNumber", CircularQuery{Search: "rbi/2025-26"}, []string{fraud}},
		{"SearchCategory", CircularQuery{Search: "digital insurance"}, []string{bima}},
		{"SearchSource", CircularQuery{Search: "irdai"}, []string{bima}},
		{"SearchPercentIsLiteral", CircularQuery{Search: "100%"}, []string{fraud}},
		{"SearchPercentAlone", CircularQuery{Search: "%"}, []string{fraud}},
		{"SearchUnderscoreIsLiteral", CircularQuery{Search: "upi_lite"}, []string{fraud}},
		{"SearchUnderscoreAlone", CircularQuery{Search: "_"}, []string{fraud}},
		{"SearchBackslash", CircularQuery{Search: `\`}, []string{}},
		{"SearchNoSpanAcrossFields", CircularQuery{Search: "41upi"}, []string{}},
		{"SortImpact", CircularQuery{Sort: SortImpact}, []string{fraud, cyber, token, lite, bima}},
		{"SortImpactFiltered", CircularQuery{Category: "UPI", Sort: SortImpact}, []string{fraud, lite}},
		// "fraud": fraud has 1 in title (3) + 2 in content (2) = 5; bima and
		// cyber 0 + 1 = 1, newer first.
		{"SortRelevance", CircularQuery{Search: "fraud", Sort: SortRelevance}, []string{fraud, bima, cyber}},
		{"SortDateSearch", CircularQuery{Search: "fraud"}, []string{bima, fraud, cyber}},
		// "upi": fraud 1×3 + 3 = 6 (UPI, UPI, UPI_LITE); lite 1×3 + 1 = 4.
		{"SortRelevanceCounts", CircularQuery{Search: "upi", Sort: SortRelevance}, []string{fraud, lite}},
		{"SortRelevanceWithoutSearchIsDate", CircularQuery{Sort: SortRelevance}, []string{bima, fraud, lite, cyber, token}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.q.Limit == 0 {
				tc.q.Limit = 50
			}
			list, err := db.ListCirculars(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			if got := slugsOf(list); !slices.Equal(got, tc.want) {
				t.Errorf("got %v\nwant %v", got, tc.want)
			}
		})
	}

	t.Run("Fields", func(t *testing.T) {
		list, err := db.ListCirculars(ctx, CircularQuery{Source: "RBI", Category: "UPI", Limit: 1})
		if err != nil || len(list) != 1 {
			t.Fatal(list, err)
		}
		c := list[0]
		want := Circular{ID: idOf(fraud), Slug: fraud, CircularNumber: "RBI/2025-26/41", Title: "UPI fraud risk controls",
			Content: c.Content, Summary: "Fraud controls for UPI.", Source: "RBI", Category: "UPI",
			PublishedDate: storetest.Date("2025-06-20").Time, ImpactLevel: "high", OfficialURL: "https://www.rbi.org.in/fraud",
			EntityImpact: []EntityImpact{{EntityType: "PSP", ImpactLevel: "high"}, {EntityType: "Issuer", ImpactLevel: "medium"}, {EntityType: "Aggregator", ImpactLevel: "low"}}}
		if c.ID != want.ID || c.Slug != want.Slug || c.CircularNumber != want.CircularNumber || c.Title != want.Title ||
			c.Summary != want.Summary || c.Source != want.Source || c.Category != want.Category ||
			!c.PublishedDate.Equal(want.PublishedDate) || c.ImpactLevel != want.ImpactLevel || c.OfficialURL != want.OfficialURL ||
			!slices.Equal(c.EntityImpact, want.EntityImpact) {
			t.Errorf("got  %+v\nwant %+v", c, want)
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		if _, err := db.ListCirculars(ctx, CircularQuery{}); err == nil {
			t.Error("limit 0 accepted")
		}
	})
}

func TestPutCircularSummary(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	summaryOf := func(slug string) string {
		t.Helper()
		list, err := db.ListCirculars(ctx, CircularQuery{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list {
			if c.Slug == slug {
				return c.Summary
			}
		}
		t.Fatalf("no circular %s", slug)
		return ""
	}
	if got := summaryOf(storetest.SlugUPILite); got != "" {
		t.Errorf("summary of a circular without one = %q", got)
	}
	for _, tc := range []struct{ name, slug, summary string }{
		{"New", storetest.SlugUPILite, "First."},
		{"Replace", storetest.SlugUPILite, "Second."},
		{"OverridesCatalog", storetest.SlugUPIFraud, "Stored."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := db.PutCircularSummary(ctx, idOf(tc.slug), tc.summary); err != nil {
				t.Fatal(err)
			}
			if got := summaryOf(tc.slug); got != tc.summary {
				t.Errorf("summary = %q, want %q", got, tc.summary)
			}
		})
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		if err := db.PutCircularSummary(ctx, "no-such-id", "x"); !errors.Is(err, ErrNotFound) {
			t.Errorf("err = %v, want ErrNotFound", err)
		}
	})
}

// TestListCirculars_Plans checks that SQLite answers every combination of
// filters and orders from an index, in order, without sorting the rows
// (so LIMIT stops the scan) and without reading the whole table.
func TestListCirculars_Plans(t *testing.T) {
	db := openSynced(t, &catalog.Catalog{Circulars: storetest.Circulars(2000)})
	for _, source := range []string{"", "RBI"} {
		for _, category := range []string{"", "UPI"} {
			for _, impact := range []string{"", "high"} {
				for _, sort := range []CircularSort{SortDate, SortImpact} {
					for _, search := range []string{"", "merchant"} {
						q := CircularQuery{Source: source, Category: category, Impact: impact, Sort: sort, Search: search, Limit: 50}
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

func explain(t *testing.T, db *DB, q CircularQuery) string {
	t.Helper()
	query, args := circularsSQL(q)
	rows, err := db.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query+" LIMIT ?", append(args, q.Limit)...)
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

func TestEntityImpactColumn(t *testing.T) {
	for _, tc := range []struct {
		in   []catalog.EntityImpact
		want string
	}{
		{nil, ""},
		{[]catalog.EntityImpact{{EntityType: "Aggregator", ImpactLevel: "low"}, {EntityType: "PSP", ImpactLevel: "high"}, {EntityType: "Issuer", ImpactLevel: "medium"}}, "PSP=high,Issuer=medium,Aggregator=low"},
		{[]catalog.EntityImpact{{EntityType: "Zeta", ImpactLevel: "low"}, {EntityType: "Issuer", ImpactLevel: "high"}}, "Issuer=high,Zeta=low"},
	} {
		got := encodeEntityImpact(tc.in)
		if got != tc.want {
			t.Errorf("encodeEntityImpact(%v) = %q, want %q", tc.in, got, tc.want)
		}
		back, err := parseEntityImpact(got)
		if err != nil || len(back) != len(tc.in) {
			t.Errorf("parseEntityImpact(%q) = %v, %v", got, back, err)
		}
	}
	for _, bad := range []string{"PSP", "PSP=", "=high", "PSP=high,"} {
		if _, err := parseEntityImpact(bad); err == nil {
			t.Errorf("parseEntityImpact(%q) succeeded", bad)
		}
	}
}
