package generator

import (
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
)

// dashboardSources are the Recent Circulars filter's buttons besides All.
var dashboardSources = []string{"RBI", "NPCI", "SEBI"}

// statView is one of the dashboard's stat cards: its figure as of the build
// (the StatsRefresh island replaces it with the API's), what it counts, and
// where it leads.
type statView struct {
	Key     string `json:"key"` // the dashboard.Stats JSON name
	Label   string `json:"label"`
	Value   int    `json:"value"`
	Meaning string `json:"meaning"`
	Href    string `json:"href"`
	// LastKey names the dashboard.Stats field of the date of the last
	// one counted ("" when none applies), Last its value as of the build:
	// a figure of 0 says when the last came rather than a bare 0.
	LastKey string        `json:"lastKey"`
	Last    *catalog.Date `json:"last"`
}

// dashboardView is what templates/dashboard.html shows beyond the catalog,
// its labels in one language.
type dashboardView struct {
	Stats []statView `json:"stats"`
	// Awaiting is the count of circulars awaiting verification, shown
	// under the four cards (its Label the noun for its Value).
	Awaiting statView `json:"awaiting"`
	// Circulars are the slugs of the newest dashboard.PageSize circulars,
	// the list's first screen; Load More and the source filter ask the API.
	Circulars []string           `json:"circulars"`
	News      []catalog.NewsItem `json:"news"`
	Sources   []string           `json:"sources"`
	Lists     map[string]int     `json:"lists"` // pageSize, step, hideAbove
	// Slots are the ad slots by placement, then size (from content/adslots).
	Slots map[string][]catalog.AdSlot `json:"slots"`
	Ads   []catalog.Ad                `json:"ads"`
}

func newDashboardView(cat *catalog.Catalog, now time.Time, activeUsers int, code string) dashboardView {
	st := dashboard.Count(cat.Circulars, cat.News, now)
	st.ActiveUsers = activeUsers
	stats := []statView{
		{"newCirculars", "", st.NewCirculars, "", "/search", "lastCircular", st.LastCircular},
		{"impactAlerts", "", st.ImpactAlerts, "", "/impact-tracker", "lastImpactAlert", st.LastImpactAlert},
		{"latestNews", "", st.LatestNews, "", "/news", "lastNews", st.LastNews},
		{"activeUsers", "", st.ActiveUsers, "", "/global-fintech", "", nil},
	}
	for i := range stats {
		stats[i].Label = labelOf("stat.%s", stats[i].Key).In(code)
		stats[i].Meaning = labelOf("stat.%sMeaning", stats[i].Key).In(code)
	}
	// the noun of the figure, one or many (dashboard.Meanings in English)
	awaiting := statView{Key: "awaitingVerification", Value: st.AwaitingVerification,
		Label:   keyText("stat.awaitingVerification", map[string]any{"Count": st.AwaitingVerification}).In(code),
		Meaning: keyText("stat.awaitingVerificationMeaning", nil).In(code)}

	// The first screen only: the newest PageSize circulars and news. The
	// source filter and Load More ask the API (DashboardList), so the page
	// does not grow with what a filter can reach.
	var slugs []string
	for _, c := range cat.Circulars[:min(dashboard.PageSize, len(cat.Circulars))] {
		slugs = append(slugs, c.Slug)
	}
	news := cat.News[:min(dashboard.PageSize, len(cat.News))]
	slots := map[string][]catalog.AdSlot{}
	for _, s := range cat.AdSlots {
		slots[s.Placement] = append(slots[s.Placement], s)
	}
	return dashboardView{
		Stats:     stats,
		Awaiting:  awaiting,
		Circulars: slugs,
		News:      news,
		Sources:   dashboardSources,
		Lists:     map[string]int{"pageSize": dashboard.PageSize, "step": dashboard.PageStep, "hideAbove": dashboard.HideAbove},
		Slots:     slots,
		Ads:       cat.Ads,
	}
}
