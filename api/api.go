// Package api is RegPulse's HTTP API under /api: routing, handlers,
// middleware and JSON errors. It holds no SQL (that is internal/store) and
// must not import the generator, so the API alone builds into a small binary.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"regpulse/internal/store"
)

// Store is what the API needs from persistence: the methods the handlers
// call, in plain Go types. internal/store's SQLite *DB satisfies it; a
// PostgreSQL implementation only has to provide the same methods.
type Store interface {
	Ping(ctx context.Context) error
	ListCirculars(ctx context.Context, q store.CircularQuery) ([]store.Circular, error)
	ListNews(ctx context.Context, q store.NewsQuery) ([]store.NewsItem, error)
	ImpactTracking(ctx context.Context) ([]store.ImpactRecord, error)
	ListCompanies(ctx context.Context, q store.CompanyQuery) ([]store.Company, error)
	ListRegulations(ctx context.Context, q store.RegulationQuery) ([]store.Regulation, error)
	ListNetworks(ctx context.Context, limit int) ([]store.Network, error)
	ListSibosEvents(ctx context.Context, limit int) ([]store.SibosEvent, error)
	// DashboardStats counts what was published on the calendar dates from
	// through to, both included.
	DashboardStats(ctx context.Context, from, to time.Time) (store.DashboardStats, error)
}

// Handler holds the API's dependencies.
type Handler struct {
	store Store
	log   *slog.Logger
	now   func() time.Time
}

// Option configures New.
type Option func(*Handler)

// WithClock makes the API read the time from now (the dashboard's window).
func WithClock(now func() time.Time) Option {
	return func(h *Handler) {
		if now != nil {
			h.now = now
		}
	}
}

// New returns the API router. Mount it at /api.
func New(store Store, log *slog.Logger, opts ...Option) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := &Handler{store: store, log: log, now: time.Now}
	for _, o := range opts {
		o(h)
	}
	r := chi.NewRouter()
	r.Use(h.recoverer)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorStatus(http.StatusNotFound, "no such API endpoint: "+r.Method+" "+r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorStatus(http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path))
	})
	r.Get("/health", h.health)
	r.Get("/openapi.json", h.openAPI)
	r.Get("/circulars", h.listCirculars)
	r.Get("/news", h.listNews)
	r.Get("/impact-tracking", h.impactTracking)
	r.Get("/fintech-companies", h.listCompanies)
	r.Get("/pii-regulations", h.listRegulations)
	r.Get("/payment-networks", h.listNetworks)
	r.Get("/sibos-events", h.listSibosEvents)
	r.Get("/dashboard/stats", h.dashboardStats)
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
