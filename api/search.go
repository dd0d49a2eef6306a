package api

import (
	"net/http"
	"net/url"

	"regpulse/internal/atom"
	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// maxSearchPage is the highest page number a search accepts: beyond every
// real result set, low enough that the offset stays small.
const maxSearchPage = 10_000

// feedEntries is how many circulars a search's feed holds.
const feedEntries = 50

// search is GET /search: one page of ranked circulars with the answer,
// the pagination, the facet counts and any correction.
func (h *Handler) search(w http.ResponseWriter, r *http.Request, q search.Query) {
	if fromCache(r, q) {
		return
	}
	res, err := h.store.Search(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.withModelAnswer(r.Context(), q.Text, &res)
	if res.Circulars, err = h.cards(r.Context(), res.Circulars); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, res)
}

// searchFeed is GET /search/feed: the circulars holding every term of the
// query, newest first, as Atom 1.0, so a query can be followed in a feed
// reader.
func (h *Handler) searchFeed(w http.ResponseWriter, r *http.Request, q search.Query) {
	if fromCache(r, q) {
		return
	}
	res, err := h.store.Search(r.Context(), q)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	body, err := searchAtom(siteOrigin(r), q, res.Circulars)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeRevalidated(w, r, "application/atom+xml; charset=utf-8", body)
}

// siteOrigin is the scheme and host the request reached, for the feed's
// absolute links.
func siteOrigin(r *http.Request) string {
	return requestScheme(r) + "://" + r.Host
}

// requestScheme is the scheme the request reached: https behind a proxy
// that says so.
func requestScheme(r *http.Request) string {
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		return "https"
	}
	return "http"
}

// searchAtom renders a search's feed (RFC 4287). Its id is the search
// page's address, stable for the same query and filters.
func searchAtom(origin string, q search.Query, cs []catalog.Circular) ([]byte, error) {
	v := url.Values{"q": {q.Text}}
	if q.Source != "" {
		v.Set("source", q.Source)
	}
	if q.Category != "" {
		v.Set("category", q.Category)
	}
	page := origin + "/search?" + v.Encode()
	return circularsAtom(cs, "RegPulse search: "+q.Text, page, origin+"/api/search/feed?"+v.Encode(), page, origin)
}

// circularsAtom renders circulars as an Atom feed (RFC 4287) titled
// title, with id, its own address self and the page it mirrors page.
func circularsAtom(cs []catalog.Circular, title, id, self, page, origin string) ([]byte, error) {
	updated := atom.EmptyUpdated
	if len(cs) > 0 {
		updated = cs[0].PublishedDate.Time
	}
	feed := atom.Feed{
		Title:   title,
		ID:      id,
		Updated: atom.Date(updated),
		Links: []atom.Link{
			{Rel: "self", Type: "application/atom+xml", Href: self},
			{Rel: "alternate", Type: "text/html", Href: page},
		},
		Author: atom.Person{Name: "RegPulse"},
	}
	for _, c := range cs {
		e := atom.Entry{
			Title:      c.Heading(),
			ID:         "urn:uuid:" + c.ID,
			Links:      []atom.Link{{Rel: "alternate", Type: "text/html", Href: origin + "/circulars/" + c.Slug}},
			Published:  atom.Date(c.PublishedDate.Time),
			Updated:    atom.Date(c.PublishedDate.Time),
			Author:     atom.Person{Name: c.Source},
			Categories: []atom.Category{{Term: c.Category}},
		}
		if l := catalog.VerificationLabel(string(c.Verification)); l != "" {
			e.Categories = append(e.Categories, atom.Category{Term: l}) // as the site's feeds say it
		}
		if c.Summary != "" {
			e.Summary = &atom.Text{Type: "text", Body: string(c.Summary)}
		}
		if c.OfficialURL != "" {
			e.Links = append(e.Links, atom.Link{Rel: "related", Href: string(c.OfficialURL)})
		}
		feed.Entries = append(feed.Entries, e)
	}
	return atom.Marshal(feed)
}
