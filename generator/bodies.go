package generator

import "regpulse/internal/catalog"

// relatedNewsLimit is how many related news items a body's sidebar lists.
const relatedNewsLimit = 5

// bodyView is what a payment body's page shows beyond its profile.
type bodyView struct {
	catalog.PaymentBody
	// CircularCount is how many circulars the body has: its page lists
	// them in pages of their own (siteLists), not from here.
	CircularCount int                `json:"circularCount"`
	RelatedNews   []catalog.NewsItem `json:"relatedNews"`
}

// newBodyView collects the body's circulars and its related news: items
// whose source is the body, or that report one of its circulars, newest
// first.
func newBodyView(cat *catalog.Catalog, b catalog.PaymentBody) bodyView {
	v := bodyView{PaymentBody: b, RelatedNews: []catalog.NewsItem{}}
	ours := map[string]bool{}
	for _, c := range cat.Circulars { // newest first
		if c.Source == b.ShortName {
			v.CircularCount++
			ours[c.Slug] = true
		}
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
