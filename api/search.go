package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"reflect"

	"regpulse/api/apispec"
	"regpulse/internal/atom"
	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// The search calls: ranked search with its answer, and its Atom feed.

// searchParams are the parameters only the search calls take.
var searchParams = map[string]*apispec.Param{
	"SearchQuery": {Component: "SearchQuery", Name: "q", In: "query", Required: true, RequiredMessage: "the text to search for",
		Description: fmt.Sprintf("The text to search for (required; at most %d characters; surrounding spaces ignored). Words, phrases, plain questions and circular numbers as typed ('RBI/2021-22/96'); any query syntax characters are read as text.", search.MaxQueryLength),
		Schema:      apispec.Schema{Type: "string", MinLength: apispec.Int(1), MaxLength: apispec.Int(search.MaxQueryLength)}},
	"SearchPage": {Component: "SearchPage", Name: "page", In: "query",
		Description: fmt.Sprintf("The page of results, from 1 (%d circulars a page). A page beyond the last answers with no circulars and the true pagination.", search.PageSize),
		Schema:      apispec.Schema{Type: "integer", Default: 1, Minimum: apispec.Int(1), Maximum: apispec.Int(maxSearchPage)}},
}

type (
	searchIn struct {
		Q        string `param:"SearchQuery"`
		Page     int    `param:"SearchPage"`
		Source   string `param:"Source"`
		Category string `param:"CircularCategory"`
	}
	feedIn struct {
		Q        string `param:"SearchQuery"`
		Source   string `param:"Source"`
		Category string `param:"CircularCategory"`
	}
)

func searchRoutes() []*route {
	return []*route{
		// A search's answer is the same for the same query only when no
		// model writes it (a model's answer varies, and its failures fall
		// back).
		cachedBy(func(h *Handler) bool { return !h.ai.svc.HasModel() },
			handle(opSearch, func(h *Handler, w http.ResponseWriter, r *http.Request, in searchIn) {
				h.search(w, r, search.Query{Text: in.Q, Page: in.Page, Source: in.Source, Category: in.Category})
			})),
		cachedBy(always, handle(opSearchFeed, func(h *Handler, w http.ResponseWriter, r *http.Request, in feedIn) {
			h.searchFeed(w, r, search.Query{Text: in.Q, Source: in.Source, Category: in.Category, ByDate: true, Limit: feedEntries})
		})),
	}
}

var opSearch = &apispec.Operation{ID: "search", Method: "GET", Path: "/search",
	Summary:     "Ranked full-text search of the circulars, with a direct answer.",
	Description: "Ranks circulars for q: a circular number as typed first, then circulars with every term in their number, title or summary, then every term anywhere, then some terms; within each, matches in the number and title weigh most. Words match across British and American spellings and stems; a word the index lacks is completed as a prefix or corrected to the nearest indexed word (correction says so). Queries about UPI ('upi', 'unified payment') sort the strong matches newest first (latest). The answer is extractive: the passage of the best circulars (or provisions) that holds most of the query's terms, with a confidence from 0 to 1, or a null directAnswer when none answers well. Facets count the matches per source and category, each with the other filter applied. provisions lists apart the Master Directions' provisions in force today that match best (up to 3; the source filter applies; none with a category filter), each naming its direction, paragraph and heading with a link to it on the direction's page; the direct answer may be drawn from one of them, and then answer.provision cites it.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[search.Response]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opSearchFeed = &apispec.Operation{ID: "searchFeed", Method: "GET", Path: "/search/feed",
	Summary:     "A search as an Atom feed.",
	Description: "The newest 50 circulars holding every term of q (with the source and category filters), newest first, as Atom 1.0 (RFC 4287), so a search can be followed in a feed reader.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/atom+xml", Raw: map[string]any{"type": "string"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

// Searcher is what the search calls need from persistence.
type Searcher interface {
	// Search ranks the circulars for a query (package search's rules);
	// it returns search.ErrEmptyQuery or search.ErrQueryTooLong for a
	// query it cannot run.
	Search(ctx context.Context, q search.Query) (search.Response, error)
}

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
	parts, err := h.circularParts(r.Context(), res)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeSearch(w, r, res, parts)
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
