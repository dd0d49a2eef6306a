package metrics

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"regpulse/internal/buildinfo"
)

// TestInstrument counts requests as web.Handler routes them: the API's
// declared patterns, never an ID; the static site as one route.
func TestInstrument(t *testing.T) {
	api := chi.NewRouter()
	api.Get("/circulars/{id}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotFound) })
	api.Post("/auth/login", func(w http.ResponseWriter, r *http.Request) {})
	root := chi.NewRouter()
	root.Use(Instrument)
	root.Mount("/api", api)
	root.Handle("/*", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") }))

	for _, tc := range []struct {
		method, path, route, status string
	}{
		{"GET", "/api/circulars/8f14e45f-ceea-467f-a0e6-1234", "/api/circulars/{id}", "404"},
		{"POST", "/api/auth/login", "/api/auth/login", "200"},
		{"GET", "/circulars/some-slug/", "site", "200"},
		{"GET", "/api/no-such-call", "unrouted", "404"},
		{"BREW", "/", "site", "405"}, // chi knows no such method
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			method := tc.method
			if method == "BREW" {
				method = "other"
			}
			c := HTTPRequests.WithLabelValues(tc.route, method, tc.status)
			before := testutil.ToFloat64(c)
			root.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(tc.method, tc.path, nil))
			if got := testutil.ToFloat64(c) - before; got != 1 {
				t.Errorf("requests{route=%q,method=%q,status=%s} grew by %v, want 1", tc.route, method, tc.status, got)
			}
		})
	}
	if n := testutil.CollectAndCount(HTTPRequests); n > 6 {
		t.Errorf("%d request series after 5 kinds of request", n)
	}
}

// TestHandler serves the text format with the build's version.
func TestHandler(t *testing.T) {
	RateLimited.WithLabelValues("login").Inc()
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, want := range []string{
		`regpulse_build_info{goversion="` + buildinfo.Read().Go + `",revision="` + buildinfo.Read().Revision + `",version="` + buildinfo.Read().Version + `"} 1`,
		`regpulse_rate_limited_total{limit="login"}`,
		"# TYPE regpulse_http_request_duration_seconds histogram",
		"go_goroutines", "process_resident_memory_bytes",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("Content-Type %q, want Prometheus' text format", ct)
	}
}
