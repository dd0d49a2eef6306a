// Package metrics is what RegPulse tells an operator's monitoring, in
// Prometheus' text format: requests by route and status with their
// latencies, read-cache hits, AI calls by outcome, extraction jobs,
// e-mails, catalog syncs and site builds, rate-limit refusals, and the
// build's version. The collectors are package variables in one registry
// of RegPulse's own (not the global one, so a library's metrics never
// leak in): the packages that do the work count into them, and
// Handler serves them, on a listener of its own (`--metrics-addr`),
// never on the public port.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"regpulse/internal/buildinfo"
)

// Registry holds every RegPulse collector, the Go runtime's and the
// process's.
var Registry = prometheus.NewRegistry()

var (
	// HTTPRequests counts answered requests by route pattern (the API's
	// declared path, "site" for the static pages), method and status.
	HTTPRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_http_requests_total", Help: "HTTP requests answered, by route, method and status code.",
	}, []string{"route", "method", "status"})
	// HTTPDuration is how long requests took, by route and method.
	HTTPDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "regpulse_http_request_duration_seconds", Help: "Time to answer HTTP requests, by route and method.",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"route", "method"})
	// ReadCache counts the API read cache's lookups: hit or miss.
	ReadCache = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_read_cache_lookups_total", Help: "API read cache lookups, by result (hit, miss).",
	}, []string{"result"})
	// AICalls counts AI calls (summary, impact, answer) by outcome:
	// local (no model configured), model (the model's answer, used),
	// invention (a model answer the guard rejected), fallback (the local
	// provider answered after the model failed or invented twice).
	AICalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_ai_calls_total", Help: "AI calls by operation and outcome (local, model, invention, fallback).",
	}, []string{"op", "outcome"})
	// ExtractJobs counts document extractions by outcome (done, failed,
	// refused, busy).
	ExtractJobs = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_extract_jobs_total", Help: "Document text extractions, by outcome (done, failed, refused, busy).",
	}, []string{"outcome"})
	// Emails counts e-mails handed to the SMTP server (whatever sends
	// them: the digest, alerts) by outcome: sent; refused (the server
	// refused the message or address for good, a 5xx); retried (the
	// connection broke and the message was sent again on a new one);
	// failed (anything else, such as a temporary 4xx or no connection).
	Emails = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_emails_total", Help: "E-mails handed to the SMTP server, by outcome (sent, refused, retried, failed).",
	}, []string{"outcome"})
	// Alerts counts alert e-mails by what became of them (the alerts
	// package's outcomes: sent, failed, folded into a digest, skipped for
	// a bouncing address, confirmation).
	Alerts = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_alert_emails_total", Help: "Alert e-mails by outcome (sent, failed, folded, skipped, confirmation).",
	}, []string{"outcome"})
	// WebhookDeliveries counts the attempts of webhook and chat
	// deliveries by the endpoint's kind (webhook, slack, teams) and
	// outcome: delivered, retried (pending again until its next attempt),
	// failed (for good: past the schedule, or a 410).
	WebhookDeliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_webhook_deliveries_total", Help: "Webhook and chat delivery attempts, by endpoint kind and outcome (delivered, retried, failed).",
	}, []string{"kind", "outcome"})
	// SyncDuration is how long syncing the catalog into the store took.
	SyncDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "regpulse_catalog_sync_duration_seconds", Help: "Time to sync the catalog into the store, by outcome (ok, failed).",
		Buckets: prometheus.ExponentialBuckets(.05, 2, 12),
	}, []string{"outcome"})
	// BuildDuration is how long site builds took.
	BuildDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "regpulse_site_build_duration_seconds", Help: "Time to build the static site, by outcome (ok, unchanged, failed).",
		Buckets: prometheus.ExponentialBuckets(.5, 2, 12),
	}, []string{"outcome"})
	// RateLimited counts requests refused by a rate limit, by limit.
	RateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_rate_limited_total", Help: "Requests refused with 429 by a rate limit, by limit.",
	}, []string{"limit"})
	// buildInfo is 1, labelled with the running build.
	buildInfo = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "regpulse_build_info", Help: "The running build: always 1, labelled with its version, revision and Go version.",
	}, []string{"version", "revision", "goversion"})
)

// The ingestion pipeline's figures per feeds.yaml source name (issue 45).
var (
	// IngestPolls counts polls by source and outcome: parsed, not_modified
	// (a 304), unchanged (the same body hash), error, shape_changed (a
	// listing page no longer matches its selectors).
	IngestPolls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_ingest_polls_total", Help: "Ingest polls by source and outcome (parsed, not_modified, unchanged, error, shape_changed).",
	}, []string{"source", "outcome"})
	// IngestItems counts the items a poll read by source and result: new
	// (a draft), known (already in the catalog or queue), merged (another
	// copy of a known instrument, kept as "also published as"),
	// backfilled (found on a listing page after the feed's window
	// overflowed), malformed.
	IngestItems = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_ingest_items_total", Help: "Ingested items by source and result (new, known, merged, backfilled, malformed).",
	}, []string{"source", "result"})
	// IngestLastSuccess is when each source last answered a poll well
	// (Unix seconds).
	IngestLastSuccess = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "regpulse_ingest_last_success_timestamp_seconds", Help: "When each ingest source last answered a poll successfully (Unix time).",
	}, []string{"source"})
	// IngestStale is 1 for a source with no successful poll for 24 hours.
	IngestStale = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "regpulse_ingest_stale", Help: "1 when an ingest source has had no successful poll for 24 hours.",
	}, []string{"source"})
	// IngestBackfillIncomplete counts backfills that read a listing's
	// last page, or its maxPages, without reaching an item already known:
	// items of that source may have been lost.
	IngestBackfillIncomplete = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "regpulse_ingest_backfill_incomplete_total",
		Help: "Backfills that stopped (last page or maxPages) before reaching a known item, by source.",
	}, []string{"source"})
)

func init() {
	Registry.MustRegister(HTTPRequests, HTTPDuration, ReadCache, AICalls, ExtractJobs, Emails, Alerts, WebhookDeliveries,
		SyncDuration, BuildDuration, RateLimited, buildInfo,
		IngestPolls, IngestItems, IngestLastSuccess, IngestStale, IngestBackfillIncomplete,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	in := buildinfo.Read()
	buildInfo.WithLabelValues(in.Version, in.Revision, in.Go).Set(1)
}

// Handler serves the registry in Prometheus' text format.
func Handler() http.Handler {
	return promhttp.HandlerFor(Registry, promhttp.HandlerOpts{ErrorLog: nil})
}

// Since observes the seconds since start in h under labels: defer it.
func Since(h *prometheus.HistogramVec, start time.Time, labels ...string) {
	h.WithLabelValues(labels...).Observe(time.Since(start).Seconds())
}

// Instrument counts and times every request next answers. The route is
// chi's pattern once routed ("/api/circulars/{id}"), so an ID never
// becomes a label; anything the API did not route is "site" (static
// files) or "unrouted" (an unknown /api path).
func Instrument(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		route := "site"
		if rctx := chi.RouteContext(r.Context()); rctx != nil {
			switch p := rctx.RoutePattern(); {
			case p == "/api/*" || p == "/*/api/*":
				route = "unrouted"
			case len(p) > 4 && p[:5] == "/api/":
				route = p
			}
		}
		status := ww.Status()
		if status == 0 {
			status = http.StatusOK
		}
		method := r.Method
		switch method {
		case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions:
		default:
			method = "other" // a client's invented method is no label
		}
		HTTPRequests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
		HTTPDuration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
	})
}
