package directions

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/redline"
)

func day(s string) catalog.Date {
	var d catalog.Date
	if err := d.UnmarshalText([]byte(s)); err != nil {
		panic(err)
	}
	return d
}

func testDirection(t *testing.T) *catalog.MasterDirection {
	t.Helper()
	d := &catalog.MasterDirection{
		Entry:      catalog.Entry{Slug: "widgets"},
		IssuedDate: day("2021-01-01"),
		AppliesTo:  catalog.TextList{"PSP", "Issuer"},
		Provisions: []catalog.Provision{
			{ID: "1", Text: "Short title.", Wording: "digest"},
			{ID: "2", Text: "A widget holds at most Rs 10,000.", Wording: "digest"},
			{ID: "3", Text: "Widgets expire after a year.", Wording: "digest"},
			{ID: "4", Text: "Reports are monthly.", Wording: "digest"},
		},
		Versions: []catalog.DirectionVersion{
			{Date: day("2022-01-01"), Circulars: catalog.TextList{"c-2022"}, ChangesKnown: true, Effects: catalog.List[catalog.Effect]{
				{Kind: catalog.EffectSubstituted, Provision: "2", Text: "A widget holds at most Rs 20,000."},
				{Kind: catalog.EffectInserted, Provision: "2A", After: "2", Text: "Widgets may be reloaded.", Wording: "digest", Touches: catalog.TextList{"Issuer"}},
			}},
			{Date: day("2022-06-01"), Amending: &catalog.AmendingCircular{Title: "an update RBI lists"}},
			{Date: day("2023-01-01"), Circulars: catalog.TextList{"c-2023"}, ChangesKnown: true, Effects: catalog.List[catalog.Effect]{
				{Kind: catalog.EffectDeleted, Provision: "3"},
				{Kind: catalog.EffectRenumbered, Provision: "4", To: "5"},
			}},
		},
	}
	var problems []catalog.EffectProblem
	d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	return d
}

func TestCompare(t *testing.T) {
	d := testDirection(t)
	touches := func(v *catalog.DirectionVersion) []string { return []string{"PSP"} }
	c := Compare(d, day("2023-01-01"), day("2021-06-01"), touches) // later date first: swapped
	if c.From != day("2021-06-01") || c.To != day("2023-01-01") {
		t.Errorf("from %s to %s, want the earlier date first", c.From, c.To)
	}
	type row struct {
		Kind, Provision, Was string
		Redline              []redline.Segment
		By                   []string
		Touches              catalog.TextList
	}
	var got []row
	for _, ch := range c.Changes {
		r := row{Kind: ch.Kind, Provision: ch.Provision, Was: ch.Was, Redline: ch.Redline, Touches: ch.Touches}
		for _, a := range ch.By {
			r.By = append(r.By, a.Date.String())
		}
		got = append(got, r)
	}
	want := []row{
		{"changed", "2", "", []redline.Segment{{Op: redline.Equal, Text: "A widget holds at most Rs "}, {Op: redline.Delete, Text: "10"}, {Op: redline.Insert, Text: "20"}, {Op: redline.Equal, Text: ",000."}}, []string{"2022-01-01"}, catalog.TextList{"PSP"}},
		{"added", "2A", "", []redline.Segment{{Op: redline.Insert, Text: "Widgets may be reloaded."}}, []string{"2022-01-01"}, catalog.TextList{"Issuer"}},
		{"removed", "3", "", []redline.Segment{{Op: redline.Delete, Text: "Widgets expire after a year."}}, []string{"2023-01-01"}, catalog.TextList{"PSP"}},
		{"renumbered", "5", "4", []redline.Segment{{Op: redline.Equal, Text: "Reports are monthly."}}, []string{"2023-01-01"}, catalog.TextList{"PSP"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if c.Added != 1 || c.Removed != 1 || c.Changed != 2 {
		t.Errorf("counts %d added, %d removed, %d changed; want 1, 1, 2", c.Added, c.Removed, c.Changed)
	}
	if len(c.Unknown) != 1 || c.Unknown[0].Date != day("2022-06-01") {
		t.Errorf("unknown versions %+v, want the one of 2022-06-01", c.Unknown)
	}
	// The same date twice: nothing changed.
	if c := Compare(d, day("2022-01-01"), day("2022-01-01"), touches); len(c.Changes) != 0 {
		t.Errorf("a date against itself: %d changes", len(c.Changes))
	}
}

// The spans the store reads for two dates (those in force at some time
// between them) compare as the whole history does.
func TestCompare_Window(t *testing.T) {
	d := testDirection(t)
	from, to := day("2022-03-01"), day("2023-06-01")
	whole := Compare(d, from, to, nil)
	w := *d
	w.History = nil
	for _, s := range d.History {
		if !s.From.After(to.Time) && (s.To == nil || s.To.After(from.Time)) {
			w.History = append(w.History, s)
		}
	}
	if diff := cmp.Diff(whole, Compare(&w, from, to, nil)); diff != "" {
		t.Errorf("window (-whole +window):\n%s", diff)
	}
}

// A version's changes: each provision it changed, with the kinds of
// business its effect names or, else, those its amending circular hits
// more than lightly (Book.Touches).
func TestBook_VersionChanges(t *testing.T) {
	d := testDirection(t)
	cat := &catalog.Catalog{Directions: []catalog.MasterDirection{*d}, Circulars: []catalog.Circular{
		{Entry: catalog.Entry{Slug: "c-2022"}, EntityImpact: catalog.List[catalog.EntityImpact]{{EntityType: "PSP", ImpactLevel: "high"}, {EntityType: "Aggregator", ImpactLevel: "low"}}},
	}}
	b := New(cat)
	var ids []string
	for _, ch := range b.VersionChanges(&b.Directions[0], 0).Changes {
		ids = append(ids, ch.Provision+" "+ch.Kind+" "+strings.Join(ch.Touches, ","))
	}
	if diff := cmp.Diff([]string{"2 changed PSP", "2A added Issuer"}, ids); diff != "" {
		t.Errorf("what the version of c-2022 changed (-want +got):\n%s", diff)
	}
	// a version whose circular the catalog lacks touches what the direction applies to
	ids = nil
	for _, ch := range b.VersionChanges(&b.Directions[0], 2).Changes {
		ids = append(ids, ch.Provision+" "+ch.Kind+" "+strings.Join(ch.Touches, ","))
	}
	if diff := cmp.Diff([]string{"3 removed PSP,Issuer", "5 renumbered PSP,Issuer"}, ids); diff != "" {
		t.Errorf("what the version of c-2023 changed (-want +got):\n%s", diff)
	}
}
