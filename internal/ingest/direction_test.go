package ingest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/extract"
)

// regpulse ingest direction: the fixture's second version read from its
// PDF against the first, in force, gives a draft version that the content
// loader accepts and shows nowhere, whose effects, once an editor
// publishes it, make the text the second version's.
func TestDirection(t *testing.T) {
	ex := extract.New(extract.Tools{}, extract.Config{})
	v1res, err := ex.Extract(t.Context(), directionstest.PDF(t, directionstest.WidgetsV1))
	if err != nil {
		t.Fatal(err)
	}
	v1, err := directions.Parse(v1res.Text)
	if err != nil {
		t.Fatal(err)
	}
	content := t.TempDir()
	dir := filepath.Join(content, catalog.DirectionsFolder, "widgets")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	front := map[string]any{"title": "Master Direction – Widgets, 2021", "source": "RBI", "issuedDate": "2021-04-01",
		"reviewedOn": "2026-11-28", "appliesTo": []string{"Issuer"}, "status": "in-force", "chapters": v1.Chapters, "provisions": v1.Provisions}
	y, err := yaml.Marshal(front)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "index.md"), []byte("---\n"+string(y)+"---\nWidgets.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := catalog.Load(content); err != nil {
		t.Fatalf("the first version as content: %v", err)
	}
	pdf := filepath.Join(t.TempDir(), "widgets-2023.pdf")
	if err := os.WriteFile(pdf, directionstest.PDF(t, directionstest.WidgetsV2), 0o644); err != nil {
		t.Fatal(err)
	}
	var date catalog.Date
	_ = date.UnmarshalText([]byte("2023-06-19"))
	req := DirectionRequest{Content: content, Slug: "widgets", From: pdf, Date: date, Extractor: ex,
		Now: func() time.Time { return time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC) }}

	if _, err := Direction(t.Context(), req); err == nil || !strings.Contains(err.Error(), "--url") {
		t.Errorf("a file without the regulator's address: %v, want an error asking for --url", err)
	}
	req.URL = "https://rbi.org.in/widgets.pdf"
	res, err := Direction(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.Join(dir, "2023-06-19.md") || len(res.Effects) != 4 {
		t.Fatalf("wrote %s with %d effects, want the version of 2023-06-19 with 4", res.Path, len(res.Effects))
	}
	draft, _ := os.ReadFile(res.Path)
	for _, want := range []string{"draft: true", "sha256: " + res.SHA256, "fetched: \"2026-11-28\"", "url: https://rbi.org.in/widgets.pdf",
		"As a footnote of the official text gives it, to be checked: Inserted vide circular DPSS.CO.No.9/02.14.006/2022-23 dated June 19, 2023"} {
		if !strings.Contains(string(draft), want) {
			t.Errorf("the draft lacks %q:\n%s", want, draft)
		}
	}
	cat, err := catalog.Load(content)
	if err != nil {
		t.Fatalf("the draft does not load: %v\n%s", err, draft)
	}
	d := cat.Directions[0]
	if len(d.Versions) != 1 || !d.Versions[0].Draft {
		t.Fatalf("versions %+v, want the draft", d.Versions)
	}
	if got := len(d.At(date)); got != len(v1.Provisions) {
		t.Errorf("a draft changed the text: %d provisions on its date, want %d", got, len(v1.Provisions))
	}
	// published by an editor, it gives the second version's text
	d.Versions[0].Draft = false
	d.History, _ = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions)
	v2res, _ := ex.Extract(t.Context(), directionstest.PDF(t, directionstest.WidgetsV2))
	v2, _ := directions.Parse(v2res.Text)
	var got []catalog.Provision
	for _, s := range d.At(date) {
		got = append(got, s.Provision)
	}
	if diff := cmp.Diff(v2.Provisions, got); diff != "" {
		t.Errorf("published draft (-second version +rebuilt):\n%s", diff)
	}

	if _, err := Direction(t.Context(), req); !errors.Is(err, ErrVersionExists) {
		t.Errorf("again: %v, want ErrVersionExists", err)
	}
}
