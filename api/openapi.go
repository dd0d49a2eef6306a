package api

import (
	_ "embed"
	"net/http"
	"regpulse/api/apispec"
)

// openAPIRoutes: the document itself.
func openAPIRoutes() []*route {
	return []*route{
		handle(opOpenAPI, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.openAPI(w, r) }),
	}
}

var opOpenAPI = &apispec.Operation{ID: "openAPI", Method: "GET", Path: "/openapi.json",
	Summary: "This document.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The OpenAPI document.",
			Content: []apispec.Content{{MediaType: "application/json", Raw: map[string]any{"type": "object"}}}, Headers: []*apispec.Header{hCacheControl, hETag}},
		rNotModified.At(304),
		rBadRequest.At(400)},
}

// openAPIDoc describes every call of this package: generated from the
// declarations (each area's, routes.go) by package openapigen, whose test fails
// when it is stale; openapi_test.go checks real responses against it.
//
// The islands' client types are made from it by every islands build,
// test and typecheck (npm run api-types).
//
//go:generate go run ./openapigen/write
//go:embed openapi.json
var openAPIDoc []byte

// openAPI is GET /openapi.json.
func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	writeRevalidated(w, r, "application/json; charset=utf-8", openAPIDoc)
}
