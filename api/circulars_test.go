package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"regpulse/internal/store/storetest"
)

const (
	bima  = storetest.SlugBimaSugam
	fraud = storetest.SlugUPIFraud
	lite  = storetest.SlugUPILite
	cyber = storetest.SlugCyber
	token = storetest.SlugTokenisation
)

func TestHandler_ListCirculars(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runListCases(t, f, []listCase{
		{"NewestFirst", "/circulars", []string{bima, fraud, lite, cyber, token}},
		{"Limit", "/circulars?limit=2", []string{bima, fraud}},
		{"LimitMax", "/circulars?limit=100", []string{bima, fraud, lite, cyber, token}},
		{"LimitLeadingZero", "/circulars?limit=02", []string{bima, fraud}},
		{"EmptyMeansAll", "/circulars?source=&category=&search=&sort=&filter=&limit=", []string{bima, fraud, lite, cyber, token}},
		{"AllMeansAll", "/circulars?source=all&category=All&filter=ALL", []string{bima, fraud, lite, cyber, token}},
		{"Source", "/circulars?source=RBI", []string{fraud, token}},
		{"SourceCaseInsensitive", "/circulars?source=rbi", []string{fraud, token}},
		{"Category", "/circulars?category=UPI", []string{fraud, lite}},
		{"CategoryWithSpace", "/circulars?category=Digital+Insurance", []string{bima}},
		{"SourceAndCategory", "/circulars?source=RBI&category=UPI", []string{fraud}},
		{"Filter", "/circulars?filter=high", []string{fraud, cyber, token}},
		{"NoMatch", "/circulars?source=PRB", []string{}},
		{"Search", "/circulars?search=Tokenisation", []string{token}},
		{"SearchTrimmed", "/circulars?search=+%20tokenisation+", []string{token}},
		{"SearchNumber", "/circulars?search=RBI%2F2025-26", []string{fraud}},
		{"SearchPercentLiteral", "/circulars?search=100%25", []string{fraud}},
		{"SearchUnderscoreLiteral", "/circulars?search=_", []string{fraud}},
		{"SortDate", "/circulars?sort=date&search=fraud", []string{bima, fraud, cyber}},
		{"SortRelevance", "/circulars?sort=relevance&search=fraud", []string{fraud, bima, cyber}},
		{"SortRelevanceWithoutSearch", "/circulars?sort=relevance", []string{bima, fraud, lite, cyber, token}},
		{"SortImpact", "/circulars?sort=impact", []string{fraud, cyber, token, lite, bima}},
		{"PaymentBodyPage", "/circulars?source=RBI&search=upi&sort=impact&filter=high", []string{fraud}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownSource", "/circulars?source=FED", 400, []string{"source"}},
		{"ErrUnknownCategory", "/circulars?category=Crypto", 400, []string{"category"}},
		{"ErrUnknownSort", "/circulars?sort=popularity", 400, []string{"sort"}},
		{"ErrSortAll", "/circulars?sort=all", 400, []string{"sort"}},
		{"ErrUnknownFilter", "/circulars?filter=critical", 400, []string{"filter"}},
		{"ErrLimitZero", "/circulars?limit=0", 400, []string{"limit"}},
		{"ErrLimitNegative", "/circulars?limit=-5", 400, []string{"limit"}},
		{"ErrLimitPlus", "/circulars?limit=%2B5", 400, []string{"limit"}},
		{"ErrLimitAboveCap", "/circulars?limit=101", 400, []string{"limit"}},
		{"ErrLimitHuge", "/circulars?limit=99999999999999999999999", 400, []string{"limit"}},
		{"ErrLimitNotNumber", "/circulars?limit=ten", 400, []string{"limit"}},
		{"ErrLimitFraction", "/circulars?limit=2.5", 400, []string{"limit"}},
		{"ErrSearchTooLong", "/circulars?search=" + strings.Repeat("a", 201), 400, []string{"search"}},
		{"ErrSearchBadUTF8", "/circulars?search=%ff", 400, []string{"search"}},
		{"ErrRepeated", "/circulars?source=RBI&source=NPCI", 400, []string{"source"}},
		{"ErrUnknownParameter", "/circulars?q=upi", 400, []string{"q"}},
		{"ErrEverything", "/circulars?source=x&category=y&sort=z&filter=w&limit=0", 400,
			[]string{"category", "filter", "limit", "sort", "source"}},
	})

	t.Run("Fields", func(t *testing.T) {
		target := "/circulars?category=UPI"
		got := f.get(t, target)
		decode[[]map[string]any](t, target, got)
		want := `[{"id":"` + idOf("circulars", fraud) + `","slug":"` + fraud + `","circularNumber":"RBI/2025-26/41",` +
			`"title":"UPI fraud risk controls","content":"Banks and UPI apps must apply fraud controls to every UPI payment, including 100% of UPI_LITE flows. Fraud reports go to the bank.",` +
			`"summary":"Fraud controls for UPI.","source":"RBI","category":"UPI","publishedDate":"2025-06-20","impactLevel":"high",` +
			`"entityImpact":[{"entityType":"PSP","impactLevel":"high"},{"entityType":"Issuer","impactLevel":"medium"},{"entityType":"Aggregator","impactLevel":"low"}],` +
			`"officialUrl":"https://www.rbi.org.in/fraud"},` +
			`{"id":"` + idOf("circulars", lite) + `","slug":"` + lite + `","circularNumber":null,"title":"UPI Lite limits",` +
			`"content":"UPI Lite wallet limits rise for small payments.","summary":null,"source":"NPCI","category":"UPI",` +
			`"publishedDate":"2025-06-10","impactLevel":"medium",` +
			`"entityImpact":[{"entityType":"PSP","impactLevel":"medium"},{"entityType":"Issuer","impactLevel":"low"}],"officialUrl":null}]` + "\n"
		if string(got.body) != want {
			t.Errorf("GET %s:\n got %s\nwant %s", target, got.body, want)
		}
	})

	t.Run("StoredSummaryWins", func(t *testing.T) {
		f := newFixture(t, storetest.Catalog())
		target := "/circulars?source=NPCI"
		before := f.get(t, target)
		if err := f.db.PutCircularSummary(context.Background(), idOf("circulars", lite), "An AI summary."); err != nil {
			t.Fatal(err)
		}
		after := f.get(t, target)
		var list []struct{ Summary *string }
		if err := json.Unmarshal(after.body, &list); err != nil || len(list) != 1 || list[0].Summary == nil || *list[0].Summary != "An AI summary." {
			t.Errorf("after storing a summary: %s", after.body)
		}
		if before.header.Get("ETag") == after.header.Get("ETag") {
			t.Error("ETag did not change with the body")
		}
	})
}
