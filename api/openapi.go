package api

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes every call of this package: generated from the
// declarations (operations.go) by package openapigen, whose test fails
// when it is stale; openapi_test.go checks real responses against it.
//
// The islands' client types follow from the document (their test,
// api-types.test.ts, fails when they are stale).
//
//go:generate go run ./openapigen/write
//go:generate npm run --prefix ../islands --silent api-types
//go:embed openapi.json
var openAPIDoc []byte

// openAPI is GET /openapi.json.
func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	writeRevalidated(w, r, "application/json; charset=utf-8", openAPIDoc)
}
