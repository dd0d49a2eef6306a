package generator

import (
	"encoding/json"
	"fmt"
	stdmaps "maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// Helpers to read a built page's elements.

func parseFile(t *testing.T, path string) *html.Node {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := html.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// findAll returns the elements under n with the attribute (and value, when
// val is not "*"), in document order.
func findAll(n *html.Node, key, val string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type != html.ElementNode {
			continue
		}
		if v, ok := attr(d, key); ok && (val == "*" || v == val) {
			out = append(out, d)
		}
	}
	return out
}

func find(t *testing.T, n *html.Node, key, val string) *html.Node {
	t.Helper()
	all := findAll(n, key, val)
	if len(all) != 1 {
		t.Fatalf("%d elements with %s=%q, want 1", len(all), key, val)
	}
	return all[0]
}

func elements(n *html.Node, tag string) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && d.Data == tag {
			out = append(out, d)
		}
	}
	return out
}

// text is the element's text with spaces collapsed.
func text(n *html.Node) string {
	var b strings.Builder
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func hidden(n *html.Node) bool { _, ok := attr(n, "hidden"); return ok }

func TestNewsPage(t *testing.T) {
	out, res := buildSiteAt(t, "../content", templatesDir, fixtureNow)
	doc := parseFile(t, filepath.Join(out, "news", "index.html"))
	news := res.Catalog.News

	if h1 := elements(doc, "h1"); len(h1) != 1 || text(h1[0]) != "Fintech News & Updates" {
		t.Errorf("h1 = %v", h1)
	}
	island := find(t, doc, "data-island", "NewsFilter")
	props, _ := attr(island, "data-props")
	if want, _ := json.Marshal(map[string]any{"categories": catalog.NewsCategories, "page": 1, "pageSize": ListPageSize}); props != string(want) {
		t.Errorf("island props = %s, want %s", props, want)
	}

	// The top blocks: the newest five of each region, without search fields.
	top := find(t, doc, "data-news-top", "*")
	sections := elements(top, "section")
	if len(sections) != 2 {
		t.Fatalf("%d top blocks, want 2", len(sections))
	}
	for i, region := range catalog.Regions {
		var want []string
		for _, n := range news {
			if n.Region == region && len(want) < 5 {
				want = append(want, n.Title)
			}
		}
		if h := text(elements(sections[i], "h2")[0]); h != fmt.Sprintf("Top 5 %s Fintech News", region) {
			t.Errorf("block %d heading %q", i, h)
		}
		var got []string
		for _, a := range elements(sections[i], "article") {
			got = append(got, text(elements(a, "h3")[0]))
			if _, ok := attr(a, "data-fields"); ok {
				t.Errorf("top card %q carries data-fields; only the results list is searched", got[len(got)-1])
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("Top 5 %s = %q, want %q", region, got, want)
		}
	}

	// The results list: the first page of every item, newest first, each
	// card complete (TestBuild_PagedLists follows the pages).
	results := find(t, doc, "data-news-results", "*")
	if hidden(results) {
		t.Error("the full list is hidden without JavaScript")
	}
	if h := text(find(t, results, "data-news-heading", "*")); h != fmt.Sprintf("All news (%d articles)", len(news)) {
		t.Errorf("results heading %q", h)
	}
	cards := elements(find(t, doc, "data-list", "news"), "article")
	if want := min(ListPageSize, len(news)); len(cards) != want {
		t.Fatalf("%d cards in the list, want %d", len(cards), want)
	}
	for i, c := range cards {
		n := news[i]
		var fields map[string]string
		raw, _ := attr(c, "data-fields")
		if err := json.Unmarshal([]byte(raw), &fields); err != nil {
			t.Fatalf("card %d data-fields %q: %v", i, raw, err)
		}
		if want := map[string]string{"title": n.Title, "excerpt": n.Excerpt, "category": n.Category}; !stdmaps.Equal(fields, want) {
			t.Errorf("card %d fields %v, want %v", i, fields, want)
		}
		all := text(c)
		long := n.PublishedDate.Format("2 January 2006")
		for _, want := range []string{n.Category, n.Title, n.Excerpt, n.Source, long, "Read More"} {
			if !strings.Contains(all, want) {
				t.Errorf("card %q lacks %q", n.Title, want)
			}
		}
		if r := findAll(c, "data-region", "*"); len(r) != 1 || text(r[0]) != n.Region {
			t.Errorf("card %q: region badge %v, want %s", n.Title, r, n.Region)
		}
		if age := findAll(c, "data-age", n.PublishedDate.String()); len(age) != 1 || text(age[0]) != "" {
			t.Errorf("card %q: want one empty data-age=%s for the island", n.Title, n.PublishedDate)
		}
		links := elements(c, "a")
		if len(links) != 1 || !strings.HasPrefix(text(links[0]), "Read More") {
			t.Fatalf("card %q: links %v, want Read More only", n.Title, links)
		}
		// html/template normalises URLs (e.g. "(" to %28): compare unescaped
		href, _ := attr(links[0], "href")
		got, _ := url.QueryUnescape(href)
		want, _ := url.QueryUnescape(n.SourceURL)
		if target, _ := attr(links[0], "target"); got != want || target != "_blank" {
			t.Errorf("card %q: Read More to %s (target %q), want %s in a new tab", n.Title, href, target, n.SourceURL)
		}
	}
	empty := find(t, doc, "data-empty", "news")
	var texts []string
	for _, p := range elements(empty, "p") {
		texts = append(texts, text(p))
	}
	if !hidden(empty) || !slices.Equal(texts, []string{"No news articles found", "Try adjusting your filter or check back later for updates"}) {
		t.Errorf("empty state %q hidden=%v", texts, hidden(empty))
	}
}

// TestNewsPage_OneRegion: the fixture has only Indian news, so only the
// Indian block shows.
func TestNewsPage_OneRegion(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	doc := parseFile(t, filepath.Join(out, "news", "index.html"))
	sections := elements(find(t, doc, "data-news-top", "*"), "section")
	if len(sections) != 1 || text(elements(sections[0], "h2")[0]) != "Top 5 India Fintech News" {
		t.Errorf("top blocks: %d, want only India's", len(sections))
	}
	if h := text(find(t, doc, "data-news-heading", "*")); h != "All news (1 article)" {
		t.Errorf("results heading %q", h)
	}
}

func TestImpactTrackerPage(t *testing.T) {
	type entity struct {
		score             int
		band              string
		high, medium, low string
	}
	pa, token := "rbi-2020-03-17-pa-guidelines", "rbi-2021-09-07-tokenisation"
	for _, tc := range []struct {
		name         string
		now          time.Time
		high, medium []string
		entities     map[string]entity
	}{
		// counts are over every circular; scores over the window
		{"PAGuidelinesInWindow", fixtureNow, []string{pa}, nil, map[string]entity{
			"PSP": {98, "good", "0", "1", "1"}, "Issuer": {100, "good", "0", "1", "0"}, "Aggregator": {95, "good", "1", "0", "0"}}},
		{"TokenisationInWindow", time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC), nil, []string{token}, map[string]entity{
			"PSP": {100, "good", "0", "1", "1"}, "Issuer": {98, "good", "0", "1", "0"}, "Aggregator": {100, "good", "1", "0", "0"}}},
		{"NothingActive", time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), nil, nil, map[string]entity{
			"PSP": {100, "good", "0", "1", "1"}, "Issuer": {100, "good", "0", "1", "0"}, "Aggregator": {100, "good", "1", "0", "0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, res := buildSiteAt(t, fixtureContent, templatesDir, tc.now)
			doc := parseFile(t, filepath.Join(out, "impact-tracker", "index.html"))
			if h1 := elements(doc, "h1"); len(h1) != 1 || text(h1[0]) != "Impact Tracker Dashboard" {
				t.Errorf("h1 = %v", h1)
			}
			island := find(t, doc, "data-island", "ImpactTracker")
			props, _ := attr(island, "data-props")
			if props != `{}` {
				t.Errorf("island props = %s", props)
			}
			if h := text(find(t, doc, "data-heading", "entities")); h != "All Entity Types" {
				t.Errorf("heading %q", h)
			}
			if n := text(find(t, doc, "data-count", "entities")); n != "3" {
				t.Errorf("entity count badge %q, want 3", n)
			}

			cards := findAll(find(t, doc, "data-list", "entities"), "data-entity", "*")
			var types []string
			for _, c := range cards {
				typ, _ := attr(c, "data-entity")
				types = append(types, typ)
				w := tc.entities[typ]
				if h := text(elements(c, "h3")[0]); h != impact.DisplayName(typ) {
					t.Errorf("%s card title %q", typ, h)
				}
				fields, _ := attr(c, "data-fields")
				if want := fmt.Sprintf(`{"name":%q,"type":%q}`, impact.DisplayName(typ), typ); fields != want {
					t.Errorf("%s fields %s, want %s", typ, fields, want)
				}
				if s := text(find(t, c, "data-score", "*")); s != fmt.Sprintf("%d%%", w.score) {
					t.Errorf("%s score %q, want %d%%", typ, s, w.score)
				}
				bar := find(t, c, "data-score-bar", "*")
				if v, _ := attr(bar, "value"); bar.Data != "progress" || v != fmt.Sprint(w.score) {
					t.Errorf("%s bar <%s value=%s>, want <progress value=%d>", typ, bar.Data, v, w.score)
				}
				if label, _ := attr(bar, "aria-label"); label != "Compliance score of "+impact.DisplayName(typ) {
					t.Errorf("%s bar label %q", typ, label)
				}
				if b, _ := attr(find(t, c, "data-band", "*"), "data-band"); b != w.band {
					t.Errorf("%s band %q, want %q", typ, b, w.band)
				}
				for level, want := range map[string]string{"high": w.high, "medium": w.medium, "low": w.low} {
					if got := text(find(t, c, "data-impact-count", level)); got != want {
						t.Errorf("%s %s count %s, want %s", typ, level, got, want)
					}
				}
			}
			if !slices.Equal(types, catalog.EntityTypes) {
				t.Errorf("cards %v, want %v", types, catalog.EntityTypes)
			}

			for _, l := range []struct {
				list, empty string
				want        []string
			}{
				{"high-circulars", "No high impact circulars currently active", tc.high},
				{"medium-circulars", "No medium impact circulars currently active", tc.medium},
			} {
				list := find(t, doc, "data-list", l.list)
				items := elements(list, "li")
				if len(items) != len(l.want) || hidden(list) != (len(l.want) == 0) {
					t.Errorf("%s: %d items (hidden %v), want %v", l.list, len(items), hidden(list), l.want)
				}
				for i, li := range items {
					c := res.Catalog.Circulars[slices.IndexFunc(res.Catalog.Circulars, func(c catalog.Circular) bool { return c.Slug == l.want[i] })]
					all := text(li)
					preview := c.PreviewText(catalog.ImpactPreviewLen)
					if len(findAll(li, "datetime", c.PublishedDate.String())) != 1 {
						t.Errorf("%s item %s lacks its published date", l.list, c.Slug)
					}
					for _, want := range []string{string(c.CircularNumber), c.Title, preview, c.Source} {
						if !strings.Contains(all, want) {
							t.Errorf("%s item %s lacks %q: %s", l.list, c.Slug, want, all)
						}
					}
					if len([]rune(preview)) > catalog.ImpactPreviewLen+len("...") {
						t.Errorf("preview of %s is %d characters", c.Slug, len([]rune(preview)))
					}
					var fields map[string]string
					raw, _ := attr(li, "data-fields")
					if err := json.Unmarshal([]byte(raw), &fields); err != nil || fields["slug"] != c.Slug || fields["id"] != c.ID ||
						fields["title"] != c.Title || fields["circularNumber"] != string(c.CircularNumber) {
						t.Errorf("%s item fields %s", c.Slug, raw)
					}
					if len(findAll(li, "href", "/circulars/"+c.Slug)) != 1 {
						t.Errorf("%s item does not link to its page", c.Slug)
					}
				}
				empty := find(t, doc, "data-empty", l.list)
				if text(empty) != l.empty || hidden(empty) != (len(l.want) > 0) {
					t.Errorf("%s empty state %q hidden=%v", l.list, text(empty), hidden(empty))
				}
				if n := text(find(t, doc, "data-count", l.list)); n != fmt.Sprint(len(l.want)) {
					t.Errorf("%s count badge %s", l.list, n)
				}
			}
		})
	}
}

// TestImpactTracker_RecordsAreTheRule: the page's data is impact.Records as
// of the build's clock, the same function the store's rule is checked
// against.
func TestImpactTracker_RecordsAreTheRule(t *testing.T) {
	cat, err := catalog.Load("../content")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)
	v := impactTracker(cat, now, catalog.Circular.PreviewText)
	if diff := cmp.Diff(impact.Records(cat.Circulars, now), v.Entities); diff != "" {
		t.Errorf("entities differ from impact.Records (-want +got):\n%s", diff)
	}
	for _, l := range []struct {
		level string
		got   []circularView
	}{{"high", v.High}, {"medium", v.Medium}} {
		want := impact.Active(cat.Circulars, l.level, now)
		if len(want) == 0 || len(l.got) != len(want) {
			t.Fatalf("%s: %d circulars, want %d (and some)", l.level, len(l.got), len(want))
		}
		for i, c := range want {
			if l.got[i].Slug != c.Slug || l.got[i].Preview != c.PreviewText(catalog.ImpactPreviewLen) {
				t.Errorf("%s %d = %+v, want %s", l.level, i, l.got[i], c.Slug)
			}
		}
	}
}
