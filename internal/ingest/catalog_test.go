package ingest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// The files ingest writes load as unpublished circulars with the feed's
// facts; what they still lack is pending for the editor, not a problem
// that fails the load.
func TestRun_LoadsAsUnpublished(t *testing.T) {
	content := newContent(t)
	if _, err := Run(t.Context(), fixtureFeeds(t), Options{ContentDir: content, Now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(content)
	var problems catalog.Problems
	if errors.As(err, &problems) {
		for _, p := range problems {
			t.Errorf("problem: %v", p)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Circulars) != 0 {
		t.Errorf("%d circulars published, want none", len(cat.Circulars))
	}

	type facts struct {
		Number, Title, Source, Date, OfficialURL, SourceURL string
		Pending                                             []string // fields still to fill
	}
	lacking := []string{"category", "documentType", "entityImpact", "impactLevel"}
	want := map[string]facts{}
	for path, f := range fixtureFiles {
		fm := f.Front
		want[path] = facts{fm.CircularNumber, fm.Title, fm.Source, fm.PublishedDate, fm.OfficialURL, fm.SourceURL, lacking}
	}
	got := map[string]facts{}
	for _, c := range cat.Unpublished {
		got[c.Path] = facts{Number: string(c.CircularNumber), Title: c.Title, Source: c.Source,
			Date: c.PublishedDate.String(), OfficialURL: string(c.OfficialURL), SourceURL: c.SourceURL}
	}
	for _, p := range cat.Pending {
		f := got[p.Path]
		f.Pending = append(f.Pending, p.Field)
		got[p.Path] = f
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unpublished circulars (-want +got):\n%s", diff)
	}
}
