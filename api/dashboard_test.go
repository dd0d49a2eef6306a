package api

import (
	"testing"
	"time"

	"regpulse/internal/store/storetest"
)

func TestHandler_DashboardStats(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	for _, tc := range []struct {
		name string
		now  time.Time
		want dashboardStatsJSON
	}{
		// 2025-06-01..30: circulars bima, fraud, lite (fraud high); news 06-21, 06-02.
		{"FixtureDay", storetest.Now, dashboardStatsJSON{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 2}},
		{"EndOfDay", time.Date(2025, 6, 30, 23, 59, 59, 0, time.UTC), dashboardStatsJSON{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 2}},
		// 2025-06-03..07-02: news of 06-02 drops out.
		{"TwoDaysLater", time.Date(2025, 7, 2, 0, 0, 0, 0, time.UTC), dashboardStatsJSON{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 1}},
		// 2025-06-21..07-20: only bima and the news of 06-21.
		{"ThreeWeeksLater", time.Date(2025, 7, 20, 8, 0, 0, 0, time.UTC), dashboardStatsJSON{NewCirculars: 1, LatestNews: 1}},
		// Later in India than in UTC: the window is by UTC date.
		{"UTCDate", time.Date(2025, 7, 21, 2, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), dashboardStatsJSON{NewCirculars: 1, LatestNews: 1}},
		{"LongAfter", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), dashboardStatsJSON{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := &fixture{db: f.db, api: New(f.db, discardLog, WithClock(func() time.Time { return tc.now }))}
			got := decode[dashboardStatsJSON](t, "/dashboard/stats", api.get(t, "/dashboard/stats"))
			if got != tc.want {
				t.Errorf("at %v: got %+v, want %+v", tc.now, got, tc.want)
			}
		})
	}
	runErrCases(t, f, []errCase{
		{"ErrUnknownParameter", "/dashboard/stats?days=7", 400, []string{"days"}},
	})
}
