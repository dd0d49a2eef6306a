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

// listPage answers a list call's page of find's answer to q as a JSON
// array. A list never ends silently: X-Total-Count says how many entries
// the query matches, and while entries follow the page a Link header
// (RFC 8288) points at the next page.
func listPage[Q, T any](h *Handler, w http.ResponseWriter, r *http.Request, page catalog.Page, q Q, find func(context.Context, Q) ([]T, int, error)) {
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

// pageURL is u with the page set to limit entries from offset.
func pageURL(u *url.URL, limit, offset int) string {
	q := u.Query()
	q.Set("limit", strconv.Itoa(limit))
	q.Set("offset", strconv.Itoa(offset))
	return (&url.URL{Path: u.Path, RawQuery: q.Encode()}).String()
}
