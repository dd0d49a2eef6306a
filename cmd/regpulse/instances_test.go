package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
)

// runAsEnv makes the test binary run `regpulse ARGS...` instead of the
// tests (TestMain): the many-instances test starts real server processes
// of this package's code without building the command separately.
const runAsEnv = "REGPULSE_TEST_RUN_AS_REGPULSE"

// instance is one `regpulse serve` process.
type instance struct {
	url  string
	cmd  *exec.Cmd
	done chan struct{}
	log  *processLog
}

// processLog is what a process wrote, read while it writes.
type processLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *processLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *processLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startInstance starts `regpulse serve` on a free loopback port over the
// database at dbURL (a site of two pages), without waiting for it.
func startInstance(t testing.TB, dbURL string) *instance {
	t.Helper()
	return startServe(t, "--data", t.TempDir(), "--database-url", dbURL)
}

// startServe starts `regpulse serve` on the real content with flags
// (--data, --database-url, --content…: the last of a flag given twice
// wins) on a free loopback port, without waiting for it. Cleanup kills
// it.
func startServe(t testing.TB, flags ...string) *instance {
	t.Helper()
	public := t.TempDir()
	for _, page := range []string{"index.html", "404.html"} {
		if err := os.WriteFile(filepath.Join(public, page), []byte("<!doctype html><title>RegPulse</title>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	args := append([]string{"serve", "--addr", addr, "--public", public,
		"--content", "../../content", "--log-level", "warn",
		"--login-limit", "3", "--signup-limit", "100000", "--limit-window", "1h",
		"--hash-memory", "64", "--hash-iterations", "1", "--trusted-proxies", "127.0.0.0/8"}, flags...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runAsEnv+"=1", auth.SecretEnv+"="+strings.Repeat("k", 40))
	in := &instance{url: "http://" + addr, cmd: cmd, done: make(chan struct{}), log: &processLog{}}
	cmd.Stdout, cmd.Stderr = in.log, in.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { cmd.Wait(); close(in.done) }()
	t.Cleanup(in.kill)
	return in
}

// kill stops the process and waits for it.
func (in *instance) kill() {
	in.cmd.Process.Kill()
	<-in.done
}

// waitReady waits until in answers.
func waitReady(t testing.TB, in *instance) { waitOK(t, in, "/api/health", 90*time.Second) }

// waitOK waits until in answers GET path with 200, for at most within.
func waitOK(t testing.TB, in *instance, path string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		res, err := http.Get(in.url + path)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		select {
		case <-in.done:
			t.Fatalf("instance exited:\n%s", in.log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("instance not answering %s with 200 after %s:\n%s", path, within, in.log)
		}
	}
}

// roundRobin is a reverse proxy sending each request to the next
// instance in turn.
func roundRobin(t *testing.T, ins ...*instance) *httptest.Server {
	var next atomic.Uint64
	targets := make([]*url.URL, len(ins))
	for i, in := range ins {
		targets[i], _ = url.Parse(in.url)
	}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(targets[next.Add(1)%uint64(len(targets))])
			r.Out.Header["X-Forwarded-For"] = r.In.Header["X-Forwarded-For"]
			r.SetXForwarded()
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			w.WriteHeader(http.StatusBadGateway)
		},
		Transport: &http.Transport{MaxIdleConnsPerHost: 64},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv
}

// call sends a JSON request and decodes a JSON answer into out (if not nil).
func call(ctx context.Context, method, target, body string, out any, headers ...string) (int, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return res.StatusCode, err
	}
	if out != nil && res.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s: %w", b, err)
		}
	}
	return res.StatusCode, nil
}

func signupJSON(username string) string {
	return fmt.Sprintf(`{"username":%q,"email":"%s@example.com","password":"S3cret-Pa55word!","firstName":"Asha","lastName":"Rao"}`, username, username)
}

// TestServe_ManyInstances runs two `regpulse serve` processes on one
// PostgreSQL database behind a round-robin proxy and checks that they
// agree: accounts, subscriptions and rate limits are shared, and killing
// one loses no write it acknowledged. With -v it logs the throughput of
// GET /api/circulars with 50 concurrent clients.
func TestServe_ManyInstances(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers and PostgreSQL")
	}
	dbURL := pgtest.URL(t)
	ctx := t.Context()
	// Both start at once: migrations and catalog syncs take their locks.
	a, b := startInstance(t, dbURL), startInstance(t, dbURL)
	waitReady(t, a)
	waitReady(t, b)
	proxy := roundRobin(t, a, b)

	t.Run("SignUpOneSignInOther", func(t *testing.T) {
		if code, err := call(ctx, "POST", a.url+"/api/auth/signup", signupJSON("shared"), nil, "X-Forwarded-For", "198.51.100.1"); code != 201 || err != nil {
			t.Fatalf("sign-up through a: %d, %v", code, err)
		}
		var tok struct{ Token string }
		if code, err := call(ctx, "POST", b.url+"/api/auth/login", `{"username":"shared","password":"S3cret-Pa55word!"}`, &tok,
			"X-Forwarded-For", "198.51.100.1"); code != 200 || err != nil || tok.Token == "" {
			t.Fatalf("sign-in through b: %d, %v", code, err)
		}
		var me struct{ User struct{ Username string } }
		if code, err := call(ctx, "GET", a.url+"/api/auth/me", "", &me, "Authorization", "Bearer "+tok.Token); code != 200 || err != nil || me.User.Username != "shared" {
			t.Errorf("b's token on a: %d %+v %v", code, me, err)
		}
	})

	t.Run("SubscriptionListedByOther", func(t *testing.T) {
		if code, err := call(ctx, "POST", a.url+"/api/auth/signup", signupJSON("admin1"), nil, "X-Forwarded-For", "198.51.100.2"); code != 201 || err != nil {
			t.Fatalf("sign-up: %d, %v", code, err)
		}
		db, err := store.Open(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		_, err = db.SetRole(ctx, "admin1", auth.RoleAdmin)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		var tok struct{ Token string }
		if code, err := call(ctx, "POST", a.url+"/api/auth/login", `{"username":"admin1","password":"S3cret-Pa55word!"}`, &tok,
			"X-Forwarded-For", "198.51.100.2"); code != 200 || err != nil {
			t.Fatalf("sign-in: %d, %v", code, err)
		}
		if code, err := call(ctx, "POST", a.url+"/api/newsletter/subscribe", `{"email":"reader@example.com"}`, nil); code >= 300 || err != nil {
			t.Fatalf("subscribe through a: %d, %v", code, err)
		}
		var subs []struct{ Email string }
		if code, err := call(ctx, "GET", b.url+"/api/newsletter/subscribers", "", &subs, "Authorization", "Bearer "+tok.Token); code != 200 || err != nil {
			t.Fatalf("list through b: %d, %v", code, err)
		}
		if len(subs) != 1 || subs[0].Email != "reader@example.com" {
			t.Errorf("b lists %+v, want the subscription made through a", subs)
		}
	})

	t.Run("SignInLimitAcrossInstances", func(t *testing.T) {
		// Through the proxy, attempts alternate between a and b; the
		// limit (3 per client address) counts them together.
		var codes []int
		for range 4 {
			code, err := call(ctx, "POST", proxy.URL+"/api/auth/login", `{"username":"shared","password":"wrong-guess"}`, nil,
				"X-Forwarded-For", "198.51.100.3")
			if err != nil {
				t.Fatal(err)
			}
			codes = append(codes, code)
		}
		if codes[0] == 429 || codes[1] == 429 || codes[2] == 429 || codes[3] != 429 {
			t.Errorf("sign-in attempts answered %v, want the 4th (of 3 allowed) 429", codes)
		}
	})

	t.Run("Throughput", func(t *testing.T) {
		const clients, duration = 50, 3 * time.Second
		var ok, failed atomic.Int64
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
		stop := time.Now().Add(duration)
		var wg sync.WaitGroup
		for range clients {
			wg.Go(func() {
				for time.Now().Before(stop) {
					res, err := client.Get(proxy.URL + "/api/circulars?limit=20")
					if err != nil {
						failed.Add(1)
						continue
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != 200 {
						failed.Add(1)
						continue
					}
					ok.Add(1)
				}
			})
		}
		wg.Wait()
		t.Logf("GET /api/circulars?limit=20, %d clients, %v, two instances, one PostgreSQL: %d requests, %.0f a second, %d errors",
			clients, duration, ok.Load(), float64(ok.Load())/duration.Seconds(), failed.Load())
		if failed.Load() != 0 || ok.Load() == 0 {
			t.Errorf("%d errors, %d answers; want 0 errors", failed.Load(), ok.Load())
		}
	})

	t.Run("KillLosesNoAcknowledgedWrite", func(t *testing.T) {
		var mu sync.Mutex
		var acked []string
		var attempts atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					name := fmt.Sprintf("load%d_%d", w, i)
					attempts.Add(1)
					code, err := call(ctx, "POST", proxy.URL+"/api/auth/signup", signupJSON(name), nil, "X-Forwarded-For", "198.51.100.4")
					if err == nil && code == 201 {
						mu.Lock()
						acked = append(acked, name)
						mu.Unlock()
					}
				}
			})
		}
		time.Sleep(time.Second)
		b.cmd.Process.Kill() // mid-request: sign-ups stream through it
		<-b.done
		time.Sleep(time.Second)
		close(stop)
		wg.Wait()
		db, err := store.Open(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		users, err := db.ListUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		stored := map[string]bool{}
		for _, u := range users {
			stored[u.Username] = true
		}
		lost := 0
		for _, name := range acked {
			if !stored[name] {
				lost++
			}
		}
		t.Logf("sign-ups: %d attempted, %d acknowledged, %d lost", attempts.Load(), len(acked), lost)
		if lost > 0 || len(acked) == 0 {
			t.Errorf("%d of %d acknowledged sign-ups lost", lost, len(acked))
		}
		if code, err := call(ctx, "GET", a.url+"/api/health", "", nil); code != 200 || err != nil {
			t.Errorf("the surviving instance: %d, %v", code, err)
		}
	})
}
