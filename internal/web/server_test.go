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
	"time"
)

// wait is how long a test waits for something that should happen in
// milliseconds before it gives up; only reached when the code is broken.
const wait = 5 * time.Second

// syncBuffer is a bytes.Buffer safe for a logger in another goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// newTestLogger logs text into a buffer the test can read.
func newTestLogger() (*slog.Logger, *syncBuffer) {
	buf := &syncBuffer{}
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
	h := Handler(s, api)

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
					if w.Code != 200 || w.Header().Get("X-Stub") != "api" {
						t.Errorf("status = %d X-Stub = %q, want the stub's answer", w.Code, w.Header().Get("X-Stub"))
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
		h := Handler(s, nil)
		for _, target := range []string{"/api", "/api/health"} {
			w := do(t, h, "GET", target, nil)
			if w.Code != 404 || w.Body.String() != notFoundHTML {
				t.Errorf("GET %s without an API = %d %q, want the site's 404", target, w.Code, w.Body.String())
			}
		}
		if w := do(t, h, "GET", "/news", nil); w.Code != 200 || w.Body.String() != newsHTML {
			t.Errorf("GET /news = %d %q, want the news page", w.Code, w.Body.String())
		}
	})

	t.Run("RealIP", func(t *testing.T) {
		w := do(t, h, "GET", "/api/ip", http.Header{"X-Real-Ip": {"203.0.113.7"}})
		if !strings.Contains(w.Body.String(), `"remote":"203.0.113.7"`) {
			t.Errorf("body = %q, want RemoteAddr from X-Real-IP", w.Body.String())
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
		if res.StatusCode != 200 || string(body) != newsHTML || !res.Uncompressed {
			t.Errorf("GET /news = %d %q (uncompressed by client: %v), want 200, the page, gzipped on the wire", res.StatusCode, body, res.Uncompressed)
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
	buf     *syncBuffer
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
	ctx, cancel := context.WithCancel(context.Background())
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
		srv := startServe(t, Handler(site, &stubAPI{}))
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
			if r.err != nil || r.status != 200 || r.body != "finished" {
				t.Errorf("in-flight request = %d %q %v, want 200 finished", r.status, r.body, r.err)
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
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- Serve(ctx, ln.Addr().String(), http.NotFoundHandler(), log) }()
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
		err := Serve(context.Background(), "127.0.0.1:notaport", http.NotFoundHandler(), log)
		if err == nil {
			t.Error("Serve with a bad address = nil, want an error")
		}
	})

	t.Run("CancelledBeforeStart", func(t *testing.T) {
		t.Parallel()
		log, _ := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
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

// rebuildDirs lists the directories RebuildEvery made next to base.
func rebuildDirs(t *testing.T, base string) []string {
	t.Helper()
	dirs, err := filepath.Glob(base + ".*")
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func TestSite_RebuildEvery(t *testing.T) {
	t.Parallel()
	const interval = 20 * time.Millisecond

	// run starts RebuildEvery and returns a channel closed when it returns.
	run := func(s *Site, ctx context.Context, base string, build BuildFunc, log *slog.Logger, after func()) <-chan struct{} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.RebuildEvery(ctx, interval, base, build, log, after)
		}()
		return done
	}
	waitDone := func(t *testing.T, done <-chan struct{}) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(wait):
			t.Fatal("RebuildEvery did not return after cancel")
		}
	}

	t.Run("OK", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, buf := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()

		var builds atomic.Int32
		var gotDir atomic.Value
		build := func(bctx context.Context, dir string) error {
			n := builds.Add(1)
			if n == 1 {
				gotDir.Store(dir)
			}
			return newSiteBuild(strconv.Itoa(int(n)))(bctx, dir)
		}
		swapped := make(chan string, 10)
		after := func() { swapped <- s.Dir() }
		done := run(s, ctx, base, build, log, after)

		var first string
		select {
		case first = <-swapped:
		case <-time.After(wait):
			t.Fatal("no swap")
		}
		if want := gotDir.Load().(string); first != want {
			t.Errorf("Dir() after the first rebuild = %q, want the built dir %q", first, want)
		}
		if filepath.Dir(first) != filepath.Dir(base) || !strings.HasPrefix(filepath.Base(first), filepath.Base(base)+".") {
			t.Errorf("rebuilt into %q, want %s.<timestamp> beside it", first, base)
		}
		// The new site serves: content and _headers.
		w := do(t, s, "GET", "/news", nil)
		if w.Code != 200 || w.Body.String() != "news 1" || w.Header().Get("X-Version") != "1" {
			t.Errorf("GET /news after the rebuild = %d %q X-Version=%q, want news 1 from the new site", w.Code, w.Body.String(), w.Header().Get("X-Version"))
		}

		// A second rebuild replaces the first; the first stays on disk for
		// requests still reading it, and the original is left alone.
		var second string
		select {
		case second = <-swapped:
		case <-time.After(wait):
			t.Fatal("no second swap")
		}
		cancel()
		waitDone(t, done)
		if second == first {
			t.Errorf("second rebuild reused %q", first)
		}
		if got := s.Dir(); got == first || got == base {
			t.Errorf("Dir() = %q, want a newer rebuild", got)
		}
		for _, dir := range []string{base, first, second} {
			if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
				t.Errorf("%s was removed at once: %v", dir, err)
			}
		}
		if w := do(t, s, "GET", "/", nil); !strings.HasPrefix(w.Body.String(), "home ") || w.Body.String() == "home 1" {
			t.Errorf("GET / = %q, want a later rebuild", w.Body.String())
		}
		if logs := buf.String(); !strings.Contains(logs, "rebuilt site") || strings.Contains(logs, "level=ERROR") {
			t.Errorf("log = %q, want rebuilt site lines and no errors", logs)
		}
	})

	t.Run("ErrBuild", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, buf := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()

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
				cancel() // shutting down: this cancelled build is not logged as a failure
			}
			return errors.New("hugo: template boom")
		}
		after := func() { t.Error("after called for a failed build") }
		done := run(s, ctx, base, build, log, after)
		waitDone(t, done)

		if got := s.Dir(); got != base {
			t.Errorf("Dir() = %q, want the last good site %q", got, base)
		}
		if w := do(t, s, "GET", "/news", nil); w.Code != 200 || w.Body.String() != newsHTML {
			t.Errorf("GET /news = %d %q, want the last good site", w.Code, w.Body.String())
		}
		if dirs := rebuildDirs(t, base); len(dirs) != 0 {
			t.Errorf("failed builds left %q behind", dirs)
		}
		logs := buf.String()
		for _, want := range []string{"level=ERROR", "rebuild failed", "hugo: template boom", "dir=" + base} {
			if !strings.Contains(logs, want) {
				t.Errorf("log = %q, want %q", logs, want)
			}
		}
		if n, want := strings.Count(logs, "rebuild failed"), int(builds.Load())-1; n != want || n < 1 {
			t.Errorf("log has %d rebuild failed lines for %d builds, want one per build before shutdown", n, builds.Load())
		}
	})

	t.Run("ErrUnusableSite", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, buf := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()

		var builds atomic.Int32
		build := func(_ context.Context, dir string) error {
			if builds.Add(1) == 1 {
				cancel()
			}
			// "Succeeds" but writes no index.html.
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "404.html"), []byte("x"), 0o644)
		}
		done := run(s, ctx, base, build, log, func() { t.Error("after called for an unusable site") })
		waitDone(t, done)

		if got := s.Dir(); got != base {
			t.Errorf("Dir() = %q, want the last good site %q", got, base)
		}
		if w := do(t, s, "GET", "/", nil); w.Body.String() != indexHTML {
			t.Errorf("GET / = %q, want the last good site", w.Body.String())
		}
		if dirs := rebuildDirs(t, base); len(dirs) != 0 {
			t.Errorf("unusable build left %q behind", dirs)
		}
		logs := buf.String()
		for _, want := range []string{"level=ERROR", "unusable site", "no index.html"} {
			if !strings.Contains(logs, want) {
				t.Errorf("log = %q, want %q", logs, want)
			}
		}
	})

	t.Run("RecoversAfterFailure", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, buf := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()

		var builds atomic.Int32
		build := func(ctx context.Context, dir string) error {
			if builds.Add(1) == 1 {
				return errors.New("first build fails")
			}
			return newSiteBuild("ok")(ctx, dir)
		}
		swapped := make(chan struct{}, 10)
		done := run(s, ctx, base, build, log, func() { swapped <- struct{}{} })
		select {
		case <-swapped:
		case <-time.After(wait):
			t.Fatal("no swap after a failed build")
		}
		cancel()
		waitDone(t, done)
		if w := do(t, s, "GET", "/", nil); w.Body.String() != "home ok" {
			t.Errorf("GET / = %q, want home ok", w.Body.String())
		}
		if !strings.Contains(buf.String(), "first build fails") {
			t.Errorf("log = %q, want the first failure", buf.String())
		}
	})

	t.Run("BuildGetsContext", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, _ := newTestLogger()
		type key struct{}
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
		defer cancel()
		var got atomic.Value
		build := func(bctx context.Context, dir string) error {
			got.Store(bctx.Value(key{}) == "v")
			cancel()
			<-bctx.Done() // the build sees the cancellation
			return bctx.Err()
		}
		waitDone(t, run(s, ctx, base, build, log, nil))
		if v, _ := got.Load().(bool); !v {
			t.Error("build did not get RebuildEvery's context")
		}
	})

	t.Run("StopsOnCancel", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, _ := newTestLogger()
		for _, tt := range []struct {
			name     string
			interval time.Duration
			pre      bool // cancel before starting
		}{
			{"CancelledBeforeStart", interval, true},
			{"CancelledWhileWaiting", time.Hour, false},
		} {
			t.Run(tt.name, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tt.pre {
					cancel()
				}
				var builds atomic.Int32
				done := make(chan struct{})
				go func() {
					defer close(done)
					s.RebuildEvery(ctx, tt.interval, base, func(context.Context, string) error {
						builds.Add(1)
						return nil
					}, log, nil)
				}()
				cancel()
				waitDone(t, done)
				if tt.interval == time.Hour && builds.Load() != 0 {
					t.Errorf("%d builds before the first tick", builds.Load())
				}
				if got := s.Dir(); got != base {
					t.Errorf("Dir() = %q, want %q", got, base)
				}
			})
		}
	})

	// Requests keep being answered while the loop swaps sites (run with
	// -race).
	t.Run("ServesWhileSwapping", func(t *testing.T) {
		t.Parallel()
		s := newFixtureSite(t)
		base := s.Dir()
		log, _ := newTestLogger()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var n atomic.Int32
		done := run(s, ctx, base, newSiteBuild("x"), log, func() {
			if n.Add(1) == 3 {
				cancel()
			}
		})
		h := Handler(s, nil)
		deadline := time.After(wait)
		for {
			w := do(t, h, "GET", "/news", nil)
			if w.Code != 200 || (w.Body.String() != newsHTML && w.Body.String() != "news x") {
				t.Fatalf("GET /news = %d %q while swapping", w.Code, w.Body.String())
			}
			select {
			case <-done:
				if n.Load() < 3 {
					t.Errorf("%d swaps, want at least 3", n.Load())
				}
				return
			case <-deadline:
				t.Fatalf("%d swaps within %s, want 3", n.Load(), wait)
			default:
			}
		}
	})
}
