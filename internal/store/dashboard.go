package store

import (
	"context"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
)

// DashboardStats counts what was published in the dashboard's window
// ending on now's date (dashboard.Window), the users who signed in
// within it (by the UTC date of their last sign-in), and the circulars
// awaiting verification (of any date).
func (s *DB) DashboardStats(ctx context.Context, now time.Time) (_ dashboard.Stats, err error) {
	defer wrap(&err, "DashboardStats")
	var st dashboard.Stats
	from, to := dashboard.Window(now)
	f, t := dateText(from), dateText(to)
	// The unchecked verifications are catalog's list, so the store counts
	// what dashboard.Count counts.
	unchecked := make([]any, len(catalog.UncheckedVerifications))
	for i, v := range catalog.UncheckedVerifications {
		unchecked[i] = v
	}
	args := append([]any{f, t, f, t, f, t, f, t}, unchecked...)
	args = append(args, t, t, t)
	err = s.db.QueryRowContext(ctx, `SELECT
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM circulars WHERE published_date BETWEEN ? AND ? AND impact_level = 'high'),
	(SELECT COUNT(*) FROM news WHERE published_date BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM users WHERE substr(last_login_at, 1, 10) BETWEEN ? AND ?),
	(SELECT COUNT(*) FROM circulars WHERE verification IN (`+placeholders(len(unchecked))+`)),
	(SELECT MAX(published_date) FROM circulars WHERE published_date <= ?),
	(SELECT MAX(published_date) FROM circulars WHERE published_date <= ? AND impact_level = 'high'),
	(SELECT MAX(published_date) FROM news WHERE published_date <= ?)`, args...).
		Scan(&st.NewCirculars, &st.ImpactAlerts, &st.LatestNews, &st.ActiveUsers, &st.AwaitingVerification,
			optDateColumn{&st.LastCircular}, optDateColumn{&st.LastImpactAlert}, optDateColumn{&st.LastNews})
	if err != nil {
		return dashboard.Stats{}, err
	}
	return st, nil
}
