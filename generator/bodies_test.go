package generator

import (
	"slices"
	"testing"
	"time"

	"regpulse/internal/catalog"
)

func TestNewBodyView(t *testing.T) {
	date := func(s string) catalog.Date {
		var d catalog.Date
		if err := d.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		return d
	}
	cat := &catalog.Catalog{
		Circulars: []catalog.Circular{
			{Entry: catalog.Entry{Slug: "rbi-new"}, Source: "RBI", PublishedDate: date("2025-02-01")},
			{Entry: catalog.Entry{Slug: "npci-x"}, Source: "NPCI", PublishedDate: date("2025-01-15")},
			{Entry: catalog.Entry{Slug: "rbi-old"}, Source: "RBI", PublishedDate: date("2024-01-01")},
		},
		News: []catalog.NewsItem{
			{Entry: catalog.Entry{Slug: "n1"}, Source: "Business press", Circular: "rbi-old"},
			{Entry: catalog.Entry{Slug: "n2"}, Source: "NPCI"},
			{Entry: catalog.Entry{Slug: "n3"}, Source: "RBI"},
			{Entry: catalog.Entry{Slug: "n4"}, Source: "Reserve Bank of India"},
			{Entry: catalog.Entry{Slug: "n5"}, Source: "RBI"},
			{Entry: catalog.Entry{Slug: "n6"}, Source: "RBI"},
			{Entry: catalog.Entry{Slug: "n7"}, Source: "RBI"},
			{Entry: catalog.Entry{Slug: "n8"}, Source: "RBI"},
		},
	}
	rbi := catalog.PaymentBody{Name: "Reserve Bank of India", ShortName: "RBI"}

	v := newBodyView(cat, rbi, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if v.CircularCount != 2 {
		t.Errorf("CircularCount = %d, want 2", v.CircularCount)
	}
	if want := []string{"rbi-new", "rbi-old"}; !slices.Equal(v.RecentCirculars, want) || v.CircularsURL != "/circulars/rbi" {
		t.Errorf("RecentCirculars = %v, CircularsURL = %q, want %v and /circulars/rbi", v.RecentCirculars, v.CircularsURL, want)
	}
	var got []string
	for _, n := range v.RelatedNews {
		got = append(got, n.Slug)
	}
	// by the circular it reports, by short name, by full name; five at most
	if want := []string{"n1", "n3", "n4", "n5", "n6"}; !slices.Equal(got, want) {
		t.Errorf("RelatedNews = %v, want %v", got, want)
	}

	t.Run("NoCirculars", func(t *testing.T) {
		v := newBodyView(cat, catalog.PaymentBody{Name: "Insurance Regulatory and Development Authority of India", ShortName: "IRDAI"}, time.Now())
		if v.CircularCount != 0 || v.RelatedNews == nil || len(v.RelatedNews) != 0 || v.RecentCirculars == nil || len(v.RecentCirculars) != 0 || v.CircularsURL != "" {
			t.Errorf("got %+v, want empty (not nil) lists", v)
		}
	})
}
