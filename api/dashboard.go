package api

import "net/http"

// dashboardWindowDays is the dashboard's window: the 30 calendar days
// (UTC) ending today, today included.
const dashboardWindowDays = 30

// dashboardStats is GET /dashboard/stats. activeUsers is 0 until user
// accounts exist (see store.DashboardStats).
func (h *Handler) dashboardStats(w http.ResponseWriter, r *http.Request) {
	if err := noParams(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	today := h.now().UTC()
	st, err := h.store.DashboardStats(r.Context(), today.AddDate(0, 0, -(dashboardWindowDays-1)), today)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, dashboardStatsJSON{NewCirculars: st.NewCirculars, ImpactAlerts: st.ImpactAlerts,
		LatestNews: st.LatestNews, ActiveUsers: st.ActiveUsers})
}
