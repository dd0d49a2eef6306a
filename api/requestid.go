package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5/middleware"
)

// requestIDHeader carries a request's id: taken from the client or the
// proxy in front when it sends a usable one, else made here; echoed in
// the answer, in JSON errors (requestId) and in every log line about the
// request, so a user's report and the operator's logs meet.
const requestIDHeader = "X-Request-Id"

type requestIDKey struct{}

// requestID is the id of the request ctx belongs to ("" outside one).
func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// usableRequestID accepts an id of 1 to 64 letters, digits, '-', '_' or
// '.': enough for UUIDs and the ids of common proxies, and nothing that
// could forge a log line.
func usableRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// requests gives each request its id and logs it once answered: 5xx as
// errors, the rest at info (--log-level warn keeps only failures).
func (h *Handler) requests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(requestIDHeader)
		if !usableRequestID(id) {
			id = newRequestID()
		}
		w.Header().Set(requestIDHeader, id)
		ctx := context.WithValue(r.Context(), requestIDKey{}, id)
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		start := time.Now()
		next.ServeHTTP(ww, r.WithContext(ctx))
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		h.log.LogAttrs(ctx, level, "api request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", status), slog.Duration("duration", time.Since(start)), slog.Int("bytes", ww.BytesWritten()),
			slog.String("request_id", id))
	})
}
