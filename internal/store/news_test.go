package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestListNews(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		const (
			fraud = "rbi-upi-fraud-news"
			cbdc  = "cbdc-pilot-expands"
			euai  = "eu-ai-act-timeline"
		)
		for _, tc := range []struct {
			name string
			q    catalog.NewsQuery
			want []string
		}{
			{"NewestFirst", catalog.NewsQuery{}, []string{fraud, cbdc, euai}},
			{"Limit", catalog.NewsQuery{Page: catalog.Page{Limit: 1}}, []string{fraud}},
			{"Category", catalog.NewsQuery{Category: "CBDC"}, []string{cbdc}},
			{"Region", catalog.NewsQuery{Region: "Global"}, []string{euai}},
			{"RegionAndCategory", catalog.NewsQuery{Region: "India", Category: "Regulations"}, []string{}},
			{"SearchTitle", catalog.NewsQuery{Search: "ai act"}, []string{euai}},
			{"SearchExcerptUnicode", catalog.NewsQuery{Search: "E₹"}, []string{cbdc}},
			{"SearchCategory", catalog.NewsQuery{Search: "payment systems"}, []string{fraud}},
			{"SearchNotContent", catalog.NewsQuery{Search: "body"}, []string{}},
			{"SearchLiteralPercent", catalog.NewsQuery{Search: "%"}, []string{}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if tc.q.Limit == 0 {
					tc.q.Limit = 50
				}
				list, total, err := db.ListNews(ctx, tc.q)
				if err != nil {
					t.Fatal(err)
				}
				got := slugs(list, func(n catalog.NewsItem) string { return n.Slug })
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("slugs (-want +got):\n%s", diff)
				}
				if len(list) < tc.q.Limit && total != len(list) {
					t.Errorf("total %d for a page of %d that is not full", total, len(list))
				}
			})
		}
		t.Run("Total", func(t *testing.T) {
			if _, total, err := db.ListNews(ctx, catalog.NewsQuery{Region: "India", Page: catalog.Page{Limit: 1}}); err != nil || total != 2 {
				t.Errorf("India total = %d, %v; want 2", total, err)
			}
		})
		t.Run("ErrBadLimit", func(t *testing.T) {
			if _, _, err := db.ListNews(ctx, catalog.NewsQuery{Page: catalog.Page{Limit: -1}}); err == nil {
				t.Error("limit -1 accepted")
			}
		})
	})
}
