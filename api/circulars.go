package api

import (
	"net/http"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
)

// defaultListLimit is the limit of /circulars and /news when none is given.
const defaultListLimit = 50

var circularSorts = []string{string(store.SortDate), string(store.SortRelevance), string(store.SortImpact)}

// listCirculars is GET /circulars?limit&source&category&search&sort&filter.
func (h *Handler) listCirculars(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	q := store.CircularQuery{
		Limit:    p.limit(defaultListLimit),
		Source:   p.enum("source", catalog.Sources),
		Category: p.enum("category", catalog.CircularCategories),
		Search:   p.search("search"),
		Sort:     store.CircularSort(p.choice("sort", string(store.SortDate), circularSorts)),
		Impact:   p.enum("filter", catalog.ImpactLevels),
	}
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListCirculars(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toCircular))
}
