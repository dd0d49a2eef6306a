package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"regpulse/internal/catalog"
)

// defaultListLimit is the page size of /circulars and /news when the call
// gives none. The directories (companies, regulations, networks, SIBOS
// events), curated lists of tens of entries that pages show whole, default
// to catalog.MaxLimit.
const defaultListLimit = 50

// list serves a list call: it reads the page (limit, offset) and the call's
// own parameters with query, asks find, and answers the page as a JSON
// array. A list never ends silently: X-Total-Count says how many entries
// the query matches, and while entries follow the page a Link header
// (RFC 8288) points at the next page.
func list[Q, T any](h *Handler, defaultLimit int, query func(*params, catalog.Page) Q, find func(context.Context, Q) ([]T, int, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := newParams(r)
		page := catalog.Page{Limit: p.limit(defaultLimit), Offset: p.offset()}
		q := query(p, page)
		if err := p.err(); err != nil {
			h.writeError(w, r, err)
			return
		}
		if fromCache(r, q) {
			return
		}
		items, total, err := find(r.Context(), q)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		if items == nil {
			items = []T{} // a list is [], never null
		}
		count := strconv.Itoa(total)
		w.Header().Set("X-Total-Count", count)
		if next := page.Offset + len(items); len(items) > 0 && next < total {
			w.Header().Set("Link", fmt.Sprintf(`<%s>; rel="next"`, pageURL(r.URL, page.Limit, next)))
		}
		h.writeOK(w, r, items, count)
	}
}

// pageURL is u with the page set to limit entries from offset.
func pageURL(u *url.URL, limit, offset int) string {
	q := u.Query()
	q.Set("limit", strconv.Itoa(limit))
	q.Set("offset", strconv.Itoa(offset))
	return (&url.URL{Path: u.Path, RawQuery: q.Encode()}).String()
}

// pageOnly is the query of a list with no parameters of its own.
func pageOnly(_ *params, page catalog.Page) catalog.Page { return page }

// circularQuery reads GET /circulars' source, category, search, sort,
// filter (the overall impact level), type and verification.
func circularQuery(p *params, page catalog.Page) catalog.CircularQuery {
	return catalog.CircularQuery{
		Source:       p.enum("source", catalog.Sources),
		Category:     p.enum("category", catalog.CircularCategories),
		Search:       p.search("search"),
		Sort:         choice(p, "sort", catalog.SortDate, catalog.CircularSorts),
		Impact:       p.enum("filter", catalog.ImpactLevels),
		Type:         p.enum("type", catalog.DocumentTypes),
		Verification: p.enum("verification", catalog.Verifications),
		Page:         page,
	}
}

// newsQuery reads GET /news' category, search and region.
func newsQuery(p *params, page catalog.Page) catalog.NewsQuery {
	return catalog.NewsQuery{
		Category: p.enum("category", catalog.NewsCategories),
		Search:   p.search("search"),
		Region:   p.enum("region", catalog.Regions),
		Page:     page,
	}
}

// companyQuery reads GET /fintech-companies' category.
func companyQuery(p *params, page catalog.Page) catalog.CompanyQuery {
	return catalog.CompanyQuery{Category: p.enum("category", catalog.CompanyCategories), Page: page}
}

// regulationQuery reads GET /pii-regulations' country and status.
func regulationQuery(p *params, page catalog.Page) catalog.RegulationQuery {
	return catalog.RegulationQuery{
		Country: p.enum("country", catalog.RegulationCountries),
		Status:  p.enum("status", catalog.RegulationStatuses),
		Page:    page,
	}
}
