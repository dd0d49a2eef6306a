package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/logtest"
)

// wait is how long a test waits for something that should happen in
// milliseconds before it gives up; only reached when the code is broken.
const wait = 5 * time.Second

// newTestLogger logs text into a buffer the test can read.
func newTestLogger() (*slog.Logger, *logtest.Buffer) {
	buf := &logtest.Buffer{}
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug})), buf
}

// notifyHandler passes records on and reports the messages it sees, with
// their attributes, on a channel.
type notifyHandler struct {
	slog.Handler
	records chan<- slog.Record
}

func (h notifyHandler) Handle(ctx context.Context, r slog.Record) error {
	select {
	case h.records <- r.Clone():
	default: // nobody is listening any more
	}
	return h.Handler.Handle(ctx, r)
}

// waitRecord waits for a log record with the message msg.
func waitRecord(t *testing.T, records <-chan slog.Record, msg string) slog.Record {
	t.Helper()
	timeout := time.After(wait)
	for {
		select {
		case r := <-records:
			if r.Message == msg {
				return r
			}
		case <-timeout:
			t.Fatalf("no %q log record within %s", msg, wait)
		}
	}
}

func recordAttr(r slog.Record, key string) string {
	var v string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == key {
			v = a.Value.String()
			return false
		}
		return true
	})
	return v
}

// stubAPI answers every request with the path it saw.
type stubAPI struct {
	calls atomic.Int32
}

func (a *stubAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.calls.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Stub", "api")
	io.WriteString(w, `{"method":"`+r.Method+`","path":"`+r.URL.Path+`","remote":"`+r.RemoteAddr+`"}`)
}

func TestHandler(t *testing.T) {
	t.Parallel()
	s := newFixtureSite(t)
	api := &stubAPI{}
	// The API's stored files go out as stored (api.SentAsStored).
	h := Handler(s, api, func(p string) bool { return p == "/api/organisations/o-1/evidence/e-1/file" })

	t.Run("Routes", func(t *testing.T) {
		for _, tt := range []struct {
			method string
			target string
			api    bool   // answered by the API stub
			status int    // when answered by the site
			body   string // when answered by the site
		}{
			{method: "GET", target: "/api", api: true},
			{method: "GET", target: "/api/", api: true},
			{method: "GET", target: "/api/health", api: true},
			{method: "GET", target: "/api/news/1?x=y", api: true},
			{method: "POST", target: "/api/newsletter/subscribe", api: true},
			{method: "DELETE", target: "/api/x", api: true},
			{method: "GET", target: "/", status: 200, body: indexHTML},
			{method: "GET", target: "/news", status: 200, body: newsHTML},
			{method: "GET", target: "/news/", status: 200, body: newsHTML},
			{method: "GET", target: "/assets/app-abc123.js", status: 200, body: appJS},
			{method: "GET", target: "/apix", status: 404, body: notFoundHTML},
			{method: "GET", target: "/apis/health", status: 404, body: notFoundHTML},
			{method: "GET", target: "/news/api/x", status: 404, body: notFoundHTML},
			{method: "GET", target: "/nope", status: 404, body: notFoundHTML},
			{method: "GET", target: "/_headers", status: 404, body: notFoundHTML},
			{method: "GET", target: "/../secret.txt", status: 404, body: notFoundHTML},
			{method: "GET", target: "/%2e%2e/secret.txt", status: 404, body: notFoundHTML},
			{method: "POST", target: "/", status: 405},
		} {
			t.Run(tt.method+" "+tt.target, func(t *testing.T) {
				before := api.calls.Load()
				w := do(t, h, tt.method, tt.target, nil)
				calledAPI := api.calls.Load() != before
				if calledAPI != tt.api {
					t.Fatalf("API called = %v, want %v (status %d, body %q)", calledAPI, tt.api, w.Code, w.Body.String())
				}
				if tt.api {
					type stubbed struct {
						Status int
						XStub  string
					}
					if diff := cmp.Diff(stubbed{200, "api"}, stubbed{w.Code, w.Header().Get("X-Stub")}); diff != "" {
						t.Errorf("want the stub's answer (-want +got):\n%s", diff)
					}
					path, _, _ := strings.Cut(tt.target, "?")
					if want := `"path":"` + path + `"`; !strings.Contains(w.Body.String(), want) {
						t.Errorf("body = %q, want the API to see the full path (%s)", w.Body.String(), want)
					}
					return
				}
				if w.Code != tt.status {
					t.Errorf("status = %d, want %d", w.Code, tt.status)
				}
				if tt.body != "" && w.Body.String() != tt.body {
					t.Errorf("body = %q, want %q", w.Body.String(), tt.body)
				}
			})
		}
	})

	t.Run("NilAPI", func(t *testing.T) {
		h := Handler(s, nil, nil)
		for _, target := range []string{"/api", "/api/health"} {
			if diff := cmp.Diff(reply{404, notFoundHTML}, replyOf(do(t, h, "GET", target, nil))); diff != "" {
				t.Errorf("GET %s without an API, want the site's 404 (-want +got):\n%s", target, diff)
			}
		}
		if diff := cmp.Diff(reply{200, newsHTML}, replyOf(do(t, h, "GET", "/news", nil))); diff != "" {
			t.Errorf("GET /news, want the news page (-want +got):\n%s", diff)
		}
	})

	// Any client can send these headers, so none of them replaces the
	// peer's address (httptest's 192.0.2.1:1234).
	t.Run("ClientIPHeadersIgnored", func(t *testing.T) {
		w := do(t, h, "GET", "/api/ip", http.Header{
			"X-Real-Ip":       {"203.0.113.7"},
			"X-Forwarded-For": {"203.0.113.8"},
			"True-Client-Ip":  {"203.0.113.9"},
		})
		if want := `"remote":"192.0.2.1:1234"`; !strings.Contains(w.Body.String(), want) {
			t.Errorf("body = %q, want the peer's RemoteAddr (%s), not one from a client's header", w.Body.String(), want)
		}
	})

	t.Run("Gzip", func(t *testing.T) {
		for _, tt := range []struct {
			name           string
			target         string
			acceptEncoding string
			gzip           bool
			status         int
			body           string
		}{
			{"HTML", "/", "gzip", true, 200, indexHTML},
			{"HTMLPrettyURL", "/news", "gzip, deflate, br", true, 200, newsHTML},
			{"HTMLUpperCase", "/news/", "GZIP", true, 200, newsHTML},
			{"JS", "/assets/app-abc123.js", "gzip", true, 200, appJS},
			{"Text", "/robots.txt", "gzip", true, 200, robotsTXT},
			{"NotFoundPage", "/nope", "gzip", true, 404, notFoundHTML},
			{"API", "/api/health", "gzip", true, 200, `{"method":"GET","path":"/api/health","remote":"192.0.2.1:1234"}`},
			{"PNGNotCompressed", "/assets/logo-abc123.png", "gzip", false, 200, pngBytes},
			{"EvidenceFileAsStored", "/api/organisations/o-1/evidence/e-1/file", "gzip", false, 200,
				`{"method":"GET","path":"/api/organisations/o-1/evidence/e-1/file","remote":"192.0.2.1:1234"}`},
			{"NoAcceptEncoding", "/", "", false, 200, indexHTML},
			{"IdentityOnly", "/", "identity", false, 200, indexHTML},
		} {
			t.Run(tt.name, func(t *testing.T) {
				var hdr http.Header
				if tt.acceptEncoding != "" {
					hdr = http.Header{"Accept-Encoding": {tt.acceptEncoding}}
				}
				w := do(t, h, "GET", tt.target, hdr)
				if w.Code != tt.status {
					t.Fatalf("status = %d, want %d", w.Code, tt.status)
				}
				body := w.Body.Bytes()
				if tt.gzip {
					if got := w.Header().Get("Content-Encoding"); got != "gzip" {
						t.Fatalf("Content-Encoding = %q, want gzip", got)
					}
					if got := w.Header().Get("Content-Length"); got != "" {
						t.Errorf("Content-Length = %q on a gzipped body, want none", got)
					}
					if got := w.Header().Values("Vary"); !containsFold(got, "Accept-Encoding") {
						t.Errorf("Vary = %q, want Accept-Encoding", got)
					}
					zr, err := gzip.NewReader(bytes.NewReader(body))
					if err != nil {
						t.Fatalf("body is not gzip: %v", err)
					}
					if body, err = io.ReadAll(zr); err != nil {
						t.Fatalf("gunzip: %v", err)
					}
				} else if got := w.Header().Get("Content-Encoding"); got != "" {
					t.Errorf("Content-Encoding = %q, want none", got)
				}
				if string(body) != tt.body {
					t.Errorf("body = %q, want %q", body, tt.body)
				}
				if !strings.HasPrefix(tt.target, "/api") {
					if got := w.Header().Get("Content-Security-Policy"); got != csp {
						t.Errorf("Content-Security-Policy = %q, want %q", got, csp)
					}
				}
			})
		}
	})

	t.Run("GzipOverRealConnection", func(t *testing.T) {
		// The Go client asks for gzip itself and decompresses transparently.
		srv := startServe(t, h)
		res, err := srv.client.Get(srv.url + "/news")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		type gunzipped struct {
			Status       int
			Body         string
			Uncompressed bool // by the client: the page was gzipped on the wire
		}
		if diff := cmp.Diff(gunzipped{200, newsHTML, true}, gunzipped{res.StatusCode, string(body), res.Uncompressed}); diff != "" {
			t.Errorf("GET /news, want 200 and the page, gzipped on the wire (-want +got):\n%s", diff)
		}
	})
}

func containsFold(vs []string, want string) bool {
	for _, v := range vs {
		for _, part := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), want) {
				return true
			}
		}
	}
	return false
}

// served is a running Serve.
type served struct {
	url     string
	addr    string
	client  *http.Client
	cancel  context.CancelFunc
	stopped chan struct{} // closed when Serve has returned
	err     error         // Serve's result, once stopped is closed
	logs    <-chan slog.Record
	buf     *logtest.Buffer
}

// wait waits for Serve to return and gives its result.
func (s *served) wait(t *testing.T) error {
	t.Helper()
	select {
	case <-s.stopped:
		return s.err
	case <-time.After(wait):
		t.Fatal("Serve did not return")
		return nil
	}
}

// startServe runs Serve on 127.0.0.1:0 and learns the port from its
// "serving" log line, so no port is guessed (a port found by listening on
// :0 and closing could be taken again before Serve listens). Cleanup
// cancels it and waits for it to return.
func startServe(t *testing.T, h http.Handler) *served {
	t.Helper()
	records := make(chan slog.Record, 64)
	base, buf := newTestLogger()
	log := slog.New(notifyHandler{Handler: base.Handler(), records: records})
	ctx, cancel := context.WithCancel(t.Context())
	srv := &served{cancel: cancel, stopped: make(chan struct{}), logs: records, buf: buf}
	go func() {
		srv.err = Serve(ctx, "127.0.0.1:0", h, log)
		close(srv.stopped)
	}()
	select {
	case r := <-records:
		if r.Message != "serving" {
			cancel()
			t.Fatalf("first log record = %q, want serving", r.Message)
		}
		srv.addr = recordAttr(r, "addr")
	case <-srv.stopped:
		cancel()
		t.Fatalf("Serve returned %v before serving", srv.err)
	case <-time.After(wait):
		cancel()
		t.Fatal("Serve did not start")
	}
	srv.url = "http://" + srv.addr
	srv.client = &http.Client{Timeout: wait, Transport: &http.Transport{}}
	t.Cleanup(func() {
		cancel()
		srv.client.CloseIdleConnections()
		select {
		case <-srv.stopped:
		case <-time.After(wait):
			t.Error("Serve did not return after cancel")
		}
	})
	return srv
}

func TestServe(t *testing.T) {
	t.Parallel()
	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		site := newFixtureSite(t)
		srv := startServe(t, Handler(site, &stubAPI{}, nil))
		host, port, err := net.SplitHostPort(srv.addr)
		if err != nil || host != "127.0.0.1" || port == "0" {
			t.Fatalf("serving on %q, want 127.0.0.1 and a real port", srv.addr)
		}
		for _, tt := range []struct {
			target string
			status int
			body   string // for /api: a prefix (RemoteAddr ends in the client's port)
		}{
			{"/", 200, indexHTML},
			{"/news", 200, newsHTML},
			{"/news/", 200, newsHTML},
			{"/nope", 404, notFoundHTML},
			{"/api/health", 200, `{"method":"GET","path":"/api/health","remote":"127.0.0.1:`},
		} {
			res, err := srv.client.Get(srv.url + tt.target)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			ok := string(body) == tt.body
			if strings.HasPrefix(tt.target, "/api") {
				ok = strings.HasPrefix(string(body), tt.body)
			}
			if res.StatusCode != tt.status || !ok {
				t.Errorf("GET %s = %d %q, want %d %q", tt.target, res.StatusCode, body, tt.status, tt.body)
			}
			if res.Request.URL.Path != tt.target {
				t.Errorf("GET %s was redirected to %s", tt.target, res.Request.URL.Path)
			}
		}

		srv.cancel()
		if err := srv.wait(t); err != nil {
			t.Errorf("Serve = %v after cancel, want nil (graceful shutdown)", err)
		}
		if !strings.Contains(srv.buf.String(), "shutting down") {
			t.Errorf("log = %q, want a shutting down line", srv.buf.String())
		}
		srv.client.CloseIdleConnections()
		if c, err := net.DialTimeout("tcp", srv.addr, time.Second); err == nil {
			c.Close()
			t.Errorf("still accepting connections on %s after Serve returned", srv.addr)
		}
	})

	// A request running at cancel time finishes before Serve returns.
	t.Run("GracefulShutdown", func(t *testing.T) {
		t.Parallel()
		started := make(chan struct{})
		release := make(chan struct{})
		var once sync.Once
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			once.Do(func() { close(started) })
			<-release
			io.WriteString(w, "finished")
		})
		srv := startServe(t, h)
		var releaseOnce sync.Once
		defer releaseOnce.Do(func() { close(release) })

		type result struct {
			status int
			body   string
			err    error
		}
		resc := make(chan result, 1)
		go func() {
			res, err := srv.client.Get(srv.url + "/slow")
			if err != nil {
				resc <- result{err: err}
				return
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			resc <- result{res.StatusCode, string(body), err}
		}()
		select {
		case <-started:
		case <-time.After(wait):
			t.Fatal("request never reached the handler")
		}

		srv.cancel()
		waitRecord(t, srv.logs, "shutting down")
		// Serve must wait for the running request. (This check can only
		// pass wrongly, never fail wrongly.)
		select {
		case <-srv.stopped:
			t.Fatalf("Serve returned %v while a request was running", srv.err)
		case <-time.After(50 * time.Millisecond):
		}
		releaseOnce.Do(func() { close(release) })

		select {
		case r := <-resc:
			if r.err != nil {
				t.Errorf("in-flight request: %v, want 200 finished", r.err)
			} else if diff := cmp.Diff(reply{200, "finished"}, reply{r.status, r.body}); diff != "" {
				t.Errorf("in-flight request, want 200 finished (-want +got):\n%s", diff)
			}
		case <-time.After(wait):
			t.Fatal("in-flight request did not finish")
		}
		if err := srv.wait(t); err != nil {
			t.Errorf("Serve = %v, want nil", err)
		}
	})

	t.Run("ErrAddrInUse", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		log, _ := newTestLogger()
		done := make(chan error, 1)
		go func() { done <- Serve(t.Context(), ln.Addr().String(), http.NotFoundHandler(), log) }()
		select {
		case err := <-done:
			if err == nil {
				t.Error("Serve on a busy address = nil, want an error")
			}
		case <-time.After(wait):
			t.Fatal("Serve on a busy address did not return")
		}
	})

	t.Run("ErrBadAddr", func(t *testing.T) {
		t.Parallel()
		log, _ := newTestLogger()
		err := Serve(t.Context(), "127.0.0.1:notaport", http.NotFoundHandler(), log)
		if err == nil {
			t.Error("Serve with a bad address = nil, want an error")
		}
	})

	t.Run("CancelledBeforeStart", func(t *testing.T) {
		t.Parallel()
		log, _ := newTestLogger()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		done := make(chan error, 1)
		go func() { done <- Serve(ctx, "127.0.0.1:0", http.NotFoundHandler(), log) }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve = %v, want nil", err)
			}
		case <-time.After(wait):
			t.Fatal("Serve with a cancelled context did not return")
		}
	})
}

// newSiteBuild returns a BuildFunc that writes a valid site whose home
// page says version.
func newSiteBuild(version string) BuildFunc {
	return func(ctx context.Context, dir string) error {
		files := map[string]string{
			"index.html":      "home " + version,
			"404.html":        "404 " + version,
			"news/index.html": "news " + version,
			"_headers":        "/*\n  X-Version: " + version + "\n",
		}
		for name, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// rebuildDirs lists the directories RebuildEvery made next to base (its
// twin, TwinSuffix).
func rebuildDirs(t *testing.T, base string) []string {
	t.Helper()
	dirs, err := filepath.Glob(base + ".*")
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

// rebuildInterval is RebuildEvery's interval in the rebuild tests. They
// run in a synctest bubble, where it is fake time: a tick costs nothing.
const rebuildInterval = time.Minute

// rebuildFixture runs RebuildEvery on the fixture site. It belongs to one
// synctest bubble: make it with newRebuildFixture inside synctest.Test.
type rebuildFixture struct {
	site *Site
	base string // the fixture site's directory, served at the start
	log  *slog.Logger
	logs *logtest.Buffer // what log wrote
	// ctx is the context run gives RebuildEvery; a test may wrap it
	// before run. cancel cancels it.
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed when RebuildEvery has returned; nil before run
}

// newRebuildFixture serves the fixture site with a logger and a context
// for RebuildEvery. Cleanup cancels the context and waits for
// RebuildEvery to return before the site's directories are removed.
func newRebuildFixture(t *testing.T) *rebuildFixture {
	t.Helper()
	s := newFixtureSite(t)
	log, logs := newTestLogger()
	ctx, cancel := context.WithCancel(t.Context())
	f := &rebuildFixture{site: s, base: s.Dir(), log: log, logs: logs, ctx: ctx, cancel: cancel}
	t.Cleanup(func() {
		f.cancel()
		if f.done != nil {
			<-f.done // never returning is a deadlock, which fails the test
		}
	})
	return f
}

// run starts RebuildEvery every rebuildInterval, rebuilding beside the
// fixture site with build.
func (f *rebuildFixture) run(build BuildFunc, after func()) {
	f.done = make(chan struct{})
	go func() {
		defer close(f.done)
		f.site.RebuildEvery(f.ctx, rebuildInterval, f.base, build, f.log, after)
	}()
}

// tick moves the fake clock on to RebuildEvery's next tick and waits
// until the rebuild it starts is over: every goroutine of the bubble is
// blocked again (or has returned). Rebuilds take no fake time, so a test
// that sleeps only in tick wakes exactly on the ticks.
func (f *rebuildFixture) tick() {
	time.Sleep(rebuildInterval)
	synctest.Wait()
}

// stop cancels RebuildEvery's context and checks that it returns.
func (f *rebuildFixture) stop(t *testing.T) {
	t.Helper()
	f.cancel()
	f.wait(t)
}

// wait checks that RebuildEvery has returned (its context was cancelled)
// once the bubble has settled.
func (f *rebuildFixture) wait(t *testing.T) {
	t.Helper()
	synctest.Wait()
	select {
	case <-f.done:
	default:
		t.Fatal("RebuildEvery did not return after cancel")
	}
}

// received gives the next value c holds, if it holds one.
func received[T any](c <-chan T) (T, bool) {
	select {
	case v := <-c:
		return v, true
	default:
		var zero T
		return zero, false
	}
}

// The rebuild tests run in synctest bubbles: the ticker uses the
// bubble's fake clock, so each tick is deterministic and instant.
func TestSite_RebuildEvery(t *testing.T) {
	t.Parallel()

	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			// Channels, not slices: the race detector does not know that
			// the fake clock orders the loop's writes after the test's reads.
			var builds atomic.Int32
			built := make(chan string, 10) // the directories build was given
			build := func(ctx context.Context, dir string) error {
				n := builds.Add(1)
				built <- dir
				return newSiteBuild(strconv.Itoa(int(n)))(ctx, dir)
			}
			swapped := make(chan string, 10) // Dir() after each swap
			f.run(build, func() { swapped <- f.site.Dir() })

			f.tick()
			first, ok := received(swapped)
			if !ok {
				t.Fatal("no swap at the first tick")
			}
			if want, _ := received(built); first != want {
				t.Errorf("Dir() after the first rebuild = %q, want the built dir %q", first, want)
			}
			if want := f.base + TwinSuffix; first != want {
				t.Errorf("rebuilt into %q, want the twin %q beside it", first, want)
			}
			// The new site serves: content and _headers.
			type versioned struct {
				Status   int
				Body     string
				XVersion string
			}
			w := do(t, f.site, "GET", "/news", nil)
			got := versioned{w.Code, w.Body.String(), w.Header().Get("X-Version")}
			if diff := cmp.Diff(versioned{200, "news 1", "1"}, got); diff != "" {
				t.Errorf("GET /news after the rebuild, want news 1 from the new site (-want +got):\n%s", diff)
			}

			// The second rebuild goes into the folder served before (its
			// site brought up to date in place), the third into the twin
			// again: two folders, neither removed.
			for n, want := range []string{f.base, f.base + TwinSuffix} {
				f.tick()
				dir, ok := received(swapped)
				if !ok {
					t.Fatalf("no swap at tick %d", n+2)
				}
				if dir != want {
					t.Errorf("rebuild %d went into %q, want %q", n+2, dir, want)
				}
				if w := do(t, f.site, "GET", "/", nil); w.Body.String() != "home "+strconv.Itoa(n+2) {
					t.Errorf("GET / = %q after rebuild %d, want home %d", w.Body.String(), n+2, n+2)
				}
			}
			f.stop(t)
			for _, dir := range []string{f.base, f.base + TwinSuffix} {
				if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
					t.Errorf("%s was removed: %v", dir, err)
				}
			}
			if dirs := rebuildDirs(t, f.base); len(dirs) != 1 {
				t.Errorf("folders beside the site = %q, want its twin alone", dirs)
			}
			if logs := f.logs.String(); !strings.Contains(logs, "rebuilt site") || strings.Contains(logs, "level=ERROR") {
				t.Errorf("log = %q, want rebuilt site lines and no errors", logs)
			}
		})
	})

	// A failed build into the folder served before leaves it as it was,
	// for the next build to update; the site served stays.
	t.Run("ErrBuildKeepsTwin", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			var builds atomic.Int32
			build := func(ctx context.Context, dir string) error {
				if builds.Add(1) == 3 {
					return errors.New("hugo: template boom")
				}
				return newSiteBuild(strconv.Itoa(int(builds.Load())))(ctx, dir)
			}
			f.run(build, nil)
			f.tick() // into the twin
			f.tick() // into base
			f.tick() // into the twin: fails
			f.stop(t)
			if got := f.site.Dir(); got != f.base {
				t.Errorf("Dir() = %q, want the last good site %q", got, f.base)
			}
			if w := do(t, f.site, "GET", "/", nil); w.Body.String() != "home 2" {
				t.Errorf("GET / = %q, want home 2", w.Body.String())
			}
			if got, err := os.ReadFile(filepath.Join(f.base+TwinSuffix, "index.html")); err != nil || string(got) != "home 1" {
				t.Errorf("the twin after a failed build into it = %q (%v), want its site as it was, home 1", got, err)
			}
		})
	})

	t.Run("ErrBuild", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			var builds atomic.Int32
			build := func(_ context.Context, dir string) error {
				// A half-written site, then failure.
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("half"), 0o644); err != nil {
					return err
				}
				if builds.Add(1) == 2 {
					f.cancel() // shutting down: this cancelled build is not logged as a failure
				}
				return errors.New("hugo: template boom")
			}
			f.run(build, func() { t.Error("after called for a failed build") })
			f.tick()
			f.tick()
			f.wait(t)

			if got := f.site.Dir(); got != f.base {
				t.Errorf("Dir() = %q, want the last good site %q", got, f.base)
			}
			if diff := cmp.Diff(reply{200, newsHTML}, replyOf(do(t, f.site, "GET", "/news", nil))); diff != "" {
				t.Errorf("GET /news, want the last good site (-want +got):\n%s", diff)
			}
			if dirs := rebuildDirs(t, f.base); len(dirs) != 0 {
				t.Errorf("failed builds left %q behind", dirs)
			}
			logs := f.logs.String()
			for _, want := range []string{"level=ERROR", "rebuild failed", "hugo: template boom", "dir=" + f.base} {
				if !strings.Contains(logs, want) {
					t.Errorf("log = %q, want %q", logs, want)
				}
			}
			if n, want := strings.Count(logs, "rebuild failed"), int(builds.Load())-1; n != want || n < 1 {
				t.Errorf("log has %d rebuild failed lines for %d builds, want one per build before shutdown", n, builds.Load())
			}
		})
	})

	t.Run("ErrUnusableSite", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			var builds atomic.Int32
			build := func(_ context.Context, dir string) error {
				if builds.Add(1) == 1 {
					f.cancel()
				}
				// "Succeeds" but writes no index.html.
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, "404.html"), []byte("x"), 0o644)
			}
			f.run(build, func() { t.Error("after called for an unusable site") })
			f.tick()
			f.wait(t)

			if got := f.site.Dir(); got != f.base {
				t.Errorf("Dir() = %q, want the last good site %q", got, f.base)
			}
			if w := do(t, f.site, "GET", "/", nil); w.Body.String() != indexHTML {
				t.Errorf("GET / = %q, want the last good site", w.Body.String())
			}
			if dirs := rebuildDirs(t, f.base); len(dirs) != 0 {
				t.Errorf("unusable build left %q behind", dirs)
			}
			logs := f.logs.String()
			for _, want := range []string{"level=ERROR", "unusable site", "no index.html"} {
				if !strings.Contains(logs, want) {
					t.Errorf("log = %q, want %q", logs, want)
				}
			}
		})
	})

	t.Run("RecoversAfterFailure", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			var builds, swaps atomic.Int32
			build := func(ctx context.Context, dir string) error {
				if builds.Add(1) == 1 {
					return errors.New("first build fails")
				}
				return newSiteBuild("ok")(ctx, dir)
			}
			f.run(build, func() { swaps.Add(1) })
			f.tick() // fails
			f.tick() // succeeds
			if n := swaps.Load(); n != 1 {
				t.Fatalf("%d swaps after a failed and a good build, want 1", n)
			}
			f.stop(t)
			if w := do(t, f.site, "GET", "/", nil); w.Body.String() != "home ok" {
				t.Errorf("GET / = %q, want home ok", w.Body.String())
			}
			if !strings.Contains(f.logs.String(), "first build fails") {
				t.Errorf("log = %q, want the first failure", f.logs.String())
			}
		})
	})

	t.Run("BuildGetsContext", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			type key struct{}
			f.ctx = context.WithValue(f.ctx, key{}, "v")
			var got atomic.Bool
			build := func(bctx context.Context, dir string) error {
				got.Store(bctx.Value(key{}) == "v")
				f.cancel()
				<-bctx.Done() // the build sees the cancellation
				return bctx.Err()
			}
			f.run(build, nil)
			f.tick()
			f.wait(t)
			if !got.Load() {
				t.Error("build did not get RebuildEvery's context")
			}
		})
	})

	t.Run("StopsOnCancel", func(t *testing.T) {
		t.Parallel()
		for _, tt := range []struct {
			name string
			pre  bool // cancel before starting, else just before the first tick
		}{
			{"CancelledBeforeStart", true},
			{"CancelledWhileWaiting", false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				synctest.Test(t, func(t *testing.T) {
					f := newRebuildFixture(t)
					if tt.pre {
						f.cancel()
					}
					var builds atomic.Int32
					f.run(func(context.Context, string) error {
						builds.Add(1)
						return nil
					}, nil)
					if !tt.pre {
						time.Sleep(rebuildInterval - time.Nanosecond)
					}
					f.stop(t)
					if n := builds.Load(); n != 0 {
						t.Errorf("%d builds before the first tick", n)
					}
					if got := f.site.Dir(); got != f.base {
						t.Errorf("Dir() = %q, want %q", got, f.base)
					}
				})
			})
		}
	})

	// Requests keep being answered while the loop swaps sites (run with
	// -race).
	t.Run("ServesWhileSwapping", func(t *testing.T) {
		t.Parallel()
		synctest.Test(t, func(t *testing.T) {
			f := newRebuildFixture(t)
			var n atomic.Int32
			f.run(newSiteBuild("x"), func() {
				if n.Add(1) == 3 {
					f.cancel()
				}
			})
			h := Handler(f.site, nil, nil)
			for want := int32(1); want <= 3; want++ {
				// Wake with the tick and send requests until its swap is
				// done, so they run while the site is built and swapped.
				// The fake clock stands still meanwhile; maxRequests ends
				// the loop if the rebuild never swaps.
				time.Sleep(rebuildInterval)
				const maxRequests = 10000
				for i := 0; i < maxRequests && n.Load() < want; i++ {
					w := do(t, h, "GET", "/news", nil)
					if w.Code != 200 || (w.Body.String() != newsHTML && w.Body.String() != "news x") {
						t.Fatalf("GET /news = %d %q while swapping", w.Code, w.Body.String())
					}
				}
			}
			synctest.Wait()
			if n.Load() < 3 {
				t.Errorf("%d swaps in 3 ticks, want at least 3", n.Load())
			}
			f.wait(t)
		})
	})
}

// TestSite_RebuildKick: a kick (a publish) rebuilds at once, exactly
// once, with no interval; kicks during a rebuild make one more after it.
func TestSite_RebuildKick(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newRebuildFixture(t)
		kick := NewKick()
		var builds atomic.Int32
		release := make(chan struct{}) // a build waits for it while blocking is on
		var blocking atomic.Bool
		build := func(ctx context.Context, dir string) error {
			n := builds.Add(1)
			if blocking.Load() {
				<-release
			}
			return newSiteBuild(strconv.Itoa(int(n)))(ctx, dir)
		}
		f.done = make(chan struct{})
		go func() {
			defer close(f.done)
			f.site.Rebuild(f.ctx, 0, kick, f.base, build, f.log, nil)
		}()

		synctest.Wait()
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := builds.Load(); n != 0 {
			t.Fatalf("%d rebuild(s) with no interval and no kick", n)
		}
		kick.Now()
		synctest.Wait()
		if n := builds.Load(); n != 1 {
			t.Fatalf("%d rebuild(s) after one kick, want 1", n)
		}
		if w := do(t, f.site, "GET", "/", nil); w.Body.String() != "home 1" {
			t.Errorf("GET / = %q, want the rebuilt home 1", w.Body.String())
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := builds.Load(); n != 1 {
			t.Fatalf("%d rebuild(s) an hour after one kick, want 1", n)
		}

		// Three kicks while a rebuild runs: one more rebuild after it.
		blocking.Store(true)
		kick.Now()
		synctest.Wait() // the second build is waiting
		kick.Now()
		kick.Now()
		kick.Now()
		blocking.Store(false)
		close(release)
		synctest.Wait()
		if n := builds.Load(); n != 3 {
			t.Errorf("%d rebuild(s), want 3: the kicks during the second make one", n)
		}
		f.stop(t)
	})
}
