package store

import (
	"context"
	"fmt"
	"time"
)

// DashboardStats are the dashboard's four counters (SPEC.md section 3).
type DashboardStats struct {
	NewCirculars int // circulars published in the window
	ImpactAlerts int // high-impact circulars published in the window
	LatestNews   int // news items published in the window
	// ActiveUsers is 0: there are no user accounts yet. Once accounts land
	// it becomes the number of users who signed in within the window.
	ActiveUsers int
}

// DashboardStats counts what was published on the dates from through to
// (both included; only the calendar dates of from and to count).
func (s *DB) DashboardStats(ctx context.Context, from, to time.Time) (DashboardStats, error) {
	var st DashboardStats
	f, t := dateText(from), dateText(to)
	err := s.db.QueryRowContext(ctx, `SELECT
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ? AND impact_level = 'high'),
	(SELECT COUNT(*) FROM news WHERE published_date BETWEEN ? AND ?)`, f, t, f, t, f, t).
		Scan(&st.NewCirculars, &st.ImpactAlerts, &st.LatestNews)
	if err != nil {
		return DashboardStats{}, fmt.Errorf("store: DashboardStats: %w", err)
	}
	return st, nil
}
