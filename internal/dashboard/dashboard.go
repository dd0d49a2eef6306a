// Package dashboard holds the dashboard's counters and the window they
// count over, for the store that counts and the API that serves them.
package dashboard

import (
	"time"

	"regpulse/internal/catalog"
)

// WindowDays is the length of the window the counters cover: the 30
// calendar days (UTC) ending today, today included.
const WindowDays = 30

// Stats are the dashboard's four counters, and the count of circulars
// awaiting verification it shows beside them.
type Stats struct {
	NewCirculars int `json:"newCirculars"` // circulars published in the window
	ImpactAlerts int `json:"impactAlerts"` // high-impact circulars published in the window
	LatestNews   int `json:"latestNews"`   // news items published in the window
	// ActiveUsers is the number of users whose last sign-in falls in the
	// window.
	ActiveUsers int `json:"activeUsers"`
	// AwaitingVerification is the number of circulars, of any date, whose
	// entry is still to be checked against the regulator's text
	// (catalog.Circular.AwaitsVerification): a state, not news, so the
	// window does not apply.
	AwaitingVerification int `json:"awaitingVerification"`
	// LastCircular, LastImpactAlert and LastNews are the dates of the
	// newest circular, high-impact circular and news item up to the
	// window's end (nil: none), so that a figure of 0 can say when the
	// last one came rather than suggest nothing ever did.
	LastCircular    *catalog.Date `json:"lastCircular"`
	LastImpactAlert *catalog.Date `json:"lastImpactAlert"`
	LastNews        *catalog.Date `json:"lastNews"`
}

// Window returns the first and last calendar day (midnight UTC) of the
// window ending on now's date in UTC.
func Window(now time.Time) (from, to time.Time) {
	return catalog.DaysEnding(now, WindowDays)
}

// Meanings says what each counter counts, as the dashboard shows it under
// the figure; keys are the Stats' JSON names.
var Meanings = map[string]string{
	"newCirculars":         "Circulars published in the last 30 days",
	"impactAlerts":         "High-impact circulars published in the last 30 days",
	"latestNews":           "News items published in the last 30 days",
	"activeUsers":          "Users who signed in in the last 30 days",
	"awaitingVerification": "Circulars whose summary has not yet been checked against the regulator's own text",
}

// Count is the store's rule applied to content in memory: what the
// generator shows as of the build (the store counts the same; a store test
// checks they agree). ActiveUsers is left to the caller, who knows the
// users.
func Count(circulars []catalog.Circular, news []catalog.NewsItem, now time.Time) Stats {
	from, to := Window(now)
	in := func(d catalog.Date) bool { return !d.Before(from) && !d.After(to) }
	last := func(p **catalog.Date, d catalog.Date) {
		if !d.After(to) && (*p == nil || d.After((*p).Time)) {
			*p = &d
		}
	}
	var st Stats
	for _, c := range circulars {
		if c.AwaitsVerification() {
			st.AwaitingVerification++
		}
		last(&st.LastCircular, c.PublishedDate)
		if c.ImpactLevel == "high" {
			last(&st.LastImpactAlert, c.PublishedDate)
		}
		if in(c.PublishedDate) {
			st.NewCirculars++
			if c.ImpactLevel == "high" {
				st.ImpactAlerts++
			}
		}
	}
	for _, n := range news {
		last(&st.LastNews, n.PublishedDate)
		if in(n.PublishedDate) {
			st.LatestNews++
		}
	}
	return st
}

// The dashboard's lists (Recent Circulars, Latest Fintech News) show
// PageSize items, Load More adds PageStep, and the button is gone once
// more than HideAbove are shown: the product's rule, which keeps the
// dashboard a glance and sends a reader who wants more to /circulars
// and /news.
const (
	PageSize  = 5
	PageStep  = 5
	HideAbove = 15
)

// ListMax is the most a list can show: the first count past HideAbove.
func ListMax() int {
	n := PageSize
	for n <= HideAbove {
		n += PageStep
	}
	return n
}
