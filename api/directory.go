package api

import (
	"net/http"

	"regpulse/internal/catalog"
	"regpulse/internal/store"
)

// defaultDirectoryLimit is the limit of the directory lists (companies,
// regulations, networks, SIBOS events) when none is given: the cap itself,
// as they are curated lists of tens of entries that pages show whole.
const defaultDirectoryLimit = maxLimit

// listCompanies is GET /fintech-companies?limit&category.
func (h *Handler) listCompanies(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	q := store.CompanyQuery{
		Limit:    p.limit(defaultDirectoryLimit),
		Category: p.enum("category", catalog.CompanyCategories),
	}
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListCompanies(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toCompany))
}

// listRegulations is GET /pii-regulations?limit&country&status.
func (h *Handler) listRegulations(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	q := store.RegulationQuery{
		Limit:   p.limit(defaultDirectoryLimit),
		Country: p.enum("country", catalog.RegulationCountries),
		Status:  p.enum("status", catalog.RegulationStatuses),
	}
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListRegulations(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toRegulation))
}

// listNetworks is GET /payment-networks?limit.
func (h *Handler) listNetworks(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	limit := p.limit(defaultDirectoryLimit)
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListNetworks(r.Context(), limit)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toNetwork))
}

// listSibosEvents is GET /sibos-events?limit.
func (h *Handler) listSibosEvents(w http.ResponseWriter, r *http.Request) {
	p := newParams(r)
	limit := p.limit(defaultDirectoryLimit)
	if err := p.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	list, err := h.store.ListSibosEvents(r.Context(), limit)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, mapAll(list, toSibosEvent))
}
