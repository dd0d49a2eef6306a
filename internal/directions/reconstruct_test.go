package directions_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/directions/directionstest"
)

// Reconstruction is exact: every version of 25 generated directions
// (20 versions of 300 provisions each), rebuilt from the effects, is the
// generator's own copy of that version; and comparing a version with the
// one before finds a change for each provision the generator touched,
// and no other. (The benchmarks' 250 are checked so by BenchmarkDirections:
// under the race detector the 250 take 100 s.)
func TestReconstruction(t *testing.T) {
	n, compared := 25, 25
	if testing.Short() {
		n, compared = 5, 5
	}
	for gi, g := range directionstest.Directions(n, 20, 300, 42) {
		d := g.Direction
		var problems []catalog.EffectProblem
		d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions)
		if len(problems) > 0 {
			t.Fatalf("%s: %v", d.Slug, problems)
		}
		days := []catalog.Date{d.IssuedDate}
		for _, v := range d.Versions {
			days = append(days, v.Date)
		}
		for i, day := range days {
			var got []catalog.Provision
			for _, s := range d.At(day) {
				got = append(got, s.Provision)
			}
			if diff := cmp.Diff(g.Texts[day], got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s on %s (-generator +rebuilt):\n%s", d.Slug, day, diff)
			}
			if i == 0 || gi >= compared {
				continue
			}
			touched := map[string]bool{}
			for _, e := range d.Versions[i-1].Effects {
				touched[e.Provision] = true
				if e.To != "" {
					touched[e.To] = true
				}
			}
			c := directions.Compare(&d, days[i-1], day, nil)
			for _, ch := range c.Changes {
				if !touched[ch.Provision] && !touched[ch.Was] {
					t.Errorf("%s %s: %s %s, which no effect of the version names", d.Slug, day, ch.Kind, ch.Provision)
				}
			}
			if len(c.Changes) == 0 {
				t.Errorf("%s %s: no change found", d.Slug, day)
			}
		}
	}
}

// The generated directions written as content load as they were made:
// the loader's checks pass and its texts are the generator's.
func TestGeneratedContent(t *testing.T) {
	gens := directionstest.Directions(3, 20, 300, 9)
	dir := t.TempDir()
	if err := directionstest.WriteContent(dir, gens); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Directions) != len(gens) {
		t.Fatalf("%d directions loaded, want %d", len(cat.Directions), len(gens))
	}
	by := map[string]catalog.MasterDirection{}
	for _, d := range cat.Directions {
		by[d.Slug] = d
	}
	for _, g := range gens {
		d := by[g.Direction.Slug]
		for day, want := range g.Texts {
			var got []catalog.Provision
			for _, s := range d.At(day) {
				got = append(got, s.Provision)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("%s on %s (-generator +loaded):\n%s", d.Slug, day, diff)
			}
		}
	}
}
