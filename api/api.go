// Package api is RegPulse's HTTP API under /api: routing, handlers,
// middleware and JSON errors. It holds no SQL (that is internal/store) and
// must not import the generator, so the API alone builds into a small binary.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"reflect"
	"time"

	"github.com/go-chi/chi/v5"

	"regpulse/api/apispec"
	"regpulse/internal/buildinfo"
	"regpulse/internal/cms"
	"regpulse/internal/extract"
	"regpulse/internal/readcache"
	"regpulse/internal/webhooks"
)

// Store is what the API needs from persistence, in the domain's own types:
// internal/store's *DB satisfies it (SQLite or PostgreSQL) without this
// package importing it.
type Store interface {
	Ping(ctx context.Context) error
	// Each area of the API says in its file what it needs of the store.
	Lists
	exporter
	Searcher
	AIResults
	Users
	Subscribers
	Alerts
	Obligations
	Directions
	Follows
	Organisations
	Decisions
	Evidence
	OrganisationRegisters
	Inspections
	SSO
	Webhooks
	PublicationLog
	CMSRoles
	APIKeys
}

// Handler holds the API's dependencies.
type Handler struct {
	store   Store
	log     *slog.Logger
	now     func() time.Time
	authCfg AuthConfig
	acc     *accounts
	nlCfg   NewsletterConfig
	alCfg   AlertsConfig
	tmCfg   TeamsConfig
	ssoCfg  SSOConfig
	// whPolicy is which endpoint URLs admins may give (WithWebhookPolicy).
	whPolicy  webhooks.AddressPolicy
	extractor *extract.Extractor
	jobs      *extract.Jobs
	aiCfg     AIConfig
	ai        *aiCalls
	rates     RateStore        // nil: rate limits count in memory
	reads     *readcache.Cache // nil: no read cache
	// extraction is this server's background extraction of obligations;
	// nil where none runs (a function's).
	extraction Extracting
	// cms answers POST /cms (the editors' web UI); nil: 503.
	cms cms.Backend
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
	h.initTeams()
	h.initSSO()
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

// healthRoutes: is the API up.
func healthRoutes() []*route {
	return []*route{
		handle(opHealth, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.health(w, r) }),
	}
}

var opHealth = &apispec.Operation{ID: "health", Method: "GET", Path: "/health",
	Summary: "Whether the API and its store answer.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "Healthy.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Health]()}}},
		rBadRequest.At(400),
		{Status: 503, Description: "The store does not answer.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}},
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
