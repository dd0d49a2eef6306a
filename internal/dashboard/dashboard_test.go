package dashboard

import (
	"testing"
	"time"
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
