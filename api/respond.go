package api

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"regpulse/internal/readcache"
)

// Error is an API failure as clients see it: {"error": "...", "fields": {...}}.
// Fields names the request fields at fault, each with what is wrong.
type Error struct {
	Status  int               `json:"-"`
	Message string            `json:"error"`
	Fields  map[string]string `json:"fields,omitempty"`
	// RequestID is the request's X-Request-Id, to quote when reporting
	// the error (writeJSON fills it in).
	RequestID string `json:"requestId,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// errorStatus builds an *Error with a status.
func errorStatus(status int, msg string) *Error { return &Error{Status: status, Message: msg} }

// writeJSON writes v with status, not to be cached (errors, health).
// Encoding errors are logged: by then the status line has been sent.
func writeJSON(w http.ResponseWriter, status int, v any) {
	if e, ok := v.(*Error); ok && e.RequestID == "" {
		if id := w.Header().Get(requestIDHeader); id != "" {
			c := *e // the error may be a shared value
			c.RequestID = id
			v = &c
		}
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		slog.Warn("api: write response", "err", err)
	}
}

// writeError answers with err: an *Error as given (its messages in the
// request's language: localize), anything else as a 500 whose details go
// to the log, never to the client.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		h.log.Error("api: internal error", "method", r.Method, "path", r.URL.Path, "err", err, "request_id", requestID(r.Context()))
		e = errorStatus(http.StatusInternalServerError, "internal server error")
	}
	writeJSON(w, e.Status, localize(r, e))
}

// writeOK answers 200 with v as JSON, revalidated through its ETag.
// headers are the values of headers set beside the body that a client
// keeps with it (a list's total), so the ETag changes when they do.
func (h *Handler) writeOK(w http.ResponseWriter, r *http.Request, v any, headers ...string) {
	body, err := json.Marshal(v)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeRevalidated(w, r, "application/json; charset=utf-8", append(body, '\n'), headers...)
}

// writeRevalidated answers 200 with body, or 304 without one when the
// client's If-None-Match already names it. The ETag is a hash of the body
// and headers, marked weak because the server may send the body gzipped
// (the same JSON in another encoding: RFC 9110 section 8.8.1).
// Cache-Control: no-cache lets clients keep the body but makes them ask
// each time, so a sync shows at once.
func writeRevalidated(w http.ResponseWriter, r *http.Request, contentType string, body []byte, headers ...string) {
	writeRevalidatedAs(w, r, contentType, body, nil, headers...)
}

// writeRevalidatedAs is writeRevalidated sending gzipped, when not nil,
// in place of body: body gzipped, the request accepting gzip.
func writeRevalidatedAs(w http.ResponseWriter, r *http.Request, contentType string, body, gzipped []byte, headers ...string) {
	h := sha256.New()
	h.Write(body)
	for _, v := range headers {
		h.Write([]byte{0})
		h.Write([]byte(v))
	}
	sum := h.Sum(nil)
	etag := `W/"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`
	hdr := w.Header()
	hdr.Set("ETag", etag)
	hdr.Set("Cache-Control", "no-cache")
	if readcache.NoneMatch(r.Header.Values("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	hdr.Set("Content-Type", contentType)
	hdr.Set("X-Content-Type-Options", "nosniff")
	if gzipped != nil {
		hdr.Set("Content-Encoding", "gzip")
		hdr.Add("Vary", "Accept-Encoding")
		body = gzipped
	}
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}
