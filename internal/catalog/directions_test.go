package catalog

import (
	"errors"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const testDirection = `---
title: "Master Direction on Widgets"
shortTitle: "MD-Widgets, 2021"
source: RBI
number: "RBI/2021-22/1"
issuedDate: 2021-04-01
reviewedOn: 2026-11-28
appliesTo: [PSP, Issuer]
status: in-force
chapters:
  - {id: I, title: Preliminary}
  - {id: II, title: Limits}
provisions:
  - id: "1"
    chapter: I
    heading: Short title
    text: These directions are the widget directions.
    wording: digest
  - id: "2"
    chapter: II
    text: A widget holds at most Rs 10,000.
    wording: digest
---
Widgets, as directed.
`

const testVersion = `---
circulars: [rbi-2022-01-01-widget-limit]
verification: reported
effects:
  - substituted: "2"
    text: A widget holds at most Rs 20,000.
  - inserted: "2A"
    after: "2"
    text: A widget may be reloaded.
    wording: digest
    touches: [Issuer]
---
The limit doubled and reloading was allowed.
`

const testCircular = `---
title: "Widget limit raised"
source: RBI
category: "Payment Systems"
publishedDate: 2022-01-01
impactLevel: medium
entityImpact: {PSP: low, Issuer: high, Aggregator: low}
sourceUrl: "https://rbi.org.in/x"
---
The widget limit was raised.
`

func TestLoad_Directions(t *testing.T) {
	fsys := fstest.MapFS{
		"master-directions/widgets/index.md":       {Data: []byte(testDirection)},
		"master-directions/widgets/2022-01-01.md":  {Data: []byte(testVersion)},
		"master-directions/widgets/2021-11-12.md":  {Data: []byte("---\namending: {title: \"An update RBI lists\"}\nchangesKnown: false\n---\n")},
		"circulars/rbi-2022-01-01-widget-limit.md": {Data: []byte(testCircular)},
	}
	cat, err := LoadFS(fsys, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Directions) != 1 {
		t.Fatalf("%d directions, want 1", len(cat.Directions))
	}
	d := cat.Directions[0]
	var dates []string
	for _, v := range d.Versions {
		dates = append(dates, v.Date.String())
	}
	if diff := cmp.Diff([]string{"2021-11-12", "2022-01-01"}, dates); diff != "" {
		t.Errorf("versions, oldest first (-want +got):\n%s", diff)
	}
	if d.Versions[0].ChangesKnown || !d.Versions[1].ChangesKnown {
		t.Errorf("changesKnown: %v, %v; want false, true", d.Versions[0].ChangesKnown, d.Versions[1].ChangesKnown)
	}
	want := "1=These directions are the widget directions.\n2=A widget holds at most Rs 20,000.\n2A=A widget may be reloaded.\n"
	if diff := cmp.Diff(want, texts(d.At(day("2026-01-01")))); diff != "" {
		t.Errorf("text now (-want +got):\n%s", diff)
	}
	if got := d.At(day("2026-01-01"))[2].Chapter; got != "II" {
		t.Errorf("inserted 2A in chapter %q, want its anchor's (II)", got)
	}
}

func TestLoad_DirectionProblems(t *testing.T) {
	circular := &fstest.MapFile{Data: []byte(testCircular)}
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"a version naming a provision not in force", map[string]string{
			"2022-01-01.md": "---\ncirculars: [rbi-2022-01-01-widget-limit]\neffects:\n  - deleted: \"2\"\n  - substituted: \"2\"\n    text: back\n    wording: digest\n---\nGone.\n",
		}, []string{"content/master-directions/widgets/2022-01-01.md:5: effects[1]: provision 2 is not in force on 2022-01-01"}},
		{"an unknown circular and an effect of two kinds", map[string]string{
			"2022-01-01.md": "---\ncirculars: [rbi-nope]\neffects:\n  - deleted: \"2\"\n    substituted: \"1\"\n---\nx\n",
		}, []string{
			"content/master-directions/widgets/2022-01-01.md:2: circulars: refers to unknown circular rbi-nope",
			"content/master-directions/widgets/2022-01-01.md:5: effects[0].substituted: an effect is one of inserted, substituted, deleted, renumbered, not several",
		}},
		{"no amending circular, no effects, no note", map[string]string{
			"2022-01-01.md": "---\nverification: reported\n---\n",
		}, []string{
			"content/master-directions/widgets/2022-01-01.md:2: circulars: a version needs its amending circular: circulars (the catalog's) or amending (by number and title)",
			"content/master-directions/widgets/2022-01-01.md:2: effects: a version needs its effects, or changesKnown: false when only its date is known",
			"content/master-directions/widgets/2022-01-01.md:3: body: say what changed and why below the front matter",
		}},
		{"a version before the direction", map[string]string{
			"2020-01-01.md": "---\namending: {title: x}\nchangesKnown: false\n---\n",
		}, []string{"content/master-directions/widgets/2020-01-01.md:0: file: version dated 2020-01-01, not after the direction's issuedDate 2021-04-01"}},
		{"a file that is no version", map[string]string{"notes.md": "---\n---\n"},
			[]string{"content/master-directions/widgets/notes.md:0: file: not a Master Direction's file (want master-directions/SLUG/index.md, or SLUG/YYYY-MM-DD.md for a version)"}},
		{"a bad provision", map[string]string{
			"index.md": "---\ntitle: W\nsource: RBI\nissuedDate: 2021-04-01\nreviewedOn: 2026-11-28\nappliesTo: [PSP]\nstatus: replaced\nprovisions:\n  - id: \"1\"\n    text: t\n    wording: official\n    chapter: IX\n  - id: \"1\"\n    text: u\n    wording: paraphrase\n---\n",
		}, []string{
			"content/master-directions/widgets/index.md:7: statusDate: a replaced direction needs statusDate, the day it stopped being in force",
			"content/master-directions/widgets/index.md:12: provisions[0].chapter: unknown chapter \"IX\" (the direction's chapters: )",
			"content/master-directions/widgets/index.md:13: provisions[1].id: provision 1 is listed twice",
			"content/master-directions/widgets/index.md:15: provisions[1].wording: unknown value \"paraphrase\" (allowed: official, digest)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"circulars/rbi-2022-01-01-widget-limit.md": circular,
				"master-directions/widgets/index.md":       {Data: []byte(testDirection)},
			}
			for name, data := range tt.files {
				fsys["master-directions/widgets/"+name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := LoadFS(fsys, "content", nil)
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("LoadFS: %v, want problems", err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
