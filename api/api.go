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

	"regpulse/internal/buildinfo"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/extract"
	"regpulse/internal/impact"
	"regpulse/internal/readcache"
	"regpulse/internal/search"
)

// Store is what the API needs from persistence, in the domain's own types:
// internal/store's SQLite *DB satisfies it, and so can a PostgreSQL store
// without importing that package. A list method answers one page and the
// total number of entries its query matches.
type Store interface {
	Ping(ctx context.Context) error
	ListCirculars(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error)
	exporter
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
	// PutCircularSummary and PutImpactAnalysis keep what the AI calls
	// made (catalog.ErrNotFound for an unknown circular).
	PutCircularSummary(ctx context.Context, circularID string, s catalog.GeneratedSummary) error
	PutImpactAnalysis(ctx context.Context, a catalog.ImpactAnalysis) error
	Users
	// Search ranks the circulars for a query (package search's rules);
	// it returns search.ErrEmptyQuery or search.ErrQueryTooLong for a
	// query it cannot run.
	Search(ctx context.Context, q search.Query) (search.Response, error)
	Subscribers
	Alerts
	Obligations
}

// Handler holds the API's dependencies.
type Handler struct {
	store     Store
	log       *slog.Logger
	now       func() time.Time
	authCfg   AuthConfig
	acc       *accounts
	nlCfg     NewsletterConfig
	alCfg     AlertsConfig
	extractor *extract.Extractor
	jobs      *extract.Jobs
	aiCfg     AIConfig
	ai        *aiCalls
	rates     RateStore        // nil: rate limits count in memory
	reads     *readcache.Cache // nil: no read cache
}

// Option configures New.
type Option func(*Handler)

// WithNow makes the API read the time from now (the dashboard's window).
func WithNow(now func() time.Time) Option {
	return func(h *Handler) {
		if now != nil {
			h.now = now
		}
	}
}

// WithExtractor makes the API read uploaded documents with ex (by
// default the pure-Go readers only, without OCR).
func WithExtractor(ex *extract.Extractor) Option {
	return func(h *Handler) {
		if ex != nil {
			h.extractor = ex
		}
	}
}

// New returns the API router. Mount it at /api. It panics on an unusable
// AuthConfig (check its Hasher with auth.Hasher.Check first).
func New(store Store, log *slog.Logger, opts ...Option) http.Handler {
	if log == nil {
		log = slog.Default()
	}
	h := &Handler{store: store, log: log, now: time.Now,
		extractor: extract.New(extract.Tools{}, extract.Config{}),
		// Eight scans waiting at most, each kept 10 minutes after it ends.
		jobs: extract.NewJobs(8, 10*time.Minute, 15*time.Minute)}
	for _, o := range opts {
		o(h)
	}
	acc, err := newAccounts(store, &h.authCfg, h.now)
	if err != nil {
		panic("api: " + err.Error())
	}
	h.acc = acc
	h.initNewsletter()
	h.initAlerts()
	h.initAI()
	r := chi.NewRouter()
	r.Use(h.requests)
	r.Use(h.recoverer)
	r.Use(headAsGet)
	r.Use(clientIP(h.authCfg.TrustedProxies))
	if h.reads != nil {
		r.Use(h.invalidateOnWrite)
	}
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, errorStatus(http.StatusNotFound, "no such API endpoint: "+r.Method+" "+r.URL.Path))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusMethodNotAllowed, errorStatus(http.StatusMethodNotAllowed, "method "+r.Method+" not allowed on "+r.URL.Path))
	})
	for _, rt := range routes() {
		h.mount(r, rt)
	}
	return r
}

// headAsGet routes HEAD as GET, so every GET answers HEAD as well (link
// checkers and monitors use it); net/http sends no body for HEAD. chi's
// middleware.GetHead does not do here: mounted under a router with a
// catch-all route (web.Handler's site), it takes that route for a HEAD
// route of this one and answers 405.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rctx := chi.RouteContext(r.Context()); rctx != nil && r.Method == http.MethodHead {
			rctx.RouteMethod = http.MethodGet
		}
		next.ServeHTTP(w, r)
	})
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
				h.log.Error("api: panic", "method", r.Method, "path", r.URL.Path, "panic", v, "request_id", requestID(r.Context()))
				writeJSON(w, http.StatusInternalServerError, errorStatus(http.StatusInternalServerError, "internal server error"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// Health is GET /health's answer.
type Health struct {
	Status  string `json:"status"`  // "ok"
	Version string `json:"version"` // buildinfo's: which build answers
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	if err := h.store.Ping(r.Context()); err != nil {
		h.log.Error("api: health: store", "err", err)
		writeJSON(w, http.StatusServiceUnavailable, errorStatus(http.StatusServiceUnavailable, "store unavailable"))
		return
	}
	writeJSON(w, http.StatusOK, Health{Status: "ok", Version: buildinfo.Read().Version})
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
