package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"regpulse/internal/lambdatest"
	"regpulse/internal/store/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestInvoke_Lambda runs the built binary as Netlify runs the
// regpulse-ingest function: under a (fake) Lambda Runtime API, the job
// taken from the function's name, on PostgreSQL, one run per scheduled
// event, its draft queued in the store (no content folder); and refusing
// to start without DATABASE_URL.
func TestInvoke_Lambda(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the function: slow")
	}
	bin := filepath.Join(t.TempDir(), "bootstrap") // not a job's name: the environment names it
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	feeds, _ := filepath.Abs("testdata/feeds.yaml")
	invoke := func(t *testing.T, env ...string) (answer string, log string, err error) {
		rt := lambdatest.New([]byte(`{"next_run":"2026-12-02T06:05:00.000Z"}`), // what a scheduled function is sent
			"arn:aws:lambda:local:0:function:regpulse-ingest")
		srv := httptest.NewServer(rt)
		defer srv.Close()
		cmd := exec.Command(bin)
		cmd.Dir = t.TempDir()
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + cmd.Dir,
			lambdaRuntimeEnv + "=" + strings.TrimPrefix(srv.URL, "http://"), functionNameEnv + "=regpulse-ingest",
			feedsEnv + "=" + feeds}, env...) // no content folder: drafts queue in the store
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var waitErr error
		done := make(chan struct{})
		go func() { waitErr = cmd.Wait(); close(done) }()
		defer func() {
			cmd.Process.Kill()
			<-done
			log = stderr.String() // read once the process is gone
		}()
		select {
		case b := <-rt.Answered:
			err = json.Unmarshal(b, &answer)
			return answer, "", err
		case b := <-rt.Failed:
			return "", "", &invokeError{string(b)}
		case <-done:
			return "", "", waitErr
		case <-time.After(60 * time.Second):
			return "", "", &invokeError{"no answer in 60 s"}
		}
	}
	t.Run("ErrNoDatabase", func(t *testing.T) {
		_, log, err := invoke(t)
		if err == nil || !strings.Contains(log, "DATABASE_URL") {
			t.Errorf("started without DATABASE_URL: %v\n%s", err, log)
		}
	})
	t.Run("ErrAlertsNoSecret", func(t *testing.T) {
		_, log, err := invoke(t, functionNameEnv+"=regpulse-alerts", "DATABASE_URL=postgres://unused.invalid/db")
		if err == nil || !strings.Contains(log, "REGPULSE_JWT_SECRET") {
			t.Errorf("alerts started without the API's secret: %v\n%s", err, log)
		}
	})
	t.Run("Ingest", func(t *testing.T) {
		answer, log, err := invoke(t, "DATABASE_URL="+pgtest.URL(t), "REGPULSE_JWT_SECRET="+strings.Repeat("s", 40))
		if err != nil || !strings.HasPrefix(answer, "ingest: 1 written") {
			t.Errorf("answer %q, %v\n%s", answer, err, log)
		}
	})
}

type invokeError struct{ body string }

func (e *invokeError) Error() string { return "the function failed: " + e.body }
