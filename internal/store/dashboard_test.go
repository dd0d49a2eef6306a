package store

import (
	"context"
	"testing"
	"time"

	"regpulse/internal/store/storetest"
)

func TestDashboardStats(t *testing.T) {
	ctx := context.Background()
	db := openSynced(t, storetest.Catalog())
	day := func(s string) time.Time { return storetest.Date(s).Time }
	for _, tc := range []struct {
		name     string
		from, to time.Time
		want     DashboardStats
	}{
		{"June", day("2025-06-01"), day("2025-06-30"), DashboardStats{NewCirculars: 3, ImpactAlerts: 1, LatestNews: 2}},
		{"BoundsIncluded", day("2025-06-20"), day("2025-06-21"), DashboardStats{NewCirculars: 1, ImpactAlerts: 1, LatestNews: 1}},
		{"TimeOfDayIgnored", day("2025-06-25").Add(23 * time.Hour), day("2025-06-25").Add(time.Hour), DashboardStats{NewCirculars: 1}},
		{"Empty", day("2030-01-01"), day("2030-01-31"), DashboardStats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.DashboardStats(ctx, tc.from, tc.to)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
