package generator

import (
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// impactTrackerView is the /impact-tracker page's data as of the build:
// the records GET /api/impact-tracking serves (the store keeps what
// impact.Records computes at each sync, the same computation), and the
// active circulars (impact.IsActive), with 150-character previews.
type impactTrackerView struct {
	Entities []impact.Record `json:"entities"`
	High     []circularView  `json:"high"`
	Medium   []circularView  `json:"medium"`
	// Open are the active drafts and consultation papers: no obligation yet.
	Open       []circularView `json:"open"`
	WindowDays int            `json:"windowDays"`
	Rule       string         `json:"rule"`
}

// impactList is one of the tracker's lists, as its section and its own
// pages (impactLists) name it.
type impactList struct {
	level        string
	title, empty localText
	entries      []circularView
}

func impactListsOf(it impactTrackerView) []impactList {
	list := func(level string, entries []circularView) impactList {
		return impactList{level, labelOf("impactSection.%s", level), labelOf("impactSection.%sEmpty", level), entries}
	}
	return []impactList{list("high", it.High), list("medium", it.Medium), list("open", it.Open)}
}

// impactSectionView is a list as /impact-tracker shows it: the first
// page of its entries, with its total and its own pages' route.
type impactSectionView struct {
	Level string         `json:"level"`
	Title string         `json:"title"`
	Empty string         `json:"empty"`
	Items []circularView `json:"items"`
	Total int            `json:"total"`
	Route string         `json:"route"`
}

// impactPageView is /impact-tracker's data: the entity cards, and the
// first page of each list, named in one language.
type impactPageView struct {
	Entities   []impact.Record     `json:"entities"`
	Sections   []impactSectionView `json:"sections"`
	WindowDays int                 `json:"windowDays"`
	Rule       string              `json:"rule"`
	// Entries is where the tracker's search finds every entry of the
	// lists (ImpactEntriesPath); empty while each list fits on the page.
	Entries string `json:"entries"`
}

func newImpactPageView(it impactTrackerView, code string) impactPageView {
	entities := make([]impact.Record, len(it.Entities))
	for i, e := range it.Entities {
		e.Name = entityName(e.EntityType).In(code)
		entities[i] = e
	}
	return impactPageView{Entities: entities, Sections: impactSections(it, code), WindowDays: it.WindowDays,
		Rule: keyText("impactSection.activeRule", nil).In(code)}
}

// fits reports whether /impact-tracker shows every entry of its lists.
func (it impactTrackerView) fits() bool {
	for _, l := range impactListsOf(it) {
		if len(l.entries) > ListPageSize {
			return false
		}
	}
	return true
}

// ImpactEntriesPath holds every entry of the tracker's lists, which its
// search reads once someone searches: /impact-tracker shows the first
// ListPageSize of each, and the search (entity types or circular
// numbers, as typed in its box) runs in the browser, over all of them. The lists hold the active circulars only, a year's worth or
// so, not the archive: some thousands at the real archive's size, a few
// hundred KB gzipped, read only by someone who searches.
const ImpactEntriesPath = "impact-tracker/entries.json"

// ImpactEntriesMaxGzip caps the entries as FallbackIndexMaxGzip caps
// /search's index: beyond it they are not written, and the tracker's
// search covers the first page of each list, as the page then says.
const ImpactEntriesMaxGzip = FallbackIndexMaxGzip

// impactEntry is a circular of the tracker's lists with the fields that
// _partials/impact-circular.html shows and the search matches (number,
// title, id and slug); the island draws a match with them.
type impactEntry struct {
	ID             string            `json:"id"`
	Slug           string            `json:"slug"`
	CircularNumber catalog.OptString `json:"circularNumber"`
	Title          string            `json:"title"`
	Preview        string            `json:"preview"`
	Lang           string            `json:"lang"` // catalog.Circular.Lang
	Source         string            `json:"source"`
	DocumentType   string            `json:"documentType"`
	Verification   catalog.OptString `json:"verification"`
	PublishedDate  catalog.Date      `json:"publishedDate"`
}

// impactEntries is ImpactEntriesPath's JSON: each list's entries by its
// level (high, medium, open), in the list's order; nil when every list
// fits on the page, or when the entries would pass ImpactEntriesMaxGzip.
func impactEntries(it impactTrackerView) ([]byte, error) {
	if it.fits() {
		return nil, nil
	}
	out := map[string][]impactEntry{}
	for _, l := range impactListsOf(it) {
		entries := make([]impactEntry, len(l.entries))
		for i, v := range l.entries {
			entries[i] = impactEntry{ID: v.ID, Slug: v.Slug, CircularNumber: v.CircularNumber, Title: v.Title, Preview: v.Preview, Lang: v.Lang,
				Source: v.Source, DocumentType: v.DocumentType, Verification: v.Verification, PublishedDate: v.PublishedDate}
		}
		out[l.level] = entries
	}
	return jsonWithin(out, ImpactEntriesMaxGzip)
}

// impactSections are the three lists of /impact-tracker: at most
// ListPageSize entries each, the rest on the list's own pages.
func impactSections(it impactTrackerView, code string) []impactSectionView {
	var out []impactSectionView
	for _, l := range impactListsOf(it) {
		out = append(out, impactSectionView{Level: l.level, Title: l.title.In(code), Empty: l.empty.In(code),
			Items: l.entries[:min(ListPageSize, len(l.entries))], Total: len(l.entries), Route: ImpactListRoute(l.level)})
	}
	return out
}

// previewFunc is a circular's preview of n characters: texts.preview in
// a build (the texts may be let go: Options.ReleaseContent), the
// circular's own PreviewText elsewhere, noPreview where none is read.
type previewFunc func(c catalog.Circular, n int) string

// noPreview is the preview of what reads routes only (Routes, sitemaps).
func noPreview(catalog.Circular, int) string { return "" }

// impactTracker is the tracker's page's data: its entity records and
// its lists.
func impactTracker(cat *catalog.Catalog, now time.Time, preview previewFunc) impactTrackerView {
	it := impactTrackerLists(cat, now, preview)
	it.Entities = impact.Records(cat.Circulars, now)
	return it
}

// impactTrackerLists is impactTracker without the entity records, which
// only the tracker's page shows: what the lists' pages, their entries'
// file and the texts kept read, once each a build (the records walk
// every circular's obligations: at 100,000 circulars 0.1 s each time).
func impactTrackerLists(cat *catalog.Catalog, now time.Time, preview previewFunc) impactTrackerView {
	views := func(cs []catalog.Circular) []circularView {
		out := []circularView{}
		for _, c := range cs {
			c.Preview = preview(c, catalog.ImpactPreviewLen)
			out = append(out, newCircularView(c, []string{}, now))
		}
		return out
	}
	return impactTrackerView{
		High:       views(impact.Active(cat.Circulars, "high", now)),
		Medium:     views(impact.Active(cat.Circulars, "medium", now)),
		Open:       views(impact.Open(cat.Circulars, now)),
		WindowDays: impact.WindowDays,
		Rule:       impact.ActiveRule,
	}
}

// entityType is an entity type and the name pages show for it.
type entityType struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

func entityTypes(code string) []entityType {
	out := make([]entityType, len(catalog.EntityTypes))
	for i, t := range catalog.EntityTypes {
		out[i] = entityType{Type: t, Name: entityName(t).In(code)}
	}
	return out
}
