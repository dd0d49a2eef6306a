package store

import (
	"context"
	"slices"
	"testing"

	"regpulse/internal/store/storetest"
)

func TestListNews(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	const (
		fraud = "rbi-upi-fraud-news"
		cbdc  = "cbdc-pilot-expands"
		euai  = "eu-ai-act-timeline"
	)
	for _, tc := range []struct {
		name string
		q    NewsQuery
		want []string
	}{
		{"NewestFirst", NewsQuery{}, []string{fraud, cbdc, euai}},
		{"Limit", NewsQuery{Limit: 1}, []string{fraud}},
		{"Category", NewsQuery{Category: "CBDC"}, []string{cbdc}},
		{"Region", NewsQuery{Region: "Global"}, []string{euai}},
		{"RegionAndCategory", NewsQuery{Region: "India", Category: "Regulations"}, []string{}},
		{"SearchTitle", NewsQuery{Search: "ai act"}, []string{euai}},
		{"SearchExcerptUnicode", NewsQuery{Search: "E₹"}, []string{cbdc}},
		{"SearchCategory", NewsQuery{Search: "payment systems"}, []string{fraud}},
		{"SearchNotContent", NewsQuery{Search: "body"}, []string{}},
		{"SearchLiteralPercent", NewsQuery{Search: "%"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.q.Limit == 0 {
				tc.q.Limit = 50
			}
			list, err := db.ListNews(ctx, tc.q)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(list))
			for i, n := range list {
				got[i] = n.Slug
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("Fields", func(t *testing.T) {
		list, err := db.ListNews(ctx, NewsQuery{Limit: 1})
		if err != nil || len(list) != 1 {
			t.Fatal(list, err)
		}
		n := list[0]
		if n.Title != "RBI tightens UPI fraud rules" || n.Excerpt != "New controls for UPI apps." || n.Source != "RBI" ||
			n.Region != "India" || n.Content != "Body." || n.SourceURL != "https://example.org/n1" ||
			n.PublishedDate.Format("2006-01-02") != "2025-06-21" {
			t.Errorf("got %+v", n)
		}
	})
	t.Run("ErrBadLimit", func(t *testing.T) {
		if _, err := db.ListNews(ctx, NewsQuery{Limit: -1}); err == nil {
			t.Error("limit -1 accepted")
		}
	})
}
