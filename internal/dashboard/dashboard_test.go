package dashboard

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

func TestWindow(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tc := range []struct {
		name     string
		now      time.Time
		from, to string
	}{
		{"Midday", time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC), "2025-06-01", "2025-06-30"},
		{"Midnight", time.Date(2025, 6, 30, 0, 0, 0, 0, time.UTC), "2025-06-01", "2025-06-30"},
		// Already 1 July in India, still 30 June in UTC: the window is by UTC date.
		{"UTCDate", time.Date(2025, 7, 1, 2, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), "2025-06-01", "2025-06-30"},
		{"AcrossYears", time.Date(2026, 1, 10, 8, 0, 0, 0, time.UTC), "2025-12-12", "2026-01-10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from, to := Window(tc.now)
			if !from.Equal(day(tc.from)) || !to.Equal(day(tc.to)) {
				t.Errorf("Window(%v) = %s..%s, want %s..%s", tc.now, from.Format(time.DateOnly), to.Format(time.DateOnly), tc.from, tc.to)
			}
			if days := int(to.Sub(from).Hours()/24) + 1; days != WindowDays {
				t.Errorf("window of %d days, want %d", days, WindowDays)
			}
		})
	}
}

func TestCount(t *testing.T) {
	day := func(s string) catalog.Date { d, _ := time.Parse(time.DateOnly, s); return catalog.Date{Time: d} }
	// Two await verification, one in the window and one long before it:
	// both count at any date.
	circulars := []catalog.Circular{
		{PublishedDate: day("2025-06-30"), ImpactLevel: "high", Verification: "checked"},
		{PublishedDate: day("2025-06-01"), ImpactLevel: "medium", Verification: "reported"}, // the window's first day
		{PublishedDate: day("2025-05-31"), ImpactLevel: "high"},                             // the day before it
		{PublishedDate: day("2025-07-01"), ImpactLevel: "high"},                             // after today
		{PublishedDate: day("2019-01-01"), ImpactLevel: "low", Verification: "pending"},
	}
	news := []catalog.NewsItem{{PublishedDate: day("2025-06-15")}, {PublishedDate: day("2025-05-01")}}
	on := func(s string) *catalog.Date { d := day(s); return &d }
	for _, tc := range []struct {
		name string
		now  time.Time
		want Stats
	}{
		// The last ones are as of today: not the circular of tomorrow.
		{"Bounds", time.Date(2025, 6, 30, 18, 0, 0, 0, time.UTC), Stats{NewCirculars: 2, ImpactAlerts: 1, LatestNews: 1, AwaitingVerification: 2,
			LastCircular: on("2025-06-30"), LastImpactAlert: on("2025-06-30"), LastNews: on("2025-06-15")}},
		{"NextDay", time.Date(2025, 7, 1, 0, 0, 0, 0, time.UTC), Stats{NewCirculars: 2, ImpactAlerts: 2, LatestNews: 1, AwaitingVerification: 2,
			LastCircular: on("2025-07-01"), LastImpactAlert: on("2025-07-01"), LastNews: on("2025-06-15")}},
		// Nothing in the window: the figures are 0, the last dates say when.
		{"LongAfter", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Stats{AwaitingVerification: 2,
			LastCircular: on("2025-07-01"), LastImpactAlert: on("2025-07-01"), LastNews: on("2025-06-15")}},
		{"Before", time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC), Stats{AwaitingVerification: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Count(circulars, news, tc.now)); diff != "" {
				t.Errorf("Count at %v (-want +got):\n%s", tc.now, diff)
			}
		})
	}
}

func TestMeanings(t *testing.T) {
	for _, k := range []string{"newCirculars", "impactAlerts", "latestNews", "activeUsers", "awaitingVerification"} {
		if Meanings[k] == "" {
			t.Errorf("no meaning for %s", k)
		}
	}
}

func TestListMax(t *testing.T) {
	if got := ListMax(); got != 20 {
		t.Errorf("ListMax() = %d, want 20 (5, 10, 15, then 20 > 15 hides the button)", got)
	}
}
