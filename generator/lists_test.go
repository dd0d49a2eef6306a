package generator

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"regpulse/internal/catalog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// TestBuild_PagedLists builds the fixture plus a few hundred generated
// circulars and follows every paged list from its first page by its
// rel="next" links: each page holds at most ListPageSize cards, its
// canonical URL is its own, rel prev/next and the pager's links agree,
// the lists hold every circular of their filter once, in the catalog's
// order; and the sitemap index names every page, split into files of at
// most sitemapMaxURLs.
func TestBuild_PagedLists(t *testing.T) {
	defer func(n int) { sitemapMaxURLs = n }(sitemapMaxURLs)
	sitemapMaxURLs = 150 // a few files
	content := withCirculars(t, "testdata/content", 300)
	out, res := buildSite(t, content, templatesDir)
	cat := res.Catalog
	const base = "https://regpulse.test"

	read := func(route string) *html.Node {
		t.Helper()
		return parseFile(t, filepath.Join(out, RoutePath(route)))
	}
	link := func(doc *html.Node, rel string) string {
		for _, l := range elements(doc, "link") {
			if r, _ := attr(l, "rel"); r == rel {
				href, _ := attr(l, "href")
				return strings.TrimPrefix(href, base)
			}
		}
		return ""
	}
	// follow walks a list from route and returns its cards' slugs in order.
	follow := func(t *testing.T, route, list string) []string {
		t.Helper()
		var slugs []string
		prev := ""
		for n := 1; route != ""; n++ {
			doc := read(route)
			if got := link(doc, "canonical"); got != route {
				t.Errorf("%s: canonical %q", route, got)
			}
			if got := link(doc, "prev"); got != prev {
				t.Errorf("%s: rel=prev %q, want %q", route, got, prev)
			}
			cards := findAll(find(t, doc, "data-list", list), "data-circular", "*")
			if len(cards) == 0 || len(cards) > ListPageSize {
				t.Errorf("%s: %d cards, want 1 to %d", route, len(cards), ListPageSize)
			}
			for _, c := range cards {
				s, _ := attr(c, "data-circular")
				slugs = append(slugs, s)
			}
			next := link(doc, "next")
			if pagers := findAll(doc, "data-static-pager", "*"); next != "" || n > 1 {
				if len(pagers) != 1 {
					t.Fatalf("%s: %d pagers", route, len(pagers))
				}
				// the pager's Next and its current page agree with the head
				var nextHref, current string
				for _, a := range elements(pagers[0], "a") {
					if r, _ := attr(a, "rel"); r == "next" {
						nextHref, _ = attr(a, "href")
					}
				}
				for _, s := range elements(pagers[0], "span") {
					if c, _ := attr(s, "aria-current"); c == "page" {
						current = text(s)
					}
				}
				if nextHref != next || current != fmt.Sprint(n) {
					t.Errorf("%s: pager next %q current %q, want %q and %d", route, nextHref, current, next, n)
				}
			}
			prev, route = route, next
		}
		return slugs
	}
	// want is the catalog's circulars that pass keep, in its order.
	want := func(keep func(i int) bool) []string {
		var out []string
		for i, c := range cat.Circulars {
			if keep(i) {
				out = append(out, c.Slug)
			}
		}
		return out
	}
	if len(cat.Circulars) < 10*ListPageSize {
		t.Fatalf("only %d circulars: the test wants many pages", len(cat.Circulars))
	}

	t.Run("AllCirculars", func(t *testing.T) {
		all := want(func(int) bool { return true })
		for _, l := range []struct{ route, list string }{{"/circulars", "circulars"}, {"/search", "search-circulars"}} {
			if got := follow(t, l.route, l.list); !slices.Equal(got, all) {
				t.Errorf("%s lists %d circulars, want all %d in order", l.route, len(got), len(all))
			}
		}
	})
	t.Run("PerRegulator", func(t *testing.T) {
		for _, s := range []string{"RBI", "NPCI", "SEBI"} {
			w := want(func(i int) bool { return cat.Circulars[i].Source == s })
			if got := follow(t, SourceListRoute(s), "circulars"); !slices.Equal(got, w) {
				t.Errorf("%s: %d circulars, want %d", s, len(got), len(w))
			}
			if got := follow(t, "/payment-body/"+strings.ToLower(s), "body-circulars"); !slices.Equal(got, w) {
				t.Errorf("payment body %s: %d circulars, want %d", s, len(got), len(w))
			}
		}
	})
	t.Run("ImpactTracker", func(t *testing.T) {
		// each list whole on its own pages; /impact-tracker the first page.
		// The generated circulars dated within the tracker's window, so
		// that its lists run to several pages.
		content := withCirculars(t, "testdata/content", 120)
		files, err := filepath.Glob(filepath.Join(content, "circulars", "bench-*.md"))
		if err != nil {
			t.Fatal(err)
		}
		// All from one regulator: more active circulars than the feeds
		// hold (see the released build below).
		date := regexp.MustCompile(`(?m)^publishedDate: .*$`)
		source := regexp.MustCompile(`(?m)^source: .*$`)
		for i, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d := fixtureNow.AddDate(0, 0, -i*2).Format(time.DateOnly)
			src = source.ReplaceAll(src, []byte("source: SEBI"))
			if err := os.WriteFile(f, date.ReplaceAll(src, []byte("publishedDate: "+d)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, res := buildSite(t, content, templatesDir)
		read := func(route string) *html.Node {
			t.Helper()
			return parseFile(t, filepath.Join(out, RoutePath(route)))
		}
		it := impactTracker(res.Catalog, fixtureNow, catalog.Circular.PreviewText)
		tracker := read("/impact-tracker")
		for _, l := range impactListsOf(it) {
			var w []string
			for _, v := range l.entries {
				w = append(w, v.Slug)
			}
			var got []string
			prev := ""
			for route := ImpactListRoute(l.level); route != ""; {
				doc := read(route)
				if c := link(doc, "canonical"); c != route {
					t.Errorf("%s: canonical %q", route, c)
				}
				if p := link(doc, "prev"); p != prev {
					t.Errorf("%s: rel=prev %q, want %q", route, p, prev)
				}
				got = append(got, impactSlugs(find(t, doc, "data-list", l.level+"-circulars"))...)
				prev, route = route, link(doc, "next")
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s lists %d circulars, want the %d active in order", ImpactListRoute(l.level), len(got), len(w))
			}
			first := impactSlugs(find(t, tracker, "data-list", l.level+"-circulars"))
			if !slices.Equal(first, w[:min(ListPageSize, len(w))]) {
				t.Errorf("/impact-tracker %s: %d circulars, want the first %d", l.level, len(first), min(ListPageSize, len(w)))
			}
			if more := findAll(tracker, "data-see-all", l.level); (len(more) == 1) != (len(w) > ListPageSize) {
				t.Errorf("/impact-tracker %s: %d See all links for %d circulars", l.level, len(more), len(w))
			}
		}
		// The search reads every entry of the lists, in their order.
		props, _ := attr(find(t, tracker, "data-island", "ImpactTracker"), "data-props")
		var p struct {
			Entries  string
			PageSize int
		}
		if err := json.Unmarshal([]byte(props), &p); err != nil || p.Entries != "/"+ImpactEntriesPath || p.PageSize != ListPageSize {
			t.Errorf("the tracker's island props %s (%v): want entries /%s and pageSize %d", props, err, ImpactEntriesPath, ListPageSize)
		}
		src, err := os.ReadFile(filepath.Join(out, ImpactEntriesPath))
		if err != nil {
			t.Fatal(err)
		}
		var entries map[string][]impactEntry
		if err := json.Unmarshal(src, &entries); err != nil {
			t.Fatalf("%s: %v", ImpactEntriesPath, err)
		}
		for _, l := range impactListsOf(it) {
			var w, got []string
			for _, v := range l.entries {
				w = append(w, v.Slug)
			}
			for _, e := range entries[l.level] {
				got = append(got, e.Slug)
				if e.ID == "" || e.Title == "" || e.Preview == "" || e.Source == "" || e.DocumentType == "" || e.PublishedDate.IsZero() {
					t.Errorf("%s %s: an entry without what the card shows: %+v", ImpactEntriesPath, l.level, e)
				}
			}
			if !slices.Equal(got, w) {
				t.Errorf("%s %s: %d entries, want the %d active in order", ImpactEntriesPath, l.level, len(got), len(w))
			}
			if len(w) > ListPageSize && len(findAll(tracker, "data-api-list", l.level+"-circulars")) != 1 {
				t.Errorf("/impact-tracker %s: no slot for the search's matches beyond the first page", l.level)
			}
		}
		if len(it.High) <= ListPageSize && len(it.Medium) <= ListPageSize {
			t.Errorf("only %d active circulars: the test wants a list of several pages", len(it.High)+len(it.Medium))
		}
		// More active circulars than the feeds hold: a build that lets the
		// texts go as it renders them (`regpulse build`'s) keeps theirs
		// for the tracker's previews, and writes the same bytes.
		released := filepath.Join(t.TempDir(), "public")
		if _, err := Build(t.Context(), Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets,
			OutDir: released, BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test",
			Now: func() time.Time { return fixtureNow }, ReleaseContent: true}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(outputListing(t, out), outputListing(t, released)); diff != "" {
			t.Errorf("texts released as rendered: output differs (-kept +released):\n%s", diff)
		}
	})
	t.Run("PerCategory", func(t *testing.T) {
		seen := 0
		for _, k := range []string{"Payment Systems", "UPI", "Security", "CBDC"} {
			w := want(func(i int) bool { return cat.Circulars[i].Category == k })
			if len(w) == 0 {
				continue
			}
			seen++
			if got := follow(t, CategoryListRoute(k), "circulars"); !slices.Equal(got, w) {
				t.Errorf("%s: %d circulars, want %d", k, len(got), len(w))
			}
		}
		if seen == 0 {
			t.Fatal("no category list checked")
		}
	})
	t.Run("FilterLinks", func(t *testing.T) {
		// the filter links lead to lists that exist, without JavaScript
		doc := read("/circulars/page/2")
		nav := find(t, doc, "data-list-filters", "*")
		n := 0
		for _, a := range elements(nav, "a") {
			href, _ := attr(a, "href")
			if _, err := os.Stat(filepath.Join(out, RoutePath(href))); err != nil {
				t.Errorf("filter link %s: %v", href, err)
			}
			n++
		}
		if n < 4 {
			t.Errorf("%d filter links", n)
		}
	})
	t.Run("SitemapIndex", func(t *testing.T) {
		type loc struct {
			Loc     string `xml:"loc"`
			LastMod string `xml:"lastmod"`
		}
		var idx struct {
			Sitemaps []loc `xml:"sitemap"`
		}
		raw, err := os.ReadFile(filepath.Join(out, SitemapPath))
		if err != nil || xml.Unmarshal(raw, &idx) != nil {
			t.Fatalf("sitemap index: %v", err)
		}
		if len(idx.Sitemaps) < 2 {
			t.Fatalf("%d sitemaps, want the pages split", len(idx.Sitemaps))
		}
		listed := map[string]string{}
		for _, s := range idx.Sitemaps {
			var set struct {
				URLs []loc `xml:"url"`
			}
			raw, err := os.ReadFile(filepath.Join(out, strings.TrimPrefix(s.Loc, base+"/")))
			if err != nil || xml.Unmarshal(raw, &set) != nil {
				t.Fatalf("%s: %v", s.Loc, err)
			}
			if len(set.URLs) > sitemapMaxURLs || len(set.URLs) == 0 {
				t.Errorf("%s: %d URLs", s.Loc, len(set.URLs))
			}
			newest := ""
			for _, u := range set.URLs {
				listed[strings.TrimPrefix(u.Loc, base)] = u.LastMod
				newest = max(newest, u.LastMod)
			}
			if s.LastMod != newest {
				t.Errorf("%s: lastmod %q, want its newest %q", s.Loc, s.LastMod, newest)
			}
		}
		for _, r := range append(Routes(cat, fixtureNow), "/circulars", "/payment-body") {
			if _, ok := listed[r]; !ok {
				t.Errorf("sitemap lacks %s", r)
			}
		}
		c := cat.Circulars[len(cat.Circulars)/2]
		if got := listed[circularRoute(c.Slug)]; got != c.PublishedDate.String() {
			t.Errorf("lastmod of %s = %q, want %s", c.Slug, got, c.PublishedDate)
		}
		if got := listed["/circulars/page/2"]; got != cat.Circulars[ListPageSize].PublishedDate.String() {
			t.Errorf("lastmod of /circulars/page/2 = %q, want its newest circular's date", got)
		}
	})
}

// impactSlugs are the circulars of an impact tracker list, in order.
func impactSlugs(list *html.Node) []string {
	var out []string
	for _, li := range elements(list, "li") {
		for _, a := range elements(li, "a") {
			href, _ := attr(a, "href")
			if s, ok := strings.CutPrefix(href, "/circulars/"); ok {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
