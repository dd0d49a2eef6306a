package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
)

// Error is an API failure as clients see it: {"error": "...", "fields": {...}}.
// Fields names the request fields at fault, with SPEC.md section 5's messages.
type Error struct {
	Status  int               `json:"-"`
	Message string            `json:"error"`
	Fields  map[string]string `json:"fields,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error with a status.
func errorStatus(status int, msg string) *Error { return &Error{Status: status, Message: msg} }

// writeJSON writes v with status. Encoding errors are logged: by then the
// status line has been sent.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Warn("api: write response", "err", err)
	}
}

// writeError answers with err: an *Error as given, anything else as a 500
// whose details go to the log, never to the client.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		h.log.Error("api: internal error", "method", r.Method, "path", r.URL.Path, "err", err)
		e = errorStatus(http.StatusInternalServerError, "internal server error")
	}
	writeJSON(w, e.Status, e)
}
