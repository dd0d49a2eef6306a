package generator

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/catalog"
)

// storedObligations is a store's extracted obligations (StoredObligations)
// in memory: a circular's stamp is its version, one more at every set,
// and reads records the ids of every ExtractedObligationsOf.
type storedObligations struct {
	mu      sync.Mutex
	obs     map[string][]catalog.Obligation
	version map[string]int
	reads   [][]string
}

func newStoredObligations(obs map[string][]catalog.Obligation) *storedObligations {
	s := &storedObligations{obs: map[string][]catalog.Obligation{}, version: map[string]int{}}
	for id, o := range obs {
		s.set(id, o)
	}
	return s
}

// set replaces circular id's extracted obligations, as a refresh does.
func (s *storedObligations) set(id string, obs []catalog.Obligation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.obs[id] = obs
	s.version[id]++
}

// read is the ids read since the last call.
func (s *storedObligations) read() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ids []string
	for _, r := range s.reads {
		ids = append(ids, r...)
	}
	s.reads = nil
	return ids
}

func (s *storedObligations) ExtractedStamps(context.Context) (map[string]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for id, obs := range s.obs {
		if len(obs) > 0 {
			out[id] = fmt.Sprint(s.version[id])
		}
	}
	return out, nil
}

func (s *storedObligations) ExtractedObligationsOf(_ context.Context, ids []string) (map[string][]catalog.Obligation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads = append(s.reads, slices.Clone(ids))
	out := map[string][]catalog.Obligation{}
	for _, id := range ids {
		if obs := s.obs[id]; len(obs) > 0 {
			out[id] = slices.Clone(obs)
		}
	}
	return out, nil
}

func (s *storedObligations) DatedExtractedObligations(_ context.Context, from catalog.Date) (map[string][]catalog.Obligation, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]catalog.Obligation{}
	for id, obs := range s.obs {
		for _, o := range obs {
			if o.Binding && o.DueDate != nil && !o.DueDate.Before(from.Time) {
				out[id] = append(out[id], o)
			}
		}
	}
	return out, nil
}

// TestBuild_ExtractedObligations: a rebuild reads from the store the
// extracted obligations of the pages it renders only, and none when
// nothing changed; a change of one circular's renders its page, with
// them; a circular with written obligations never shows the store's.
func TestBuild_ExtractedObligations(t *testing.T) {
	content := withObligations(t)
	returnsID := catalog.IDForPath("circulars/rbi-2021-02-10-returns.md")
	escrowID := catalog.IDForPath("circulars/rbi-2021-01-20-escrow.md") // has written ones
	const src = "PSPs must file returns by 31 May 2021."
	ob := func(id, what string) catalog.Obligation {
		return catalog.Obligation{ID: catalog.ObligationID(id, what, 0), CircularID: id, Position: 1, AppliesTo: catalog.TextList{"PSP"},
			What: what, Kind: "new-requirement", Binding: true, SourceText: src, Origin: catalog.OriginExtracted, Provider: "local", Model: "rules"}
	}
	hidden := ob(escrowID, "Hidden behind the written ones.")
	due := catalog.Date{Time: fixtureNow.AddDate(0, 1, 0)} // (in the calendar's window)
	hidden.DueDate = &due
	store := newStoredObligations(map[string][]catalog.Obligation{
		returnsID: {ob(returnsID, "File the returns.")},
		escrowID:  {hidden},
	})
	out := filepath.Join(t.TempDir(), "public")
	build := func() *Result {
		t.Helper()
		res, err := Build(t.Context(), Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
			BaseURL: "https://regpulse.test/", Now: func() time.Time { return fixtureNow }, ReleaseContent: true, Obligations: store})
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		return res
	}
	page := func(slug string) string {
		t.Helper()
		raw, err := os.ReadFile(filepath.Join(out, "circulars", slug, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		return string(raw)
	}
	build()
	if got := store.read(); !slices.Contains(got, returnsID) || slices.Contains(got, escrowID) {
		t.Errorf("the first build read the obligations of %v; want the returns', not escrow's (written ones)", got)
	}
	if p := page("rbi-2021-02-10-returns"); !strings.Contains(p, "File the returns.") {
		t.Error("the returns' page lacks its extracted obligation")
	}
	if p := page("rbi-2021-01-20-escrow"); strings.Contains(p, "Hidden behind") {
		t.Error("escrow's page shows an extracted obligation beside its written ones")
	}
	if cal, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(strings.TrimPrefix(CalendarPath, "/")))); err != nil || strings.Contains(string(cal), "Hidden behind") {
		t.Errorf("the calendar (%v) lists an extracted obligation of a circular with written ones", err)
	}

	if res := build(); !res.Unchanged {
		t.Error("a rebuild with nothing changed was not unchanged")
	}
	if got := store.read(); len(got) != 0 {
		t.Errorf("an unchanged rebuild read the obligations of %v", got)
	}

	store.set(returnsID, []catalog.Obligation{ob(returnsID, "File the returns monthly.")})
	res := build()
	if res.Unchanged {
		t.Fatal("a rebuild after the store's obligations changed was unchanged")
	}
	if got := store.read(); !slices.Equal(got, []string{returnsID}) {
		t.Errorf("the rebuild read the obligations of %v; want the returns' only", got)
	}
	if p := page("rbi-2021-02-10-returns"); !strings.Contains(p, "File the returns monthly.") {
		t.Error("the returns' page does not show its new extracted obligation")
	}
}
