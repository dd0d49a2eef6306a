package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

func TestHandler_ListCirculars(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	q := func(q catalog.CircularQuery) catalog.CircularQuery {
		if q.Sort == "" {
			q.Sort = catalog.SortDate
		}
		if q.Limit == 0 {
			q.Limit = 50
		}
		return q
	}
	runQueryCases(t, f, &f.store.circulars, []queryCase[catalog.CircularQuery]{
		{"Defaults", "/circulars", q(catalog.CircularQuery{})},
		{"Limit", "/circulars?limit=2", q(catalog.CircularQuery{Page: catalog.Page{Limit: 2}})},
		{"LimitMax", "/circulars?limit=100", q(catalog.CircularQuery{Page: catalog.Page{Limit: 100}})},
		{"LimitLeadingZero", "/circulars?limit=02", q(catalog.CircularQuery{Page: catalog.Page{Limit: 2}})},
		{"Offset", "/circulars?offset=7", q(catalog.CircularQuery{Page: catalog.Page{Offset: 7}})},
		{"EmptyMeansAll", "/circulars?source=&category=&search=&sort=&filter=&limit=&offset=", q(catalog.CircularQuery{})},
		{"AllMeansAll", "/circulars?source=all&category=All&filter=ALL", q(catalog.CircularQuery{})},
		{"SourceCanonical", "/circulars?source=rbi", q(catalog.CircularQuery{Source: "RBI"})},
		{"CategoryWithSpace", "/circulars?category=digital+insurance", q(catalog.CircularQuery{Category: "Digital Insurance"})},
		{"Filter", "/circulars?filter=High", q(catalog.CircularQuery{Impact: "high"})},
		{"DocumentType", "/circulars?type=Master-Direction", q(catalog.CircularQuery{Type: "master-direction"})},
		{"Verification", "/circulars?verification=Reported", q(catalog.CircularQuery{Verification: "reported"})},
		{"VerificationAll", "/circulars?verification=all", q(catalog.CircularQuery{})},
		{"SearchTrimmed", "/circulars?search=+%20tokenisation+", q(catalog.CircularQuery{Search: "tokenisation"})},
		{"SearchKeepsSymbols", "/circulars?search=100%25+UPI_LITE", q(catalog.CircularQuery{Search: "100% UPI_LITE"})},
		{"Sort", "/circulars?sort=Relevance", q(catalog.CircularQuery{Sort: catalog.SortRelevance})},
		{"PaymentBodyPage", "/circulars?source=RBI&search=upi&sort=impact&filter=high&limit=100",
			catalog.CircularQuery{Source: "RBI", Search: "upi", Sort: catalog.SortImpact, Impact: "high", Page: catalog.Page{Limit: 100}}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownSource", "/circulars?source=FED", 400, []string{"source"}},
		{"ErrUnknownCategory", "/circulars?category=Crypto", 400, []string{"category"}},
		{"ErrUnknownSort", "/circulars?sort=popularity", 400, []string{"sort"}},
		{"ErrSortAll", "/circulars?sort=all", 400, []string{"sort"}},
		{"ErrUnknownFilter", "/circulars?filter=critical", 400, []string{"filter"}},
		{"ErrUnknownDocumentType", "/circulars?type=memo", 400, []string{"type"}},
		{"ErrUnknownVerification", "/circulars?verification=verified", 400, []string{"verification"}},
		{"ErrLimitZero", "/circulars?limit=0", 400, []string{"limit"}},
		{"ErrLimitNegative", "/circulars?limit=-5", 400, []string{"limit"}},
		{"ErrLimitPlus", "/circulars?limit=%2B5", 400, []string{"limit"}},
		{"ErrLimitAboveCap", "/circulars?limit=101", 400, []string{"limit"}},
		{"ErrLimitHuge", "/circulars?limit=99999999999999999999999", 400, []string{"limit"}},
		{"ErrLimitNotNumber", "/circulars?limit=ten", 400, []string{"limit"}},
		{"ErrLimitFraction", "/circulars?limit=2.5", 400, []string{"limit"}},
		{"ErrOffsetNegative", "/circulars?offset=-1", 400, []string{"offset"}},
		{"ErrOffsetNotNumber", "/circulars?offset=next", 400, []string{"offset"}},
		{"ErrOffsetHuge", "/circulars?offset=99999999999999999999999", 400, []string{"offset"}},
		{"ErrSearchTooLong", "/circulars?search=" + strings.Repeat("a", 201), 400, []string{"search"}},
		{"ErrSearchBadUTF8", "/circulars?search=%ff", 400, []string{"search"}},
		{"ErrRepeated", "/circulars?source=RBI&source=NPCI", 400, []string{"source"}},
		{"ErrUnknownParameter", "/circulars?q=upi", 400, []string{"q"}},
		{"ErrEverything", "/circulars?source=x&category=y&sort=z&filter=w&limit=0&offset=-2", 400,
			[]string{"category", "filter", "limit", "offset", "sort", "source"}},
	})
}

// TestHandler_CardReplacements checks that every answer cards are drawn
// from names the circulars replacing a card's, as the site's "Superseded
// by" note does, leaving out a slug the store lacks.
func TestHandler_CardReplacements(t *testing.T) {
	cat := storetest.Catalog()
	old := slices.IndexFunc(cat.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugTokenisation })
	newer := slices.IndexFunc(cat.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugCyber })
	cat.Circulars[old].SupersededBy = catalog.TextList{storetest.SlugCyber, "an-unpublished-circular"}
	by := cat.Circulars[newer]
	want := catalog.List[catalog.CircularRef]{{Slug: by.Slug, CircularNumber: by.CircularNumber, Title: by.Title}}
	f := newFixture(t, cat)
	check := func(t *testing.T, target string, cs []catalog.Circular) {
		t.Helper()
		for _, c := range cs {
			w := catalog.List[catalog.CircularRef](nil)
			if c.Slug == storetest.SlugTokenisation {
				w = want
			}
			if diff := cmp.Diff(w, c.Replacements, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("GET %s: %s's replacements (-want +got):\n%s", target, c.Slug, diff)
			}
		}
	}
	t.Run("List", func(t *testing.T) {
		check(t, "/circulars", decode[[]catalog.Circular](t, "/circulars", f.get(t, "/circulars")))
	})
	t.Run("One", func(t *testing.T) {
		target := "/circulars/" + cat.Circulars[old].ID
		check(t, target, []catalog.Circular{decode[catalog.Circular](t, target, f.get(t, target))})
	})
	t.Run("Search", func(t *testing.T) {
		res := decode[search.Response](t, "/search?q=tokenisation", f.get(t, "/search?q=tokenisation"))
		if !slices.ContainsFunc(res.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugTokenisation }) {
			t.Fatalf("search for tokenisation found %v", slugsOf(res.Circulars))
		}
		check(t, "/search", res.Circulars)
	})
}

func TestHandler_GetCircular(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	want := storetest.Catalog().Circulars[1]
	target := "/circulars/" + want.ID
	t.Run("AsListed", func(t *testing.T) {
		list := decode[[]catalog.Circular](t, "/circulars?limit=100", f.get(t, "/circulars?limit=100"))
		i := slices.IndexFunc(list, func(c catalog.Circular) bool { return c.ID == want.ID })
		got := decode[catalog.Circular](t, target, f.get(t, target))
		if i < 0 || got.ID != want.ID {
			t.Fatalf("GET %s: %s, listed at %d", target, got.ID, i)
		}
		if diff := cmp.Diff(list[i], got); diff != "" {
			t.Errorf("GET %s against GET /circulars's entry (-listed +got):\n%s", target, diff)
		}
	})
	t.Run("StoredSummary", func(t *testing.T) {
		sum := catalog.GeneratedSummary{Summary: "Card tokenisation extended.", Provider: "local", GeneratedAt: storetest.Clock()}
		if err := f.store.PutCircularSummary(t.Context(), want.ID, sum); err != nil {
			t.Fatal(err)
		}
		got := decode[catalog.Circular](t, target, f.get(t, target))
		if got.AISummary == nil || got.AISummary.Summary != sum.Summary {
			t.Errorf("aiSummary = %+v, want %+v", got.AISummary, sum)
		}
	})
	t.Run("NotModified", func(t *testing.T) {
		etag := f.get(t, target).header.Get("ETag")
		if res := f.get(t, target, "If-None-Match", etag); etag == "" || res.status != http.StatusNotModified {
			t.Errorf("If-None-Match %q: %d", etag, res.status)
		}
	})
	runErrCases(t, f, []errCase{
		{"ErrNotFound", "/circulars/00000000-0000-4000-8000-000000000000", 404, nil},
		{"ErrUnknownParameter", target + "?limit=1", 400, []string{"limit"}},
	})
}

func TestHandler_ListNews(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runQueryCases(t, f, &f.store.news, []queryCase[catalog.NewsQuery]{
		{"Defaults", "/news", catalog.NewsQuery{Page: page50}},
		{"EmptyMeansAll", "/news?category=&region=&search=", catalog.NewsQuery{Page: page50}},
		{"AllMeansAll", "/news?category=all&region=all", catalog.NewsQuery{Page: page50}},
		{"CategoryCanonical", "/news?category=payment+systems", catalog.NewsQuery{Category: "Payment Systems", Page: page50}},
		{"Region", "/news?region=india&limit=5", catalog.NewsQuery{Region: "India", Page: catalog.Page{Limit: 5}}},
		{"Search", "/news?search=AI+Act", catalog.NewsQuery{Search: "AI Act", Page: page50}},
	})
	runErrCases(t, f, []errCase{
		{"ErrUnknownCategory", "/news?category=UPI", 400, []string{"category"}},
		{"ErrUnknownRegion", "/news?region=Europe", 400, []string{"region"}},
		{"ErrLimitAboveCap", "/news?limit=500", 400, []string{"limit"}},
		{"ErrSearchTooLong", "/news?search=" + strings.Repeat("é", 201), 400, []string{"search"}},
		{"ErrUnknownParameter", "/news?source=RBI", 400, []string{"source"}},
	})
}

func TestHandler_ListDirectories(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	page100 := catalog.Page{Limit: 100}
	t.Run("Companies", func(t *testing.T) {
		runQueryCases(t, f, &f.store.companies, []queryCase[catalog.CompanyQuery]{
			{"Defaults", "/fintech-companies", catalog.CompanyQuery{Page: page100}},
			{"Category", "/fintech-companies?category=bnpl&limit=10&offset=3", catalog.CompanyQuery{Category: "BNPL", Page: catalog.Page{Limit: 10, Offset: 3}}},
		})
		runErrCases(t, f, []errCase{
			{"ErrUnknownCategory", "/fintech-companies?category=Crypto", 400, []string{"category"}},
			{"ErrLimitAboveCap", "/fintech-companies?limit=101", 400, []string{"limit"}},
			{"ErrUnknownParameter", "/fintech-companies?country=India", 400, []string{"country"}},
		})
	})
	t.Run("Regulations", func(t *testing.T) {
		runQueryCases(t, f, &f.store.regulations, []queryCase[catalog.RegulationQuery]{
			{"Defaults", "/pii-regulations?country=&status=", catalog.RegulationQuery{Page: page100}},
			{"Both", "/pii-regulations?country=european+union&status=ACTIVE", catalog.RegulationQuery{Country: "European Union", Status: "active", Page: page100}},
		})
		runErrCases(t, f, []errCase{
			{"ErrUnknownCountry", "/pii-regulations?country=France", 400, []string{"country"}},
			{"ErrBoth", "/pii-regulations?country=France&status=repealed", 400, []string{"country", "status"}},
		})
	})
	t.Run("Networks", func(t *testing.T) {
		runQueryCases(t, f, &f.store.page, []queryCase[catalog.Page]{
			{"Defaults", "/payment-networks", page100},
			{"Page", "/payment-networks?limit=1&offset=1", catalog.Page{Limit: 1, Offset: 1}},
		})
		runErrCases(t, f, []errCase{
			{"ErrLimit", "/payment-networks?limit=x", 400, []string{"limit"}},
			{"ErrUnknownParameter", "/payment-networks?filter=Visa", 400, []string{"filter"}},
		})
	})
	t.Run("Sibos", func(t *testing.T) {
		runQueryCases(t, f, &f.store.page, []queryCase[catalog.Page]{
			{"Defaults", "/sibos-events", page100},
			{"Limit", "/sibos-events?limit=2", catalog.Page{Limit: 2}},
		})
		runErrCases(t, f, []errCase{
			{"ErrUnknownParameter", "/sibos-events?status=upcoming", 400, []string{"status"}},
		})
	})
}

// TestHandler_ListBody checks that a list answers the store's entries as
// they are: a JSON array of the domain type, every field present, absent
// values null, lists [] (the types' own JSON, tested in catalog).
func TestHandler_ListBody(t *testing.T) {
	cat := storetest.Catalog()
	f := newFixture(t, cat)
	for _, tc := range []struct {
		target string
		want   any
	}{
		{"/circulars", catalog.WithPreviews(slices.Clone(cat.Circulars))}, // with the cards' previews
		{"/news", catalog.WithNewsLangs(slices.Clone(cat.News))},          // with their languages
		{"/fintech-companies", cat.Companies},
		{"/pii-regulations", cat.Regulations},
		{"/payment-networks", cat.Networks},
		{"/sibos-events", cat.Sibos},
	} {
		t.Run(strings.TrimPrefix(tc.target, "/"), func(t *testing.T) {
			res := f.get(t, tc.target)
			want, err := json.Marshal(tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if res.status != http.StatusOK || string(res.body) != string(want)+"\n" {
				t.Errorf("GET %s = %d\n%s\nwant\n%s", tc.target, res.status, res.body, want)
			}
		})
	}
	t.Run("EmptyIsArray", func(t *testing.T) {
		if res := newFixture(t, nil).get(t, "/circulars"); string(res.body) != "[]\n" {
			t.Errorf("empty list = %s, want []", res.body)
		}
	})
}

// TestHandler_ListPages checks that a list never ends silently: the total
// is in X-Total-Count and, while entries follow, Link names the next page.
func TestHandler_ListPages(t *testing.T) {
	cat := storetest.Catalog() // 5 circulars
	f := newFixture(t, cat)
	for _, tc := range []struct {
		name, target string
		slugs        []string
		link         string
	}{
		{"AllOnOnePage", "/circulars", slugsOf(cat.Circulars), ""},
		{"First", "/circulars?limit=2", slugsOf(cat.Circulars[:2]), `</circulars?limit=2&offset=2>; rel="next"`},
		{"Middle", "/circulars?limit=2&offset=2", slugsOf(cat.Circulars[2:4]), `</circulars?limit=2&offset=4>; rel="next"`},
		{"Last", "/circulars?limit=2&offset=4", slugsOf(cat.Circulars[4:]), ""},
		{"ExactEnd", "/circulars?limit=5", slugsOf(cat.Circulars), ""},
		{"Past", "/circulars?offset=10", []string{}, ""},
		{"KeepsParameters", "/circulars?source=rbi&limit=1&search=upi",
			slugsOf(cat.Circulars[:1]), `</circulars?limit=1&offset=1&search=upi&source=rbi>; rel="next"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.get(t, tc.target)
			items := decode[[]catalog.Circular](t, tc.target, res)
			if diff := cmp.Diff(tc.slugs, slugsOf(items)); diff != "" {
				t.Errorf("slugs (-want +got):\n%s", diff)
			}
			if got := res.header.Get("X-Total-Count"); got != "5" {
				t.Errorf("X-Total-Count = %q, want 5", got)
			}
			if got := res.header.Get("Link"); got != tc.link {
				t.Errorf("Link = %q, want %q", got, tc.link)
			}
		})
	}
	t.Run("EveryList", func(t *testing.T) {
		for _, target := range []string{"/news", "/fintech-companies", "/pii-regulations", "/payment-networks", "/sibos-events"} {
			if res := f.get(t, target+"?limit=1"); res.header.Get("X-Total-Count") == "" || !strings.Contains(res.header.Get("Link"), `rel="next"`) {
				t.Errorf("GET %s?limit=1: X-Total-Count %q, Link %q", target, res.header.Get("X-Total-Count"), res.header.Get("Link"))
			}
		}
	})
	t.Run("TotalChangesETag", func(t *testing.T) {
		before := f.get(t, "/circulars?limit=1")
		f.store.cat.Circulars = append(f.store.cat.Circulars, storetest.Circular("rbi-2020-01-01-old", "RBI", "UPI", "2020-01-01", "low", "PSP", "low"))
		after := f.get(t, "/circulars?limit=1", "If-None-Match", before.header.Get("ETag"))
		if after.status != http.StatusOK || after.header.Get("X-Total-Count") != "6" {
			t.Errorf("same first page, new total: %d with X-Total-Count %q; want 200 with 6", after.status, after.header.Get("X-Total-Count"))
		}
	})
}

func slugsOf(list []catalog.Circular) []string {
	out := []string{}
	for _, c := range list {
		out = append(out, c.Slug)
	}
	return out
}

func TestHandler_ImpactTracking(t *testing.T) {
	cat := storetest.Catalog()
	f := newFixture(t, cat)
	res := f.get(t, "/impact-tracking")
	want, _ := json.Marshal(must(f.store.ImpactTracking(t.Context())))
	if res.status != 200 || string(res.body) != string(want)+"\n" {
		t.Errorf("GET /impact-tracking = %d %s\nwant %s", res.status, res.body, want)
	}
	// The band and the name come from Go: the page and the islands only show them.
	for _, r := range decode[[]map[string]any](t, "/impact-tracking", res) {
		if r["band"] == nil || r["name"] == nil {
			t.Errorf("record %v lacks band or name", r)
		}
	}
	runErrCases(t, f, []errCase{
		{"ErrUnknownParameter", "/impact-tracking?entityType=PSP", 400, []string{"entityType"}},
	})
}

func TestHandler_DashboardStats(t *testing.T) {
	f := newFixture(t, nil)
	f.store.stats.NewCirculars, f.store.stats.ImpactAlerts, f.store.stats.LatestNews = 3, 1, 2
	f.store.stats.AwaitingVerification = 4
	last := catalog.Date{Time: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)}
	f.store.stats.LastCircular = &last
	res := f.get(t, "/dashboard/stats")
	if res.status != 200 || string(res.body) != `{"newCirculars":3,"impactAlerts":1,"latestNews":2,"activeUsers":0,"awaitingVerification":4,"lastCircular":"2026-10-01","lastImpactAlert":null,"lastNews":null}`+"\n" {
		t.Errorf("GET /dashboard/stats = %d %s", res.status, res.body)
	}
	if !f.store.statsAt.Equal(storetest.Now) {
		t.Errorf("the store counted as of %v, want the API's clock %v", f.store.statsAt, storetest.Now)
	}
	runErrCases(t, f, []errCase{
		{"ErrUnknownParameter", "/dashboard/stats?days=7", 400, []string{"days"}},
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Every list of the catalog's entries says how current the catalog is:
// the newest circular's date and the last sync's time.
func TestHandler_ListFreshness(t *testing.T) {
	cat := storetest.Catalog()
	f := newFixture(t, cat)
	want := catalog.NewFreshness(cat.Circulars, storetest.Now)
	for _, target := range []string{"/circulars", "/circulars?limit=1&offset=3", "/news", "/fintech-companies",
		"/pii-regulations", "/payment-networks", "/sibos-events"} {
		t.Run(target, func(t *testing.T) {
			res := f.get(t, target)
			if res.status != http.StatusOK {
				t.Fatalf("status %d: %s", res.status, res.body)
			}
			if got := res.header.Get("X-Newest-Circular"); got != want.NewestCircular.String() {
				t.Errorf("X-Newest-Circular = %q, want %s", got, want.NewestCircular)
			}
			if got, w := res.header.Get("X-Catalog-Updated"), want.UpdatedAt.Format(time.RFC3339); got != w {
				t.Errorf("X-Catalog-Updated = %q, want %s", got, w)
			}
		})
	}
	t.Run("Empty", func(t *testing.T) {
		res := newFixture(t, &catalog.Catalog{}).get(t, "/circulars")
		if got := res.header.Get("X-Newest-Circular"); got != "" {
			t.Errorf("X-Newest-Circular = %q for an empty catalog", got)
		}
	})
}
