package api

import "net/http"

// impactTracking is GET /impact-tracking: one record per entity type.
func (h *Handler) impactTracking(w http.ResponseWriter, r *http.Request) {
	if err := noParams(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ImpactTracking(r.Context())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toImpactRecord))
}
