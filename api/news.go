package api

import (
	"net/http"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
)

// listNews is GET /news?limit&category&search&region.
func (h *Handler) listNews(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	q := store.NewsQuery{
		Limit:    p.limit(defaultListLimit),
		Category: p.enum("category", catalog.NewsCategories),
		Search:   p.search("search"),
		Region:   p.enum("region", catalog.Regions),
	}
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListNews(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toNews))
}
