package api

import (
	_ "embed"
	"net/http"
)

// openAPIDoc describes every call of this package, hand-written; the test
// of openapi_test.go checks real responses against it.
//
//go:embed openapi.json
var openAPIDoc []byte

// openAPI is GET /openapi.json.
func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	if err := noParams(r); err != nil {
		h.writeError(w, r, err)
		return
	}
	writeRevalidated(w, r, "application/json; charset=utf-8", openAPIDoc)
}
