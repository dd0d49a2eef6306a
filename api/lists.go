package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

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

// catalogListPage is listPage for a list of the catalog's entries: its
// answer also says how current the catalog is (X-Newest-Circular,
// X-Catalog-Updated), as the site's list pages do ("up to date as of").
func catalogListPage[Q, T any](h *Handler, w http.ResponseWriter, r *http.Request, page catalog.Page, q Q, find func(context.Context, Q) ([]T, int, error)) {
	listPage(h, w, r, page, q, func(ctx context.Context, q Q) ([]T, int, error) {
		items, total, err := find(ctx, q)
		if err != nil {
			return nil, 0, err
		}
		f, err := h.store.CatalogFreshness(ctx)
		if err != nil {
			return nil, 0, err
		}
		if f.NewestCircular != nil {
			w.Header().Set("X-Newest-Circular", f.NewestCircular.String())
		}
		if !f.UpdatedAt.IsZero() {
			w.Header().Set("X-Catalog-Updated", f.UpdatedAt.UTC().Format(time.RFC3339))
		}
		return items, total, nil
	})
}

// pageURL is u with the page set to limit entries from offset.
func pageURL(u *url.URL, limit, offset int) string {
	q := u.Query()
	q.Set("limit", strconv.Itoa(limit))
	q.Set("offset", strconv.Itoa(offset))
	return (&url.URL{Path: u.Path, RawQuery: q.Encode()}).String()
}

// cards readies circulars for the islands to draw as the site draws its
// cards: each with its preview and the circulars replacing it named (the
// "Superseded by" note).
func (h *Handler) cards(ctx context.Context, cs []catalog.Circular) ([]catalog.Circular, error) {
	catalog.WithPreviews(cs)
	slugs := catalog.ReplacingSlugs(cs)
	if len(slugs) == 0 {
		return cs, nil
	}
	refs, err := h.store.CircularRefs(ctx, slugs)
	if err != nil {
		return nil, err
	}
	return catalog.WithReplacements(cs, refs), nil
}

// circular looks up the circular with id, answering 404 (or the store's
// failure) when it cannot.
func (h *Handler) circular(w http.ResponseWriter, r *http.Request, id string) (catalog.Circular, bool) {
	c, err := h.store.Circular(r.Context(), id)
	if errors.Is(err, catalog.ErrNotFound) {
		err = errorStatus(http.StatusNotFound, "no circular with id "+id)
	}
	if err != nil {
		h.writeError(w, r, err)
		return c, false
	}
	return c, true
}
