package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	if binary != "" {
		os.RemoveAll(filepath.Dir(binary)) // the built function, ~40 MB
	}
	os.Exit(code)
}

// maxBinary caps the function's size: without Hugo it is about 40 MB,
// with it well over 100.
const maxBinary = 60 << 20

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	buildOut  []byte
)

// build compiles the command once per test process.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "regpulse-api-test-")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "regpulse-api")
		buildOut, buildErr = exec.Command("go", "build", "-o", binary, ".").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return binary
}

// TestBinary_NoHugo checks what the function is made of: no generator,
// no Hugo, and a size a function can deploy.
func TestBinary_NoHugo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/gohugoio/") || dep == "regpulse/generator" {
			t.Errorf("regpulse-api imports %s", dep)
		}
	}
	fi, err := os.Stat(build(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("binary: %.1f MB", float64(fi.Size())/(1<<20))
	if fi.Size() > maxBinary {
		t.Errorf("binary is %d bytes, want at most %d", fi.Size(), maxBinary)
	}
}

func TestHandler_FunctionPath(t *testing.T) {
	h := handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.URL.Path) }))
	for _, tc := range []struct{ path, want string }{
		{"/api/health", "/api/health"},
		{functionPrefix + "/health", "/api/health"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", tc.path, nil))
		if rec.Code != 200 || rec.Body.String() != tc.want {
			t.Errorf("%s: %d %q, want the API's %s", tc.path, rec.Code, rec.Body, tc.want)
		}
	}
	t.Run("ErrOutsideAPI", func(t *testing.T) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/circulars", nil))
		if rec.Code != http.StatusNotFound {
			t.Errorf("/circulars: %d, want 404", rec.Code)
		}
	})
}

// fakeRuntime is the part of the Lambda Runtime API a Go function calls:
// it hands out one event, then keeps the next poll waiting, and records
// the function's answer.
type fakeRuntime struct {
	event    []byte
	served   sync.Once
	polled   chan time.Time // when the function first asked for an event
	answered chan []byte
	failed   chan []byte
}

func (f *fakeRuntime) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	switch {
	case r.URL.Path == "/2018-06-01/runtime/invocation/next":
		first := false
		f.served.Do(func() { first = true })
		if !first {
			<-r.Context().Done() // a frozen instance waits for its next event
			return
		}
		f.polled <- time.Now()
		w.Header().Set("Lambda-Runtime-Aws-Request-Id", "req-1")
		w.Header().Set("Lambda-Runtime-Deadline-Ms", "9999999999999")
		w.Header().Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:local:0:function:regpulse-api")
		w.Write(f.event)
	case strings.HasSuffix(r.URL.Path, "/response"):
		f.answered <- body
		w.WriteHeader(http.StatusAccepted)
	default: // /init/error, /invocation/{id}/error
		f.failed <- body
		w.WriteHeader(http.StatusAccepted)
	}
}

// TestInvoke_Lambda runs the built function under a local fake of the
// Lambda Runtime API over PostgreSQL, as Netlify would, and logs its cold
// start: process start to first answer (the goal is 300 ms; logged, not
// asserted, since a loaded machine is slower).
func TestInvoke_Lambda(t *testing.T) {
	bin := build(t)
	url := pgtest.URL(t)
	// The database as a deploy has it: migrated, and synced by a build.
	db, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SyncCatalog(t.Context(), storetest.Catalog()); err != nil {
		t.Fatal(err)
	}
	db.Close()

	event, _ := json.Marshal(events.APIGatewayProxyRequest{HTTPMethod: "GET", Path: "/api/circulars",
		QueryStringParameters: map[string]string{"limit": "2"}, Headers: map[string]string{"Accept": "application/json"},
		RequestContext: events.APIGatewayProxyRequestContext{Identity: events.APIGatewayRequestIdentity{SourceIP: "192.0.2.1"}}})
	rt := &fakeRuntime{event: event, answered: make(chan []byte, 1), failed: make(chan []byte, 1), polled: make(chan time.Time, 1)}
	srv := httptest.NewServer(rt)
	defer srv.Close()

	for _, tc := range []struct {
		name string
		env  []string
		want bool
	}{
		{"ErrNoDatabase", []string{"REGPULSE_JWT_SECRET=" + strings.Repeat("s", 40)}, false},
		{"Cold", []string{"REGPULSE_DEBUG=1", "DATABASE_URL=" + url, "REGPULSE_JWT_SECRET=" + strings.Repeat("s", 40)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Dir = t.TempDir() // nothing of the working folder is needed
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir,
				lambdaRuntimeEnv + "=" + strings.TrimPrefix(srv.URL, "http://")}, tc.env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			start := time.Now()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var waitErr error
			done := make(chan struct{})
			go func() { waitErr = cmd.Wait(); close(done) }()
			defer func() {
				cmd.Process.Kill()
				<-done
			}()
			if !tc.want {
				select {
				case <-done:
				case <-time.After(60 * time.Second):
					t.Fatal("still running after 60 s")
				}
				if waitErr == nil || !strings.Contains(stderr.String(), "DATABASE_URL") {
					t.Errorf("started without DATABASE_URL: %v, %s", waitErr, stderr.String())
				}
				return
			}
			select {
			case body := <-rt.answered:
				answered := time.Now()
				polled := <-rt.polled
				t.Logf("cold start (process start to first answer): %d ms (goal 300 ms); of which start to first poll %d ms, the request %d ms",
					answered.Sub(start).Milliseconds(), polled.Sub(start).Milliseconds(), answered.Sub(polled).Milliseconds())
				var res events.APIGatewayProxyResponse
				if err := json.Unmarshal(body, &res); err != nil {
					t.Fatalf("answer %s: %v", body, err)
				}
				var page []json.RawMessage
				total := res.Headers["X-Total-Count"]
				if v := res.MultiValueHeaders["X-Total-Count"]; len(v) > 0 {
					total = v[0]
				}
				if err := json.Unmarshal([]byte(res.Body), &page); res.StatusCode != 200 || err != nil || len(page) != 2 ||
					total != strconv.Itoa(len(storetest.Catalog().Circulars)) {
					t.Errorf("GET /api/circulars?limit=2: %d, X-Total-Count %q, %.300s (%v)", res.StatusCode, total, res.Body, err)
				}
				t.Logf("the function's log:\n%s", stderr.String())
			case body := <-rt.failed:
				t.Fatalf("the function reported an error: %s\n%s", body, stderr.String())
			case <-done:
				t.Fatalf("the function exited: %v\n%s", waitErr, stderr.String())
			case <-time.After(60 * time.Second):
				t.Fatalf("no answer in 60 s\n%s", stderr.String())
			}
		})
	}
}
