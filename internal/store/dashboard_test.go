package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/dashboard"
	"regpulse/internal/store/storetest"
)

func TestDB_DashboardStats(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		for _, tc := range []struct {
			name string
			now  time.Time
			want dashboard.Stats
		}{
			// 2025-06-01..30: circulars bima, fraud, lite (fraud high); news 06-21, 06-02.
			// Awaiting verification, whatever the date: lite (reported) and
			// token (pending, outside every window).
			{"FixtureDay", storetest.Now, dashboard.Stats{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 2, AwaitingVerification: 2}},
			{"EndOfDay", time.Date(2025, 6, 30, 23, 59, 59, 0, time.UTC), dashboard.Stats{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 2, AwaitingVerification: 2}},
			// 2025-06-03..07-02: the news of 06-02 drops out.
			{"TwoDaysLater", time.Date(2025, 7, 2, 0, 0, 0, 0, time.UTC), dashboard.Stats{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 1, AwaitingVerification: 2}},
			// 2025-06-21..07-20: only bima and the news of 06-21, both on the window's bounds.
			{"ThreeWeeksLater", time.Date(2025, 7, 20, 8, 0, 0, 0, time.UTC), dashboard.Stats{NewCirculars: 1, LatestNews: 1, AwaitingVerification: 2}},
			// Later in India than in UTC: the window is by UTC date.
			{"UTCDate", time.Date(2025, 7, 21, 2, 0, 0, 0, time.FixedZone("IST", 5*3600+1800)), dashboard.Stats{NewCirculars: 1, LatestNews: 1, AwaitingVerification: 2}},
			{"LongAfter", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), dashboard.Stats{AwaitingVerification: 2}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := db.DashboardStats(t.Context(), tc.now)
				if err != nil {
					t.Fatal(err)
				}
				full := got
				// The dates of the last ones are Count's (compared below).
				got.LastCircular, got.LastImpactAlert, got.LastNews = nil, nil, nil
				if got != tc.want {
					t.Errorf("at %v: got %+v, want %+v", tc.now, got, tc.want)
				}
				// The generator counts the build's content with dashboard.Count:
				// the same figures as the store's.
				cat := storetest.Catalog()
				if diff := cmp.Diff(dashboard.Count(cat.Circulars, cat.News, tc.now), full); diff != "" {
					t.Errorf("at %v: dashboard.Count and the store differ (-count +store):\n%s", tc.now, diff)
				}
			})
		}
	})
}
