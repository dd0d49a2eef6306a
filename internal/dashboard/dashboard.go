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

// Stats are the dashboard's four counters.
type Stats struct {
	NewCirculars int `json:"newCirculars"` // circulars published in the window
	ImpactAlerts int `json:"impactAlerts"` // high-impact circulars published in the window
	LatestNews   int `json:"latestNews"`   // news items published in the window
	// ActiveUsers is the number of users whose last sign-in falls in the
	// window.
	ActiveUsers int `json:"activeUsers"`
}

// Window returns the first and last calendar day (midnight UTC) of the
// window ending on now's date in UTC.
func Window(now time.Time) (from, to time.Time) {
	return catalog.DaysEnding(now, WindowDays)
}
