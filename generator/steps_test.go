package generator

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/logtest"
)

// TestBuild_LogSteps: a build with a logger names each of its steps, in
// order, with how long it took (`regpulse build -v`).
func TestBuild_LogSteps(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	_, err := Build(t.Context(), Options{ContentDir: fixtureContent, TemplatesDir: templatesDir, AssetsDir: fixtureAssets,
		OutDir: filepath.Join(t.TempDir(), "public"), BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test",
		Now: func() time.Time { return fixtureNow }, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for line := range strings.Lines(buf.String()) {
		var rec struct {
			Msg, Step string
			Took      *time.Duration
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if rec.Msg != "build step" || rec.Took == nil || *rec.Took < 0 {
			t.Errorf("%q: want a build step with its time", line)
		}
		if len(steps) == 0 || steps[len(steps)-1] != rec.Step { // one "hugo run" for many
			steps = append(steps, rec.Step)
		}
	}
	want := []string{"load", "texts", "views", "circular keys", "list keys", "outputs", "hugo run", "verify and commit"}
	if diff := cmp.Diff(want, steps); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}
	if n := strings.Count(buf.String(), `"step":"hugo run"`); n < 3 {
		t.Errorf("%d runs of Hugo logged, want the site's, the cards' and the circulars' at least", n)
	}
}

// TestBuild_TemplateMetrics: with Options.TemplateMetrics, every Hugo
// run says how long its templates took, and the metrics count every
// circular's page the build rendered.
func TestBuild_TemplateMetrics(t *testing.T) {
	var w logtest.Buffer // (runs write beside each other)
	res, err := Build(t.Context(), Options{ContentDir: fixtureContent, TemplatesDir: templatesDir, AssetsDir: fixtureAssets,
		OutDir: filepath.Join(t.TempDir(), "public"), Now: func() time.Time { return fixtureNow }, ReleaseContent: true, TemplateMetrics: &w})
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for line := range strings.Lines(w.String()) {
		f := strings.Fields(line)
		if len(f) == 5 && f[4] == "circular.html" {
			n, err := strconv.Atoi(f[3])
			if err != nil {
				t.Fatalf("metrics line %q: %v", line, err)
			}
			pages += n
		}
	}
	if pages == 0 || pages != res.Framed {
		t.Errorf("the metrics count %d circular pages, the build rendered %d:\n%s", pages, res.Framed, w.String())
	}
}
