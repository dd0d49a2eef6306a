package generator

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"regpulse/internal/dashboard"
)

// The dashboard's first screen as of a fixed build date: the figures are
// dashboard.Count of the content on that date, each with its meaning; the
// list holds every circular the filters can show, the first 5 visible.
func TestBuild_Dashboard(t *testing.T) {
	now := time.Date(2025, 8, 1, 0, 0, 0, 0, time.UTC)
	out, res := buildSiteAt(t, "../content", templatesDir, now)
	page := readOut(t, out, "index.html")
	want := dashboard.Count(res.Catalog.Circulars, res.Catalog.News, now)
	if want.NewCirculars == 0 {
		t.Fatal("pick a date with circulars in its window")
	}
	for key, n := range map[string]int{"newCirculars": want.NewCirculars, "impactAlerts": want.ImpactAlerts, "latestNews": want.LatestNews, "activeUsers": 0} {
		if s := fmt.Sprintf(`data-stat="%s">%d<`, key, n); !regexp.MustCompile(regexp.QuoteMeta(s)).MatchString(page) {
			t.Errorf("no %s", s)
		}
		if !regexp.MustCompile(regexp.QuoteMeta(dashboard.Meanings[key])).MatchString(page) {
			t.Errorf("no meaning for %s", key)
		}
	}

	// Under the cards, the circulars awaiting verification, of any date.
	if want.AwaitingVerification == 0 {
		t.Error("the content has no circular awaiting verification: nothing shows the count")
	}
	if s := fmt.Sprintf(`data-stat="awaitingVerification">%d</span> circulars awaiting verification`, want.AwaitingVerification); !strings.Contains(page, s) {
		t.Errorf("no %s", s)
	}

	wrappers := regexp.MustCompile(`<div data-fields="\{&#34;source&#34;:&#34;(\w+)&#34;\}"( hidden)?>`).FindAllStringSubmatch(page, -1)
	visible, per := 0, map[string]int{}
	for i, w := range wrappers {
		per[w[1]]++
		if w[2] == "" {
			visible++
			if i >= dashboard.PageSize {
				t.Errorf("card %d visible, want only the first %d", i, dashboard.PageSize)
			}
		}
	}
	if visible != dashboard.PageSize {
		t.Errorf("%d cards visible, want %d", visible, dashboard.PageSize)
	}
	for _, src := range dashboardSources {
		have := 0
		for _, c := range res.Catalog.Circulars {
			if c.Source == src {
				have++
			}
		}
		if w := min(have, dashboard.ListMax()); per[src] < w {
			t.Errorf("%d %s cards, want %d for the filter to reach its end", per[src], src, w)
		}
	}
	if len(wrappers) < min(len(res.Catalog.Circulars), dashboard.ListMax()) {
		t.Errorf("%d cards, want at least %d", len(wrappers), dashboard.ListMax())
	}
	for _, s := range res.Catalog.AdSlots {
		if !regexp.MustCompile(`data-ad-slot="` + s.Slug + `" data-ad-size="` + s.Size + `"`).MatchString(page) {
			t.Errorf("ad slot %s (%s) not on the dashboard", s.Slug, s.Size)
		}
	}
}
