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

	// The first screen only: the newest PageSize circulars and news, all
	// visible; the filter and Load More ask the API.
	wrappers := regexp.MustCompile(`<div data-fields="\{&#34;source&#34;:&#34;(\w+)&#34;\}"( hidden)?>`).FindAllStringSubmatch(page, -1)
	if len(wrappers) != min(dashboard.PageSize, len(res.Catalog.Circulars)) {
		t.Errorf("%d circular cards, want the first %d", len(wrappers), dashboard.PageSize)
	}
	if strings.Contains(page, " hidden>") && regexp.MustCompile(`data-fields="[^"]*"\s+hidden`).MatchString(page) {
		t.Error("a hidden card: the page draws only what it shows")
	}
	for _, s := range res.Catalog.AdSlots {
		if !regexp.MustCompile(`data-ad-slot="` + s.Slug + `" data-ad-size="` + s.Size + `"`).MatchString(page) {
			t.Errorf("ad slot %s (%s) not on the dashboard", s.Slug, s.Size)
		}
	}
}
