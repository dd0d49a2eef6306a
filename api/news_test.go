package api

import (
	"strings"
	"testing"

	"regpulse/internal/store/storetest"
)

func TestHandler_ListNews(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	const (
		fraudNews = "rbi-upi-fraud-news"
		cbdc      = "cbdc-pilot-expands"
		euai      = "eu-ai-act-timeline"
	)
	runListCases(t, f, []listCase{
		{"NewestFirst", "/news", []string{fraudNews, cbdc, euai}},
		{"Limit", "/news?limit=1", []string{fraudNews}},
		{"EmptyMeansAll", "/news?category=&region=&search=", []string{fraudNews, cbdc, euai}},
		{"AllMeansAll", "/news?category=all&region=all", []string{fraudNews, cbdc, euai}},
		{"Category", "/news?category=CBDC", []string{cbdc}},
		{"CategoryCaseInsensitive", "/news?category=payment+systems", []string{fraudNews}},
		{"Region", "/news?region=Global", []string{euai}},
		{"RegionIndia", "/news?region=india&limit=5", []string{fraudNews, cbdc}},
		{"SearchTitle", "/news?search=AI+Act", []string{euai}},
		{"SearchExcerpt", "/news?search=UPI+apps", []string{fraudNews}},
		{"SearchCategory", "/news?search=regulations", []string{euai}},
		{"NoMatch", "/news?region=Global&category=CBDC", []string{}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownCategory", "/news?category=UPI", 400, []string{"category"}},
		{"ErrUnknownRegion", "/news?region=Europe", 400, []string{"region"}},
		{"ErrLimitAboveCap", "/news?limit=500", 400, []string{"limit"}},
		{"ErrLimitZero", "/news?limit=0", 400, []string{"limit"}},
		{"ErrSearchTooLong", "/news?search=" + strings.Repeat("é", 201), 400, []string{"search"}},
		{"ErrUnknownParameter", "/news?source=RBI", 400, []string{"source"}},
	})
	t.Run("Fields", func(t *testing.T) {
		res := f.get(t, "/news?limit=1")
		want := `[{"id":"` + idOf("news", fraudNews) + `","slug":"rbi-upi-fraud-news","title":"RBI tightens UPI fraud rules",` +
			`"content":"Body.","excerpt":"New controls for UPI apps.","source":"RBI","category":"Payment Systems",` +
			`"region":"India","publishedDate":"2025-06-21","sourceUrl":"https://example.org/n1"}]` + "\n"
		if string(res.body) != want {
			t.Errorf("got  %s\nwant %s", res.body, want)
		}
	})
}
