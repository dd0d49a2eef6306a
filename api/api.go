// Package api is RegPulse's HTTP API under /api: routing, handlers,
// middleware and JSON errors. It holds no SQL (that is internal/store) and
// must not import the generator, so the API alone builds into a small binary.
package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Store is what the API needs from persistence.
type Store interface {
	Ping(ctx context.Context) error
}

// Handler holds the API's dependencies.
type Handler struct {
	store Store
	log   *slog.Logger
}

// New returns the API router. Mount it at /api.
func New(store Store, log *slog.Logger) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := &Handler{store: store, log: log}
	r := chi.NewRouter()
	r.Use(h.recoverer)
	r.Use(middleware.NoCache)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorStatus(http.StatusNotFound, "no such API endpoint: "+r.Method+" "+r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorStatus(http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path))
	})
	r.Get("/health", h.health)
	return r
}

// recoverer turns a panic into a JSON 500 and logs it, so one bad request
// never takes the process down or leaks a stack trace.
func (h *Handler) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				h.log.Error("api: panic", "method", r.Method, "path", r.URL.Path, "panic", v)
				writeJSON(w, http.StatusInternalServerError, errorStatus(http.StatusInternalServerError, "internal server error"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	if err := h.store.Ping(r.Context()); err != nil {
		h.log.Error("api: health: store", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, errorStatus(http.StatusServiceUnavailable, "store unavailable"))
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}
