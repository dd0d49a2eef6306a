package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"regpulse/internal/ingest"
	"regpulse/internal/store"
)

// Drafts a run with no content directory queued in the store become
// files on `ingest pull`; a copy waiting for an editor is listed.
func TestIngestPull(t *testing.T) {
	data := t.TempDir()
	content := filepath.Join(t.TempDir(), "content")
	if err := os.MkdirAll(content, 0o755); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(t.Context(), filepath.Join(data, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2025, 11, 24, 0, 0, 0, 0, time.UTC)
	draft := "---\npublished: false\ntitle: \"Fixture queued draft\"\nsource: other\npublishedDate: 2025-11-24\n---\n\nFixture.\n"
	ids, err := db.AddIngestItems(t.Context(), []ingest.Item{{Feed: "fixture", Title: "Fixture queued draft", URL: "https://example.org/q/1",
		Identity: ingest.Identity{Source: "other", Date: day, Link: "https://example.org/q/1"}, Status: ingest.StatusQueued, Draft: draft}})
	if err == nil {
		_, err = db.AddIngestItems(t.Context(), []ingest.Item{{Feed: "fixture", Title: "Fixture copy", URL: "https://example.org/q/1.pdf",
			Identity: ingest.Identity{Source: "other", Date: day, Link: "https://example.org/q/1.pdf"}, CanonicalID: ids[0],
			Variant: "pdf", Status: ingest.StatusPending}})
	}
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "ingest", "pull", "--data", data, "--content", content)
	if err != nil {
		t.Fatal(err)
	}
	path := "content/circulars/other-2025-11-24-fixture-queued-draft.md"
	for _, want := range []string{"wrote " + path, "also published as: https://example.org/q/1.pdf (pdf) for " + path,
		"ingest pull: 1 drafts written, 1 links waiting for an editor"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if got, err := os.ReadFile(filepath.Join(filepath.Dir(content), path)); err != nil || string(got) != draft {
		t.Errorf("file %q, %v", got, err)
	}
	out, _, err = runCmd(t, "ingest", "pull", "--data", data, "--content", content)
	if err != nil || !strings.Contains(out, "ingest pull: 0 drafts written") {
		t.Errorf("second pull: %s, %v", out, err)
	}
}
