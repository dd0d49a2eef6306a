package main

import (
	"encoding/json"
	"errors"
	"fmt"
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
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/app"
	"regpulse/internal/lambdatest"
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
func build(t testing.TB) string {
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
// no Hugo, no ingest (its feed and page parsers: the store keeps ingest's
// records through internal/ingeststate), no git (the CMS's backend is
// internal/cms/cmsrepo's, which a function, without a disk for a clone,
// does not run: the API names only internal/cms's contract), and a size
// a function can deploy.
func TestBinary_NoHugo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/gohugoio/") || strings.HasPrefix(dep, "github.com/go-git/") ||
			dep == "regpulse/generator" || dep == "regpulse/internal/ingest" || dep == "regpulse/internal/cms/cmsrepo" {
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

// invocation is a run of the function under a local fake of the Lambda
// Runtime API: the first event's answer and when things happened.
type invocation struct {
	answer  events.APIGatewayProxyResponse
	started time.Time // the process
	polled  time.Time // the function's first poll for an event
	done    time.Time // the answer
	log     string
	peakRSS int64 // bytes, the process's peak resident memory when it answered (Linux)
}

// invoke starts the function bin with env, hands it event and waits for
// its answer (or its failure, exit or a minute).
func invoke(t testing.TB, bin string, env []string, event events.APIGatewayProxyRequest) (inv invocation, err error) {
	body, _ := json.Marshal(event)
	rt := lambdatest.New(body, "arn:aws:lambda:local:0:function:regpulse-api")
	srv := httptest.NewServer(rt)
	defer srv.Close()
	cmd := exec.Command(bin)
	cmd.Dir = t.TempDir() // nothing of the working folder is needed
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir,
		lambdaRuntimeEnv + "=" + strings.TrimPrefix(srv.URL, "http://")}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	inv.started = time.Now()
	if err := cmd.Start(); err != nil {
		return inv, err
	}
	var waitErr error
	done := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(done) }()
	defer func() {
		cmd.Process.Kill()
		<-done
		inv.log = stderr.String()
	}()
	select {
	case body := <-rt.Answered:
		inv.done = time.Now()
		inv.polled = <-rt.Polled
		inv.peakRSS = peakRSS(cmd.Process.Pid)
		return inv, json.Unmarshal(body, &inv.answer)
	case body := <-rt.Failed:
		return inv, fmt.Errorf("the function reported an error: %s", body)
	case <-done:
		return inv, fmt.Errorf("the function exited: %w", waitErr)
	case <-time.After(60 * time.Second):
		return inv, errors.New("no answer in 60 s")
	}
}

// peakRSS is the peak resident memory of process pid (VmHWM), 0 where
// /proc does not tell.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// functionEnv is what a deploy sets for the function over the database
// at url.
func functionEnv(url string) []string {
	return []string{"REGPULSE_DEBUG=1", "DATABASE_URL=" + url, "REGPULSE_JWT_SECRET=" + strings.Repeat("s", 40)}
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
	list := events.APIGatewayProxyRequest{HTTPMethod: "GET", Path: "/api/circulars",
		QueryStringParameters: map[string]string{"limit": "2"}, Headers: map[string]string{"Accept": "application/json"},
		RequestContext: events.APIGatewayProxyRequestContext{Identity: events.APIGatewayRequestIdentity{SourceIP: "192.0.2.1"}}}

	t.Run("ErrNoDatabase", func(t *testing.T) {
		inv, err := invoke(t, bin, []string{"REGPULSE_JWT_SECRET=" + strings.Repeat("s", 40)}, list)
		if err == nil || !strings.Contains(inv.log, "DATABASE_URL") {
			t.Errorf("started without DATABASE_URL: %v, %s", err, inv.log)
		}
	})
	t.Run("Cold", func(t *testing.T) {
		inv, err := invoke(t, bin, functionEnv(url), list)
		if err != nil {
			t.Fatalf("%v\n%s", err, inv.log)
		}
		t.Logf("cold start (process start to first answer): %d ms (goal 300 ms); of which start to first poll %d ms, the request %d ms",
			inv.done.Sub(inv.started).Milliseconds(), inv.polled.Sub(inv.started).Milliseconds(), inv.done.Sub(inv.polled).Milliseconds())
		res := inv.answer
		var page []json.RawMessage
		total := res.Headers["X-Total-Count"]
		if v := res.MultiValueHeaders["X-Total-Count"]; len(v) > 0 {
			total = v[0]
		}
		if err := json.Unmarshal([]byte(res.Body), &page); res.StatusCode != 200 || err != nil || len(page) != 2 ||
			total != strconv.Itoa(len(storetest.Catalog().Circulars)) {
			t.Errorf("GET /api/circulars?limit=2: %d, X-Total-Count %q, %.300s (%v)", res.StatusCode, total, res.Body, err)
		}
		t.Logf("the function's log:\n%s", inv.log)
	})
}

// TestBinary_Flags holds the function's binary to the settings regpulse
// serve takes: app.Config's flags, and only --addr of its own.
func TestBinary_Flags(t *testing.T) {
	out, _ := exec.Command(build(t), "-h").CombinedOutput() // -h exits 2 by design
	got := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "  -"); ok {
			got[strings.Fields(name)[0]] = true
		}
	}
	want := app.Flags()
	want["addr"] = true
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("regpulse-api's flags (-want +got):\n%s\n%s", diff, out)
	}
}
