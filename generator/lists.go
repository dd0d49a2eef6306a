package generator

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
	"regpulse/internal/indian"
)

// ListPageSize is how many entries one page of a growing list holds
// (/circulars, its per-regulator and per-category lists, /search without
// a query, /news, a payment body's circulars). Each further page is a
// pre-rendered page of its own (/circulars/page/2), so no page grows with
// the archive.
const ListPageSize = 30

// pagedList is one list of the site split into pages: page 1 at base,
// page n at base/page/n. Items are positions in the catalog's circulars
// (kind "circulars") or news (kind "news"), in the list's order.
type pagedList struct {
	base   string    // route of page 1, e.g. /circulars/rbi
	title  localText // page 1's title; further pages add "(page n of N)"
	layout string
	kind   string // "circulars", "news" or "impact"
	items  []int
	// slugs are the catalog's circulars' slugs by position (kind
	// "circulars"): a page's entries are named by slug, so that a run of
	// the build holds only the views of those it shows (generator/render).
	slugs []string
	// entries are the impact tracker's views by position (kind "impact"):
	// its cards' 150-character previews are not the data's, so a page
	// carries its entries whole.
	entries []circularView
	// also are, by slug, the circulars an entry's row names beside it (a
	// consultation's final instruments): the page shows their views too.
	also map[string][]string
	// front is the front matter the list's pages share beyond the pager
	// (a payment body's slug, the filter a per-regulator list stands for).
	front map[string]any
	// file is page 1's content file when page 1 is a page of its own
	// (a per-regulator list); empty when it is a route written elsewhere
	// (staticRoutes, a body's page), which gets the pager through pagerFront.
	file string
}

// pages is how many pages the list has (an empty list still has page 1).
func (l pagedList) pages() int { return max(1, (len(l.items)+ListPageSize-1)/ListPageSize) }

// pageRoute is the route of page n.
func (l pagedList) pageRoute(n int) string {
	if n == 1 {
		return l.base
	}
	return l.base + "/page/" + strconv.Itoa(n)
}

// pagerFront is the front matter of page n: its entries and the links
// between pages (templates/_partials/pager.html, rel prev/next in the head).
func (l pagedList) pagerFront(n int) map[string]any {
	from := (n - 1) * ListPageSize
	to := min(from+ListPageSize, len(l.items))
	var items any = l.items[from:to]
	switch {
	case l.slugs != nil:
		items = l.itemSlugs(n)
	case l.entries != nil:
		items = l.entries[from:to]
	case from >= to:
		items = []int{}
	}
	p := map[string]any{"base": l.base, "page": n, "pages": l.pages(), "total": len(l.items),
		"kind": l.kind, "items": items, "first": from + 1, "last": to}
	p["links"] = l.pageLinks(n)
	if n > 1 {
		p["prev"] = l.pageRoute(n - 1)
	}
	if n < l.pages() {
		p["next"] = l.pageRoute(n + 1)
	}
	return p
}

// itemSlugs are the slugs of the circulars page n lists (none for news).
func (l pagedList) itemSlugs(n int) []string {
	if l.slugs == nil {
		return nil
	}
	from := (n - 1) * ListPageSize
	out := []string{}
	for _, i := range l.items[from:min(from+ListPageSize, len(l.items))] {
		out = append(out, l.slugs[i])
	}
	return out
}

// shows are the slugs of the circulars page n shows: those it lists and
// those their rows name (also), each once.
func (l pagedList) shows(n int) []string {
	out := l.itemSlugs(n)
	if l.also == nil {
		return out
	}
	seen := map[string]bool{}
	for _, s := range out {
		seen[s] = true
	}
	for _, s := range slices.Clone(out) {
		for _, a := range l.also[s] {
			if !seen[a] {
				seen[a] = true
				out = append(out, a)
			}
		}
	}
	return out
}

// pagerWindow is how many page numbers the pager shows on each side of
// the current page (besides the first and the last).
const pagerWindow = 2

// pageLinks are the page numbers the pager of page n shows: the first,
// the last and those within pagerWindow of n; a gap (n 0) stands for the
// pages left out between them.
func (l pagedList) pageLinks(n int) []map[string]any {
	var out []map[string]any
	gap := false
	for i := 1; i <= l.pages(); i++ {
		if i != 1 && i != l.pages() && (i < n-pagerWindow || i > n+pagerWindow) {
			if !gap {
				out = append(out, map[string]any{"n": 0})
				gap = true
			}
			continue
		}
		gap = false
		out = append(out, map[string]any{"n": i, "href": l.pageRoute(i), "current": i == n})
	}
	return out
}

// extraPages are the list's pages beyond those written elsewhere: page 1
// when the list has a file of its own, and every page from 2 on.
func (l pagedList) extraPages() []render.Page {
	first := 1 // the first page, unless it is a route of its own (sitePages)
	if l.file == "" {
		first = 2
	}
	out := make([]render.Page, max(0, l.pages()-first+1))
	// on every core: the lists of 100,000 circulars are some 30,000 pages
	_ = render.InBatches(context.Background(), len(out), 64, func(i int) error {
		out[i] = l.extraPage(first + i)
		return nil
	})
	return out
}

// extraPage is page n of the list, as extraPages makes it.
func (l pagedList) extraPage(n int) render.Page {
	front := map[string]any{"layout": l.layout, "pager": l.pagerFront(n)}
	for k, v := range l.front {
		front[k] = v
	}
	front["title"] = pageTitle(l.title, n, l.pages())
	file := l.file
	if n > 1 {
		file = strings.TrimPrefix(l.pageRoute(n), "/") + ".md"
	}
	front["url"] = l.pageRoute(n) + "/"
	p := render.Page{File: file, Front: front, Group: groupList, Shows: l.shows(n)}
	if itemsSetIn[l.layout] && l.also == nil {
		p.SetItemsIn()
	}
	return p
}

// itemsSetIn are the layouts whose further list pages read no view but
// their items (paged-circulars.html), which the build sets in: a list
// page of 30 items is some 90 partial calls less, and its run holds no
// views. (A body's first page, which reads its recent circulars, is the
// site's own; a list whose rows name other circulars, "also", reads those.)
var itemsSetIn = map[string]bool{"circulars": true, "search": true, "payment-body": true}

// pageTitle is the title of page n of a list: page 1 keeps the list's.
func pageTitle(title localText, n, pages int) localText {
	if n == 1 {
		return title
	}
	return keyText("title.paged", map[string]any{"Title": title, "N": indian.Int(n), "Pages": indian.Int(pages)})
}

// SourceListRoute is the route of a regulator's list of circulars.
func SourceListRoute(source string) string { return "/circulars/" + strings.ToLower(source) }

// CategoryListRoute is the route of a category's list of circulars.
func CategoryListRoute(category string) string {
	return "/circulars/category/" + strings.ToLower(strings.ReplaceAll(category, " ", "-"))
}

// reservedCircularSlugs are the names under /circulars/ the lists take.
func reservedCircularSlugs() map[string]bool {
	out := map[string]bool{"page": true, "category": true}
	for _, s := range catalog.Sources {
		out[strings.ToLower(s)] = true
	}
	return out
}

// checkListRoutes refuses a circular whose page would be one of the
// lists' routes (/circulars/rbi, /circulars/page).
func checkListRoutes(cat *catalog.Catalog) error {
	reserved := reservedCircularSlugs()
	for _, c := range cat.Circulars {
		if reserved[c.Slug] {
			return fmt.Errorf("%s: slug %q is taken by the list /circulars/%s: rename the file", c.Path, c.Slug, c.Slug)
		}
	}
	return nil
}

// siteLists are every paged list of the site, in the catalog's order
// (newest first); the impact tracker's are as of now.
func siteLists(cat *catalog.Catalog, now time.Time, preview previewFunc) []pagedList {
	all := make([]int, len(cat.Circulars))
	slugs := make([]string, len(cat.Circulars))
	bySource := map[string][]int{}
	byCategory := map[string][]int{}
	for i, c := range cat.Circulars {
		all[i], slugs[i] = i, c.Slug
		bySource[c.Source] = append(bySource[c.Source], i)
		byCategory[c.Category] = append(byCategory[c.Category], i)
	}
	news := make([]int, len(cat.News))
	for i := range news {
		news[i] = i
	}
	lists := []pagedList{
		{base: "/circulars", title: keyText("title.allCirculars", nil), layout: "circulars", kind: "circulars", items: all},
		{base: "/search", title: keyText("title.search", nil), layout: "search", kind: "circulars", items: all},
		{base: "/news", title: keyText("title.news", nil), layout: "news", kind: "news", items: news},
	}
	for _, s := range catalog.Sources {
		if items := bySource[s]; len(items) > 0 {
			title := keyText("title.sourceCirculars", map[string]any{"Source": s})
			if s == catalog.SourceOther {
				title = keyText("title.otherCirculars", nil)
			}
			base := SourceListRoute(s)
			lists = append(lists, pagedList{base: base, title: title, layout: "circulars", kind: "circulars", items: items,
				front: map[string]any{"filter": map[string]any{"source": s}}, file: strings.TrimPrefix(base, "/") + ".md"})
		}
	}
	for _, k := range catalog.CircularCategories {
		if items := byCategory[k]; len(items) > 0 {
			base := CategoryListRoute(k)
			lists = append(lists, pagedList{base: base, title: keyText("title.categoryCirculars", map[string]any{"Category": categoryName(k)}), layout: "circulars", kind: "circulars", items: items,
				front: map[string]any{"filter": map[string]any{"category": k}}, file: strings.TrimPrefix(base, "/") + ".md"})
		}
	}
	lists = append(lists, consultationsList(cat, now))
	for _, b := range cat.Bodies {
		lists = append(lists, pagedList{base: "/payment-body/" + b.Slug, title: asWritten(b.Name), layout: "payment-body", kind: "circulars",
			items: bySource[b.ShortName], front: map[string]any{"slug": b.Slug}})
	}
	for i := range lists {
		if lists[i].kind == "circulars" {
			lists[i].slugs = slugs
		}
	}
	return append(lists, impactLists(impactTrackerLists(cat, now, preview))...)
}

// impactLists are the impact tracker's three lists, each whole on pages
// of its own (/impact-tracker/high); /impact-tracker shows the first page
// of each.
func impactLists(it impactTrackerView) []pagedList {
	var out []pagedList
	for _, l := range impactListsOf(it) {
		items := make([]int, len(l.entries))
		for i := range items {
			items[i] = i
		}
		base := ImpactListRoute(l.level)
		out = append(out, pagedList{base: base, title: l.title, layout: "impact-list", kind: "impact", items: items,
			entries: l.entries, front: map[string]any{"level": l.level, "empty": l.empty},
			file: strings.TrimPrefix(base, "/") + ".md"})
	}
	return out
}

// ImpactListRoute is the route of one of the impact tracker's lists
// (high, medium, open).
func ImpactListRoute(level string) string { return "/impact-tracker/" + level }

// listRoutes are the routes of every list page but the first pages
// written elsewhere.
func listRoutes(lists []pagedList) []string {
	var out []string
	for _, l := range lists {
		for n := 1; n <= l.pages(); n++ {
			if n > 1 || l.file != "" {
				out = append(out, l.pageRoute(n))
			}
		}
	}
	return out
}

// circularListsView is what the filter links of /circulars lead to: the
// route of each regulator's and category's list, for those that have
// circulars, in the catalog's order.
type circularListsView struct {
	Sources       map[string]string `json:"sources"`
	SourceOrder   []string          `json:"sourceOrder"`
	Categories    map[string]string `json:"categories"`
	CategoryOrder []string          `json:"categoryOrder"`
}

func newCircularListsView(cat *catalog.Catalog) circularListsView {
	v := circularListsView{Sources: map[string]string{}, SourceOrder: []string{}, Categories: map[string]string{}, CategoryOrder: []string{}}
	has := map[string]bool{}
	for _, c := range cat.Circulars {
		has["s"+c.Source], has["c"+c.Category] = true, true
	}
	for _, s := range catalog.Sources {
		if has["s"+s] {
			v.Sources[s] = SourceListRoute(s)
			v.SourceOrder = append(v.SourceOrder, s)
		}
	}
	for _, k := range catalog.CircularCategories {
		if has["c"+k] {
			v.Categories[k] = CategoryListRoute(k)
			v.CategoryOrder = append(v.CategoryOrder, k)
		}
	}
	return v
}
