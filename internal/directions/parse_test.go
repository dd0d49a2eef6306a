package directions_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/extract"
)

func parsePDF(t *testing.T, lines []string) directions.Parsed {
	t.Helper()
	res, err := extract.New(extract.Tools{}, extract.Config{}).Extract(t.Context(), directionstest.PDF(t, lines))
	if err != nil {
		t.Fatal(err)
	}
	p, err := directions.Parse(res.Text)
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, res.Text)
	}
	return p
}

func TestParse(t *testing.T) {
	p := parsePDF(t, directionstest.WidgetsV2)
	want := []catalog.Provision{
		{ID: "1", Chapter: "I", Heading: "Short title and commencement", Text: "These Directions shall be called the Widget Directions, 2021 and come into force at once.", Wording: "official"},
		{ID: "2", Chapter: "I", Heading: "Applicability", Text: "These Directions apply to every widget issuer.", Wording: "official"},
		{ID: "2A", Chapter: "I", Heading: "Foreign visitors", Text: "Issuers may issue widgets to foreign visitors after checking their passport.", Wording: "official"},
		{ID: "3", Chapter: "II", Heading: "Limit on balance", Text: "A widget shall hold at most Rs 20,000 at any time; the limit applies 30 days after issue.", Wording: "official"},
		{ID: "6", Chapter: "II", Heading: "Reporting", Text: "Issuers shall report monthly.", Wording: "official"},
	}
	if diff := cmp.Diff(want, p.Provisions); diff != "" {
		t.Errorf("provisions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]catalog.Chapter{{ID: "I", Title: "Preliminary"}, {ID: "II", Title: "Limits"}}, p.Chapters); diff != "" {
		t.Errorf("chapters (-want +got):\n%s", diff)
	}
	if got := p.Footnotes["2A"]; len(got) != 1 || !strings.HasPrefix(got[0], "Inserted vide circular") {
		t.Errorf("2A's footnotes: %q", got)
	}
	if got := p.Footnotes["3"]; len(got) != 1 || !strings.HasPrefix(got[0], "Substituted vide") {
		t.Errorf("3's footnotes: %q", got)
	}
}

// Ingesting two versions finds exactly the changes made between them, and
// applying them to the first gives the second.
func TestEffects(t *testing.T) {
	v1, v2 := parsePDF(t, directionstest.WidgetsV1), parsePDF(t, directionstest.WidgetsV2)
	got := directions.Effects(v1.Provisions, v2.Provisions)
	want := []catalog.Effect{
		{Kind: catalog.EffectDeleted, Provision: "4"},
		{Kind: catalog.EffectRenumbered, Provision: "5", To: "6"},
		{Kind: catalog.EffectInserted, Provision: "2A", After: "2", Chapter: "I", Heading: "Foreign visitors",
			Text: "Issuers may issue widgets to foreign visitors after checking their passport.", Wording: "official"},
		{Kind: catalog.EffectSubstituted, Provision: "3", Text: "A widget shall hold at most Rs 20,000 at any time; the limit applies 30 days after issue.", Wording: "official"},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(catalog.Effect{})); diff != "" {
		t.Errorf("effects (-want +got):\n%s", diff)
	}
	d := catalog.Date{}
	_ = d.UnmarshalText([]byte("2021-04-01"))
	on := catalog.Date{}
	_ = on.UnmarshalText([]byte("2023-06-19"))
	spans, problems := catalog.BuildHistory(d, v1.Provisions, []catalog.DirectionVersion{{Date: on, Effects: got}})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	m := catalog.MasterDirection{History: spans}
	var rebuilt []catalog.Provision
	for _, s := range m.At(on) {
		rebuilt = append(rebuilt, s.Provision)
	}
	if diff := cmp.Diff(v2.Provisions, rebuilt); diff != "" {
		t.Errorf("v1 with the effects applied (-v2 +rebuilt):\n%s", diff)
	}
}

func TestParse_Errors(t *testing.T) {
	for _, text := range []string{"", "A title\nNo numbers here."} {
		if _, err := directions.Parse(text); err == nil {
			t.Errorf("directions.Parse(%q): no error", text)
		}
	}
}
