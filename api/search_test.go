package api

import (
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

func TestSearch_Query(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	runQueryCases(t, f, &f.store.search, []queryCase[search.Query]{
		{"Defaults", "/search?q=upi", search.Query{Text: "upi", Page: 1}},
		{"Trimmed", "/search?q=+card+tokenisation+", search.Query{Text: "card tokenisation", Page: 1}},
		{"Filters", "/search?q=fraud&page=3&source=rbi&category=upi", search.Query{Text: "fraud", Page: 3, Source: "RBI", Category: "UPI"}},
		{"AllIsNoFilter", "/search?q=fraud&source=all&category=", search.Query{Text: "fraud", Page: 1}},
		{"QuerySyntaxIsText", `/search?q=%22fraud%22+NEAR(x*`, search.Query{Text: `"fraud" NEAR(x*`, Page: 1}},
		{"LongestQuery", "/search?q=" + strings.Repeat("é", search.MaxQueryLength), search.Query{Text: strings.Repeat("é", search.MaxQueryLength), Page: 1}},
		{"Feed", "/search/feed?q=upi&source=NPCI", search.Query{Text: "upi", Source: "NPCI", ByDate: true, Limit: feedEntries}},
	})
	runErrCases(t, f, []errCase{
		{"ErrEmptyQuery", "/search", http.StatusBadRequest, []string{"q"}},
		{"ErrBlankQuery", "/search?q=+++", http.StatusBadRequest, []string{"q"}},
		{"ErrQueryTooLong", "/search?q=" + strings.Repeat("a", search.MaxQueryLength+1), http.StatusBadRequest, []string{"q"}},
		{"ErrPage", "/search?q=upi&page=0", http.StatusBadRequest, []string{"page"}},
		{"ErrPageTooHigh", "/search?q=upi&page=10001", http.StatusBadRequest, []string{"page"}},
		{"ErrFilters", "/search?q=upi&source=FED&category=Crypto", http.StatusBadRequest, []string{"category", "source"}},
		{"ErrUnknownParameter", "/search?q=upi&limit=5", http.StatusBadRequest, []string{"limit"}},
		{"ErrFeedEmptyQuery", "/search/feed", http.StatusBadRequest, []string{"q"}},
		{"ErrFeedNoPages", "/search/feed?q=upi&page=2", http.StatusBadRequest, []string{"page"}},
	})
}

func TestSearch_Response(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	res := decode[search.Response](t, "/search?q=upi&page=2", f.get(t, "/search?q=upi&page=2"))
	want := search.Pagination{CurrentPage: 2, TotalPages: 1, TotalResults: 5, HasPrev: true}
	if res.Pagination != want || len(res.Circulars) != 0 {
		t.Errorf("page beyond the end: %+v with %d circulars, want %+v and none", res.Pagination, len(res.Circulars), want)
	}
	if res.Answer.Method != search.MethodExtractive || len(res.Answer.Sources) == 0 {
		t.Errorf("answer method %q with %d sources; want extractive, drawn from the best matches whatever the page", res.Answer.Method, len(res.Answer.Sources))
	}
}

func TestSearch_Feed(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	res := f.get(t, "/search/feed?q=fraud&source=RBI")
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "application/atom+xml; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", res.status, res.header.Get("Content-Type"))
	}
	var feed struct {
		ID    string `xml:"id"`
		Links []struct {
			Rel  string `xml:"rel,attr"`
			Href string `xml:"href,attr"`
		} `xml:"link"`
		Entries []struct {
			ID    string `xml:"id"`
			Title string `xml:"title"`
			Link  struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Categories []struct {
				Term string `xml:"term,attr"`
			} `xml:"category"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(res.body, &feed); err != nil {
		t.Fatal(err)
	}
	if feed.ID != "http://example.com/search?q=fraud&source=RBI" {
		t.Errorf("feed id %q; want the search page's address", feed.ID)
	}
	if len(feed.Entries) != 5 || !strings.HasPrefix(feed.Entries[0].ID, "urn:uuid:") ||
		!strings.HasPrefix(feed.Entries[0].Link.Href, "http://example.com/circulars/") {
		t.Errorf("entries %+v; want 5 with urn:uuid ids and circular page links", feed.Entries)
	}
	if etag := res.header.Get("ETag"); f.get(t, "/search/feed?q=fraud&source=RBI", "If-None-Match", etag).status != http.StatusNotModified {
		t.Error("the feed does not revalidate with its ETag")
	}
	// An entry says how far its circular was checked, when it says.
	terms := map[string][]string{}
	for _, e := range feed.Entries {
		for _, c := range e.Categories {
			terms[strings.TrimPrefix(e.ID, "urn:uuid:")] = append(terms[strings.TrimPrefix(e.ID, "urn:uuid:")], c.Term)
		}
	}
	for _, c := range storetest.Catalog().Circulars {
		got, ok := terms[c.ID]
		if !ok {
			continue
		}
		want := []string{c.Category}
		if c.Verification != "" {
			want = append(want, catalog.VerificationLabel(string(c.Verification)))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: categories (-want +got):\n%s", c.Slug, diff)
		}
	}
	if len(terms[catalog.IDForPath("circulars/"+storetest.SlugUPILite+".md")]) != 2 {
		t.Errorf("the reported circular's entry (%s) has no label: %v", storetest.SlugUPILite, terms)
	}
}
