package api

import (
	"net/http"

	"regpulse/api/apispec"
	"regpulse/internal/catalog"
)

// area is a part of the API, declared whole in the file of its handlers:
// its operations (`var opX = &apispec.Operation{...}`), their parameters
// structs, the parameter declarations no other area takes, and routes,
// which binds each operation to its handler with what runs before it.
type area struct {
	routes func() []*route
	// params are the area's own parameter declarations, by the name a
	// parameters struct's `param` tag gives (paramDecls are the shared
	// ones).
	params map[string]*apispec.Param
}

// areas are every part of the API. The order is the router's only: the
// document sorts by path.
func areas() []area {
	return []area{
		{routes: healthRoutes},
		{routes: openAPIRoutes},
		{routes: listRoutes, params: listParams},
		{routes: exportRoutes},
		{routes: searchRoutes, params: searchParams},
		{routes: accountRoutes},
		{routes: obligationRoutes, params: obligationParams},
		{routes: newsletterRoutes, params: newsletterParams},
		{routes: alertRoutes, params: alertParams},
		{routes: documentRoutes, params: documentParams},
		{routes: aiRoutes, params: aiParams},
		{routes: directionRoutes, params: directionParams},
		{routes: followRoutes, params: followParams},
		{routes: organisationRoutes, params: organisationParams},
		{routes: ssoRoutes, params: ssoParams},
		{routes: apiKeyRoutes, params: apiKeyParams},
		{routes: webhookRoutes, params: webhookParams},
		// Evidence is the decisions' (it takes their subject's parameters).
		{routes: func() []*route { return append(decisionRoutes(), evidenceRoutes()...) }, params: decisionParams},
		{routes: inspectionRoutes, params: inspectionParams},
		{routes: publicationLogRoutes, params: publicationLogParams},
		{routes: cmsRoutes},
	}
}

// routes are every area's routes.
func routes() []*route {
	var out []*route
	for _, a := range areas() {
		out = append(out, a.routes()...)
	}
	return out
}

// The parameters more than one area's calls take, as their handlers
// receive them: a field per parameter, tagged with the name of its
// declaration (paramDecls, or an area's params).
type (
	pageIn struct {
		Limit  int `param:"Limit100"`
		Offset int `param:"Offset"`
	}
	// circularFilters are GET /circulars' filters and order, which the
	// bulk downloads take too.
	circularFilters struct {
		Source       string               `param:"Source"`
		Category     string               `param:"CircularCategory"`
		Search       string               `param:"CircularSearch"`
		Sort         catalog.CircularSort `param:"Sort"`
		Impact       string               `param:"Filter"`
		Type         string               `param:"DocumentType"`
		Verification string               `param:"Verification"`
	}
	circularIn struct {
		ID string `param:"CircularID"`
	}
)

func (in pageIn) page() catalog.Page { return catalog.Page{Limit: in.Limit, Offset: in.Offset} }

func (f circularFilters) query(page catalog.Page) catalog.CircularQuery {
	return catalog.CircularQuery{Source: f.Source, Category: f.Category, Search: f.Search, Sort: f.Sort,
		Impact: f.Impact, Type: f.Type, Verification: f.Verification, Page: page}
}

// cachedBy serves rt through the read cache when when says so; always
// does for the public reads, the same for everyone.
func cachedBy(when func(*Handler) bool, rt *route) *route { rt.cached = when; return rt }
func always(*Handler) bool                                { return true }

// signedIn lets only a signed-in user through; admin only an
// administrator.
func signedIn(rt *route) *route { rt.user = true; return rt }
func admin(rt *route) *route    { rt.admin = true; return rt }

// orLeaving lets any member call rt, an organisation's call, on
// themselves (its path's userId their own), whatever its Permission.
func orLeaving(rt *route) *route { rt.leaving = true; return rt }

// limited puts rt behind a rate limit.
func limited(limit func(*Handler) func(http.Handler) http.Handler, rt *route) *route {
	rt.limit = limit
	return rt
}
