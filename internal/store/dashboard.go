package store

import (
	"context"
	"time"

	"regpulse/internal/dashboard"
)

// DashboardStats counts what was published in the dashboard's window
// ending on now's date (dashboard.Window), and the users who signed in
// within it (by the UTC date of their last sign-in).
func (s *DB) DashboardStats(ctx context.Context, now time.Time) (_ dashboard.Stats, err error) {
	defer wrap(&err, "DashboardStats")
	var st dashboard.Stats
	from, to := dashboard.Window(now)
	f, t := dateText(from), dateText(to)
	err = s.db.QueryRowContext(ctx, `SELECT
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ? AND impact_level = 'high'),
	(SELECT COUNT(*) FROM news WHERE published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM users WHERE substr(last_login_at, 1, 10) BETWEEN ? AND ?)`, f, t, f, t, f, t, f, t).
		Scan(&st.NewCirculars, &st.ImpactAlerts, &st.LatestNews, &st.ActiveUsers)
	if err != nil {
		return dashboard.Stats{}, err
	}
	return st, nil
}
