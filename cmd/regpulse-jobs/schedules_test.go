package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/BurntSushi/toml"

	"regpulse/internal/jobs"
)

// TestSchedules: every job has its scheduled function in netlify.toml,
// on the job's own schedule, and Makefile's FUNCTIONS builds it; no
// function is scheduled that is not a job.
func TestSchedules(t *testing.T) {
	var doc struct {
		Functions map[string]any `toml:"functions"`
	}
	if _, err := toml.DecodeFile("../../netlify.toml", &doc); err != nil {
		t.Fatal(err)
	}
	scheduled := map[string]string{}
	for name, v := range doc.Functions {
		if fn, ok := v.(map[string]any); ok {
			if s, ok := fn["schedule"].(string); ok {
				scheduled[name] = s
			}
		}
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	var built []string
	for _, m := range regexp.MustCompile(`(?m)^(?:JOB_)?FUNCTIONS :=.*$`).FindAllString(string(makefile), -1) {
		for _, f := range regexp.MustCompile(`netlify/functions/([a-z-]+)`).FindAllStringSubmatch(m, -1) {
			built = append(built, f[1])
		}
	}
	for _, j := range jobs.All() {
		if got, ok := scheduled[j.Function()]; !ok || got != j.Schedule {
			t.Errorf("netlify.toml: [functions.%q] schedule = %q, want %q (jobs.All)", j.Function(), got, j.Schedule)
		}
		if !slices.Contains(built, j.Function()) {
			t.Errorf("Makefile: FUNCTIONS does not build netlify/functions/%s (has %q)", j.Function(), built)
		}
		delete(scheduled, j.Function())
	}
	for name := range scheduled {
		t.Errorf("netlify.toml schedules %s, which is no job (jobs.All)", name)
	}
}

// TestFunctions builds the scheduled functions as the Makefile does
// (static Linux binaries), checks the jobs' binary keeps Hugo out, and
// runs it under a job's function name, which picks the job.
func TestFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the functions: slow")
	}
	deps, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(deps)) {
		if strings.HasPrefix(dep, "github.com/gohugoio/") || dep == "regpulse/generator" {
			t.Errorf("regpulse-jobs imports %s: the functions stay without the generator", dep)
		}
	}
	dir := t.TempDir()
	for _, pkg := range []string{".", "../regpulse-rebuild"} {
		out := filepath.Join(dir, "regpulse-ingest")
		if pkg != "." {
			out = filepath.Join(dir, "regpulse-rebuild")
		}
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH=amd64")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build %s: %v\n%s", pkg, err, b)
		}
	}
	if out, err := exec.Command("go", "env", "GOOS", "GOARCH").Output(); err != nil || strings.Fields(string(out))[0] != "linux" || strings.Fields(string(out))[1] != "amd64" {
		t.Skipf("built; not run on %s", out)
	}
	content := t.TempDir()
	cmd := exec.Command(filepath.Join(dir, "regpulse-ingest"), "--data", t.TempDir(), "--content", content, "--feeds", "testdata/feeds.yaml")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ingest: 1 written") {
		t.Errorf("regpulse-ingest: %v\n%s", err, out)
	}
}

func TestPick(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		function, argv string
		want           string // the job, or "error"
	}{
		{"Argument", []string{"ingest"}, "", "regpulse-jobs", "ingest"},
		{"ArgumentWins", []string{"alerts"}, "regpulse-digest", "regpulse-ingest", "alerts"},
		{"FunctionName", nil, "site-1234-regpulse-alerts", "bootstrap", "alerts"},
		{"BinaryName", nil, "", "/var/task/regpulse-digest", "digest"},
		{"Rebuild", []string{"rebuild"}, "", "regpulse-jobs", "rebuild"},
		{"ErrNone", nil, "", "bootstrap", "error"},
		{"ErrUnknown", []string{"purge"}, "", "regpulse-jobs", "error"},
		{"ErrTwo", []string{"ingest", "alerts"}, "", "regpulse-jobs", "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := pick(tt.args, tt.function, tt.argv)
			got := j.Name
			if err != nil {
				got = "error"
			}
			if got != tt.want {
				t.Errorf("pick = %q (%v), want %q", got, err, tt.want)
			}
		})
	}
}

// TestIngest_Overlap: two ingest runs at once on one SQLite store (a
// slow tick and the next, or serve beside a function): one polls, the
// other skips, saying who holds the lock; once the first ends, the
// next run polls again.
func TestIngest_Overlap(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	feed, err := os.ReadFile("testdata/feed.xml")
	if err != nil {
		t.Fatal(err)
	}
	arrived, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(arrived); <-release }) // the first poll is slow
		w.Write(feed)
	}))
	defer srv.Close()
	dir := t.TempDir()
	feeds := filepath.Join(dir, "feeds.yaml")
	if err := os.WriteFile(feeds, fmt.Appendf(nil, "feeds:\n  - name: fixture\n    url: %s\n    source: RBI\n", srv.URL), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"regpulse-jobs", "--data", filepath.Join(dir, "data"), "--content", filepath.Join(dir, "content"), "--feeds", feeds, "ingest"}
	getenv := func(string) string { return "" }
	ingest := func() (string, error) {
		var out, errs bytes.Buffer
		err := run(t.Context(), args, getenv, &out, &errs)
		return out.String(), err
	}
	type result struct {
		out string
		err error
	}
	if err := os.MkdirAll(filepath.Join(dir, "content"), 0o755); err != nil {
		t.Fatal(err)
	}
	first := make(chan result, 1)
	go func() {
		out, err := ingest()
		first <- result{out, err}
	}()
	select {
	case <-arrived:
	case r := <-first:
		t.Fatalf("the first run ended before it polled: %q, %v", r.out, r.err)
	}
	out, err := ingest()
	if err != nil || !strings.Contains(out, "ingest: skipped: held by ") {
		t.Errorf("the overlapping run: %q, %v; want a skip held by the first", out, err)
	}
	close(release)
	if r := <-first; r.err != nil || !strings.Contains(r.out, "ingest: 1 written") {
		t.Errorf("the first run: %q, %v; want 1 written", r.out, r.err)
	}
	// the lock released, the next run runs: the source is not due yet (its
	// cadence, in the store)
	if out, err := ingest(); err != nil || !strings.Contains(out, "ingest: 0 written") || !strings.Contains(out, "not due 1") {
		t.Errorf("the run after: %q, %v; want it to run, the source not due", out, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "content", "circulars", "*.md"))
	if len(files) != 1 {
		t.Errorf("%d drafts written, want 1: %v", len(files), files)
	}
}
