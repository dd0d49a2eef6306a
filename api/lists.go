package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/impact"
)

// The catalog's lists, one circular, the impact tracking and the
// dashboard's counters: public reads, the same for everyone, through the
// read cache.

// listParams are the parameters only the lists take.
var listParams = map[string]*apispec.Param{
	"NewsCategory": filter("NewsCategory", "category", catalog.NewsCategories, "Only news of this category."+filterNote),
	"NewsSearch": {Component: "NewsSearch", Name: "search", In: "query",
		Description: fmt.Sprintf("Case-insensitive substring of the title, excerpt or category (at most %d characters).", maxSearchLength),
		Schema:      apispec.Schema{Type: "string", MaxLength: apispec.Int(maxSearchLength)}},
	"Region":          filter("Region", "region", catalog.Regions, "Only news of this region."+filterNote),
	"CompanyCategory": filter("CompanyCategory", "category", catalog.CompanyCategories, "Only companies of this category."+filterNote),
	"Country":         filter("Country", "country", catalog.RegulationCountries, "Only regulations of this jurisdiction."+filterNote),
	"Status":          filter("Status", "status", catalog.RegulationStatuses, "Only regulations with this status."+filterNote),
}

type (
	circularsIn struct {
		Limit  int `param:"Limit50"`
		Offset int `param:"Offset"`
		circularFilters
	}
	newsIn struct {
		Limit    int    `param:"Limit50"`
		Offset   int    `param:"Offset"`
		Category string `param:"NewsCategory"`
		Search   string `param:"NewsSearch"`
		Region   string `param:"Region"`
	}
	companiesIn struct {
		Limit    int    `param:"Limit100"`
		Offset   int    `param:"Offset"`
		Category string `param:"CompanyCategory"`
	}
	regulationsIn struct {
		Limit   int    `param:"Limit100"`
		Offset  int    `param:"Offset"`
		Country string `param:"Country"`
		Status  string `param:"Status"`
	}
)

func listRoutes() []*route {
	return []*route{
		cachedBy(always, handle(opListCirculars, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, in.query(page), func(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
				cs, total, err := h.store.ListCirculars(ctx, q)
				if err != nil {
					return nil, 0, err
				}
				cs, err = h.cards(ctx, cs)
				return cs, total, err
			})
		})),
		cachedBy(always, handle(opGetCircular, func(h *Handler, w http.ResponseWriter, r *http.Request, in circularIn) {
			if c, ok := h.circular(w, r, in.ID); ok {
				cs, err := h.cards(r.Context(), []catalog.Circular{c}) // as its entry in the lists
				if err != nil {
					h.writeError(w, r, err)
					return
				}
				h.writeOK(w, r, cs[0])
			}
		})),
		cachedBy(always, handle(opListNews, func(h *Handler, w http.ResponseWriter, r *http.Request, in newsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.NewsQuery{Category: in.Category, Search: in.Search, Region: in.Region, Page: page},
				func(ctx context.Context, q catalog.NewsQuery) ([]catalog.NewsItem, int, error) {
					ns, total, err := h.store.ListNews(ctx, q)
					return catalog.WithNewsLangs(ns), total, err
				})
		})),
		cachedBy(always, handle(opListFintechCompanies, func(h *Handler, w http.ResponseWriter, r *http.Request, in companiesIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.CompanyQuery{Category: in.Category, Page: page}, h.store.ListCompanies)
		})),
		cachedBy(always, handle(opListPIIRegulations, func(h *Handler, w http.ResponseWriter, r *http.Request, in regulationsIn) {
			page := catalog.Page{Limit: in.Limit, Offset: in.Offset}
			catalogListPage(h, w, r, page, catalog.RegulationQuery{Country: in.Country, Status: in.Status, Page: page}, h.store.ListRegulations)
		})),
		cachedBy(always, handle(opListPaymentNetworks, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			catalogListPage(h, w, r, in.page(), in.page(), h.store.ListNetworks)
		})),
		cachedBy(always, handle(opListSibosEvents, func(h *Handler, w http.ResponseWriter, r *http.Request, in pageIn) {
			catalogListPage(h, w, r, in.page(), in.page(), h.store.ListSibosEvents)
		})),
		cachedBy(always, handle(opImpactTracking, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.impactTracking(w, r) })),
		cachedBy(always, handle(opDashboardStats, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.dashboardStats(w, r) })),
	}
}

var opListCirculars = &apispec.Operation{ID: "listCirculars", Method: "GET", Path: "/circulars",
	Summary:     "Regulatory circulars.",
	Description: "Circulars, newest first unless sort says otherwise.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opGetCircular = &apispec.Operation{ID: "getCircular", Method: "GET", Path: "/circulars/{id}",
	Summary:     "One circular.",
	Description: "The circular with that id as GET /circulars lists it, its stored aiSummary included: an address for one circular that stays put while the lists' pages move.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The circular.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.Circular]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rNotFound.At(404),
		rInternalError.At(500)},
}

var opListNews = &apispec.Operation{ID: "listNews", Method: "GET", Path: "/news",
	Summary:     "Fintech news.",
	Description: "News items, newest first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.NewsItem]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListFintechCompanies = &apispec.Operation{ID: "listFintechCompanies", Method: "GET", Path: "/fintech-companies",
	Summary:     "Fintech companies and founders.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Company]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListPIIRegulations = &apispec.Operation{ID: "listPIIRegulations", Method: "GET", Path: "/pii-regulations",
	Summary:     "PII and privacy regulations.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Regulation]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListPaymentNetworks = &apispec.Operation{ID: "listPaymentNetworks", Method: "GET", Path: "/payment-networks",
	Summary:     "Payment networks and card schemes.",
	Description: "By slug.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.Network]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opListSibosEvents = &apispec.Operation{ID: "listSibosEvents", Method: "GET", Path: "/sibos-events",
	Summary:     "SIBOS events.",
	Description: "Newest year first.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The list.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]catalog.SibosEvent]()}}, Headers: []*apispec.Header{hCacheControl, hETag, hLink, hXTotalCount, hNewestCircular, hCatalogUpdated}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opImpactTracking = &apispec.Operation{ID: "impactTracking", Method: "GET", Path: "/impact-tracking",
	Summary:     "Impact tracking records.",
	Description: "One record per entity type (PSP, Issuer, Aggregator): compliance score and how many circulars hit it at each impact level.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[[]impact.Record]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

var opDashboardStats = &apispec.Operation{ID: "dashboardStats", Method: "GET", Path: "/dashboard/stats",
	Summary:     "The dashboard's counters.",
	Description: "Counts over the 30 calendar days (UTC) ending today.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "OK.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[dashboard.Stats]()}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400),
		rInternalError.At(500)},
}

// Lists is what the catalog's reads need from persistence. A list
// method answers one page and the total number of entries its query
// matches.
type Lists interface {
	ListCirculars(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error)
	ListNews(ctx context.Context, q catalog.NewsQuery) ([]catalog.NewsItem, int, error)
	ListCompanies(ctx context.Context, q catalog.CompanyQuery) ([]catalog.Company, int, error)
	ListRegulations(ctx context.Context, q catalog.RegulationQuery) ([]catalog.Regulation, int, error)
	ListNetworks(ctx context.Context, page catalog.Page) ([]catalog.Network, int, error)
	ListSibosEvents(ctx context.Context, page catalog.Page) ([]catalog.SibosEvent, int, error)
	ImpactTracking(ctx context.Context) ([]impact.Record, error)
	// CatalogFreshness says how current the catalog is (the lists'
	// X-Newest-Circular and X-Catalog-Updated).
	CatalogFreshness(ctx context.Context) (catalog.Freshness, error)
	// DashboardStats counts what was published in dashboard.Window(now).
	DashboardStats(ctx context.Context, now time.Time) (dashboard.Stats, error)
	// Circular is one circular with its stored summary, or
	// catalog.ErrNotFound.
	Circular(ctx context.Context, id string) (catalog.Circular, error)
	// CircularRefs names the circulars with the given slugs, by slug
	// (those it lacks left out): the circulars replacing a card's.
	CircularRefs(ctx context.Context, slugs []string) (map[string]catalog.CircularRef, error)
}

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
	return h.withReplacements(ctx, catalog.WithPreviews(cs))
}

// withReplacements names in each of cs the circulars replacing it (the
// "Superseded by" note).
func (h *Handler) withReplacements(ctx context.Context, cs []catalog.Circular) ([]catalog.Circular, error) {
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
	c.Lang = c.TextLang() // not stored
	if errors.Is(err, catalog.ErrNotFound) {
		err = errorStatus(http.StatusNotFound, "no circular with id "+id)
	}
	if err != nil {
		h.writeError(w, r, err)
		return c, false
	}
	return c, true
}

// impactTracking is GET /impact-tracking: one record per entity type.
func (h *Handler) impactTracking(w http.ResponseWriter, r *http.Request) {
	records, err := h.store.ImpactTracking(r.Context())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, records)
}

// dashboardStats is GET /dashboard/stats, over dashboard.Window as of now.
func (h *Handler) dashboardStats(w http.ResponseWriter, r *http.Request) {
	st, err := h.store.DashboardStats(r.Context(), h.now())
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeOK(w, r, st)
}
