package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"regpulse/internal/buildinfo"
	"regpulse/internal/store/storetest"

	"github.com/go-chi/chi/v5"
	"github.com/google/go-cmp/cmp"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	// As web.Handler mounts it: beside a catch-all route for the site.
	root := chi.NewRouter()
	root.Mount("/api", New(newFakeStore(storetest.Catalog()), discardLog, cheapAuth))
	root.Handle("/*", http.NotFoundHandler())
	srv := httptest.NewServer(root)
	t.Cleanup(srv.Close)
	return srv
}

// getJSON fetches path and decodes the body, checking the content type.
func getJSON(t *testing.T, srv *httptest.Server, method, path string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(method, srv.URL+path, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %s: Content-Type = %q, want JSON", method, path, ct)
	}
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v", method, path, err)
	}
	return res.StatusCode, body
}

func TestHandler_Health(t *testing.T) {
	srv := newTestServer(t)
	status, body := getJSON(t, srv, "GET", "/api/health")
	want := map[string]any{"status": "ok", "version": buildinfo.Read().Version}
	if diff := cmp.Diff(want, body); status != 200 || diff != "" {
		t.Errorf("GET /api/health = %d (-want +got):\n%s", status, diff)
	}
}

func TestHandler_Errors(t *testing.T) {
	srv := newTestServer(t)
	for _, tc := range []struct {
		name, method, path string
		status             int
	}{
		{"ErrUnknownPath", "GET", "/api/nope", 404},
		{"ErrUnknownNestedPath", "GET", "/api/health/extra", 404},
		{"ErrMethodNotAllowed", "POST", "/api/health", 405},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := getJSON(t, srv, tc.method, tc.path)
			if status != tc.status {
				t.Errorf("status = %d, want %d", status, tc.status)
			}
			msg, ok := body["error"].(string)
			if !ok || msg == "" {
				t.Errorf("body %v has no error message", body)
			}
		})
	}
}

func TestHandler_HealthStoreDown(t *testing.T) {
	down := newFakeStore(nil)
	down.err = errors.New("disk on fire")
	srv := httptest.NewServer(New(down, discardLog))
	defer srv.Close()
	status, body := getJSON(t, srv, "GET", "/health")
	if status != 503 || strings.Contains(body["error"].(string), "fire") {
		t.Errorf("GET /health with store down = %d %v; want 503 without internals", status, body)
	}
}

func TestWriteError(t *testing.T) {
	h := &Handler{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, tc := range []struct {
		name   string
		err    error
		status int
		want   string
	}{
		{"FieldError", &Error{Status: 400, Message: "invalid input", Fields: map[string]string{"email": "Invalid email address"}}, 400,
			`{"error":"invalid input","fields":{"email":"Invalid email address"}}`},
		{"Internal", errors.New("secret db path /var/x"), 500, `{"error":"internal server error"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.writeError(rec, httptest.NewRequest("GET", "/x", nil), tc.err)
			if rec.Code != tc.status || strings.TrimSpace(rec.Body.String()) != tc.want {
				t.Errorf("got %d %s, want %d %s", rec.Code, rec.Body.String(), tc.status, tc.want)
			}
		})
	}
}

func TestRecoverer(t *testing.T) {
	h := &Handler{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	rec := httptest.NewRecorder()
	h.recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })).
		ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("panic gave %d %s, want JSON 500", rec.Code, rec.Body.String())
	}
}

// TestHandler_Head checks that every GET route answers HEAD with the
// GET's status and headers and no body (monitors and link checkers use it).
func TestHandler_Head(t *testing.T) {
	srv := newTestServer(t)
	for _, target := range append([]string{"/health"}, readTargets...) {
		t.Run(strings.TrimPrefix(target, "/"), func(t *testing.T) {
			get, err := http.Get(srv.URL + "/api" + target)
			if err != nil {
				t.Fatal(err)
			}
			get.Body.Close()
			head, err := http.Head(srv.URL + "/api" + target)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(head.Body)
			head.Body.Close()
			if head.StatusCode != get.StatusCode || len(body) != 0 {
				t.Errorf("HEAD = %d with %d bytes, want %d and no body", head.StatusCode, len(body), get.StatusCode)
			}
			for _, h := range []string{"Content-Type", "ETag", "Cache-Control", "X-Total-Count", "Link"} {
				if head.Header.Get(h) != get.Header.Get(h) {
					t.Errorf("HEAD %s = %q, GET's = %q", h, head.Header.Get(h), get.Header.Get(h))
				}
			}
		})
	}
	t.Run("ErrUnknownPath", func(t *testing.T) {
		res, err := http.Head(srv.URL + "/api/nope")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("HEAD /api/nope = %d, want 404", res.StatusCode)
		}
	})
}

// TestHandler_RequestID follows a request's id from the client (or the
// server) into the answer's header, the JSON error and the log line.
func TestHandler_RequestID(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	for _, tc := range []struct {
		name, sent string
		kept       bool
	}{
		{"Made", "", false},
		{"FromClient", "req-2026.11_26-abc", true},
		{"ErrTooLong", strings.Repeat("a", 65), false},
		{"ErrForgedLogLine", "abc\" level=ERROR msg=forged", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f.logs.Take()
			var headers []string
			if tc.sent != "" {
				headers = []string{"X-Request-Id", tc.sent}
			}
			e := wantError(t, f.call(t, "GET", "/no-such-endpoint", "", headers...), 404, nil)
			if tc.kept != (e.RequestID == tc.sent) {
				t.Errorf("requestId %q for a client's %q; kept = %v, want %v", e.RequestID, tc.sent, e.RequestID == tc.sent, tc.kept)
			}
			if !usableRequestID(e.RequestID) {
				t.Errorf("requestId %q is not a usable id", e.RequestID)
			}
			logs := f.logs.Take()
			if !strings.Contains(logs, "request_id="+e.RequestID) || !strings.Contains(logs, "status=404") {
				t.Errorf("log %q does not name the request %s and its status", logs, e.RequestID)
			}
		})
	}
	t.Run("Success", func(t *testing.T) {
		res := f.call(t, "GET", "/health", "")
		if id := res.header.Get("X-Request-Id"); res.status != 200 || !usableRequestID(id) {
			t.Errorf("GET /health = %d with X-Request-Id %q", res.status, id)
		}
	})
}
