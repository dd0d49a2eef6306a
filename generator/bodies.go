package generator

import (
	"time"

	"regpulse/internal/catalog"
)

// relatedNewsLimit is how many related news items a body's sidebar lists.
const relatedNewsLimit = 5

// bodyView is what a payment body's page shows beyond its profile.
type bodyView struct {
	catalog.PaymentBody
	// CircularCount is how many circulars the body has: its page lists
	// them in pages of their own (siteLists), not from here.
	CircularCount int                `json:"circularCount"`
	RelatedNews   []catalog.NewsItem `json:"relatedNews"`
	// RecentCirculars are the slugs of the body's newest circulars in
	// force on the build's date (bodyRecent), its "Recent updates";
	// CircularsURL the list of all its circulars, when it has one.
	RecentCirculars []string `json:"recentCirculars"`
	CircularsURL    string   `json:"circularsUrl"`
}

// newBodyView collects the body's circulars and its related news: items
// whose source is the body, or that report one of its circulars, newest
// first.
func newBodyView(cat *catalog.Catalog, b catalog.PaymentBody, now time.Time) bodyView {
	v := bodyView{PaymentBody: b, RelatedNews: []catalog.NewsItem{}, RecentCirculars: bodyRecent(cat, b, now)}
	ours := map[string]bool{}
	for _, c := range cat.Circulars { // newest first
		if c.Source == b.ShortName {
			v.CircularCount++
			ours[c.Slug] = true
		}
	}
	if v.CircularCount > 0 {
		v.CircularsURL = SourceListRoute(b.ShortName)
	}
	for _, n := range cat.News { // newest first
		if len(v.RelatedNews) == relatedNewsLimit {
			break
		}
		if n.Source == b.ShortName || n.Source == b.Name || ours[string(n.Circular)] {
			v.RelatedNews = append(v.RelatedNews, n)
		}
	}
	return v
}

// bodyRecent is the slugs of the body's "Recent updates": its regulator's
// newest circulars in force on now (catalog.RecentFrom), which its page
// shows (so its Page.Shows them too).
func bodyRecent(cat *catalog.Catalog, b catalog.PaymentBody, now time.Time) []string {
	return slugsOf(cat.RecentFrom(b.Source(), now, catalog.RecentLimit))
}

// slugsOf is the circulars' slugs, in order, never nil.
func slugsOf(cs []catalog.Circular) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Slug
	}
	return out
}

// networkView is a payment network as its page shows it: the catalog's
// entry, the day its hand-kept guidelines were last known true, and the
// newest circulars about it in force on the build's date (networksRecent).
type networkView struct {
	catalog.Network
	GuidelinesAsOf  *catalog.Date    `json:"guidelinesAsOf"`
	CircularTerms   catalog.TextList `json:"circularTerms"`
	RecentCirculars []string         `json:"recentCirculars"`
}

func networkViews(cat *catalog.Catalog, recent [][]string) []networkView {
	out := make([]networkView, len(cat.Networks))
	for i, n := range cat.Networks {
		out[i] = networkView{Network: n, GuidelinesAsOf: n.GuidelinesAsOf, CircularTerms: n.CircularTerms,
			RecentCirculars: recent[i]}
	}
	return out
}

// networksRecent is the slugs of each of the catalog's networks' recent
// circulars (catalog.AboutNetworks), which its page shows: worked out
// once a build for the pages' data and the pages (each walks the
// circulars newest first, at 100,000 some 0.3 s).
func networksRecent(cat *catalog.Catalog, now time.Time) [][]string {
	about := cat.AboutNetworks(cat.Networks, now, catalog.RecentLimit)
	out := make([][]string, len(about))
	for i, cs := range about {
		out[i] = slugsOf(cs)
	}
	return out
}

// eventView is an event as pages show it: with its next edition as of
// the build's date (catalog.Event.NextEdition), nil when none is known.
type eventView struct {
	catalog.Event
	NextEdition *catalog.Edition `json:"nextEdition"`
}

func eventViews(cat *catalog.Catalog, now time.Time) []eventView {
	out := make([]eventView, len(cat.Events))
	for i, e := range cat.Events {
		out[i] = eventView{Event: e, NextEdition: e.NextEdition(now)}
	}
	return out
}

// sibosView is a Sibos edition as /sibos-events shows it: Past says
// whether it is over on the build's date (catalog.Edition.Past), and an
// edition the content still calls upcoming after its dates
// (catalog.Edition.StaleStatus) shows as completed, never as upcoming.
type sibosView struct {
	catalog.SibosEvent
	Past   bool   `json:"past"`
	Status string `json:"status"`
}

func sibosViews(cat *catalog.Catalog, now time.Time) []sibosView {
	out := make([]sibosView, len(cat.Sibos))
	for i, s := range cat.Sibos {
		e := s.Edition()
		out[i] = sibosView{SibosEvent: s, Past: e.Past(now), Status: s.Status}
		if e.StaleStatus(now) {
			out[i].Status = "completed"
		}
	}
	return out
}
