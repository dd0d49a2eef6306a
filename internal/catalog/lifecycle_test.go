package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// lifecycleCircular is a circular file published on date with extra
// front matter.
func lifecycleCircular(date, extra string) *fstest.MapFile {
	return &fstest.MapFile{Data: []byte("---\ntitle: \"A circular of " + date + "\"\nsource: RBI\ncategory: \"Payment Systems\"\npublishedDate: " + date +
		"\nimpactLevel: medium\nentityImpact: {PSP: high}\nsourceUrl: \"https://rbi.org.in/x\"\n" + extra +
		"obligations:\n  - what: Do the thing\n    appliesTo: [PSP]\n    kind: new-requirement\n    source: The thing is done.\n---\nThe thing is done.\n")}
}

func TestLinkLifecycle(t *testing.T) {
	// The widgets direction, issued by the 2021 circular and amended by
	// the 2022 one, is replaced on 2025-11-28 by the consolidation.
	replaced := strings.Replace(testDirection, "status: in-force\n",
		"circular: rbi-2021-04-01-widgets\nstatus: replaced\nstatusDate: 2025-11-28\nstatusCircular: rbi-2025-11-28-consolidation\nreplacedBy: [gadgets]\nsuccessors: [\"Widgets for banks Directions, 2025\"]\n", 1)
	gadgets := strings.NewReplacer("Master Direction on Widgets", "Gadget Directions", "MD-Widgets, 2021", "Gadgets, 2025",
		"issuedDate: 2021-04-01", "issuedDate: 2025-11-28").Replace(testDirection)
	fsys := fstest.MapFS{
		"master-directions/widgets/index.md":      {Data: []byte(replaced)},
		"master-directions/widgets/2022-01-01.md": {Data: []byte(testVersion)},
		"master-directions/gadgets/index.md":      {Data: []byte(gadgets)},
		"circulars/rbi-2021-04-01-widgets.md":     lifecycleCircular("2021-04-01", ""),
		// The amendment is withdrawn by the consolidation as well.
		"circulars/rbi-2022-01-01-widget-limit.md": lifecycleCircular("2022-01-01", ""),
		"circulars/rbi-2025-11-28-consolidation.md": lifecycleCircular("2025-11-28",
			"supersedes: [rbi-2022-01-01-widget-limit]\n"),
		"circulars/rbi-2017-07-06-liability.md": lifecycleCircular("2017-07-06",
			"withdrawn:\n  date: 2025-11-28\n  rulesNowIn: [\"Responsible Business Conduct Directions, 2025\"]\n"),
		"circulars/rbi-2019-01-01-later.md": lifecycleCircular("2019-01-01",
			"withdrawn:\n  date: 2027-01-01\n  by: rbi-2025-11-28-consolidation\n"),
		"circulars/rbi-2024-01-01-untouched.md": lifecycleCircular("2024-01-01", ""),
	}
	cat, err := LoadFS(fsys, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	day := func(s string) *Date { d := mustDate(t, s); return &d }
	homes := List[RuleHome]{{Name: "Gadgets, 2025", Direction: "gadgets"}, {Name: "Widgets for banks Directions, 2025"}}
	type life struct {
		On    *Date
		By    TextList
		Rules List[RuleHome]
		// InForce on 2026-11-28.
		InForce bool
	}
	want := map[string]life{
		"rbi-2021-04-01-widgets":       {day("2025-11-28"), TextList{"rbi-2025-11-28-consolidation"}, homes, false},
		"rbi-2022-01-01-widget-limit":  {day("2025-11-28"), TextList{"rbi-2025-11-28-consolidation"}, homes, false},
		"rbi-2017-07-06-liability":     {day("2025-11-28"), nil, List[RuleHome]{{Name: "Responsible Business Conduct Directions, 2025"}}, false},
		"rbi-2019-01-01-later":         {day("2027-01-01"), TextList{"rbi-2025-11-28-consolidation"}, nil, true},
		"rbi-2024-01-01-untouched":     {nil, nil, nil, true},
		"rbi-2025-11-28-consolidation": {nil, nil, nil, true},
	}
	now := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, c := range cat.Circulars {
		got := life{c.WithdrawnOn, c.WithdrawnBy, c.RulesNowIn, c.InForce(now)}
		if diff := cmp.Diff(want[c.Slug], got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.Slug, diff)
		}
		for _, o := range c.Obligations {
			if diff := cmp.Diff(c.WithdrawnOn, o.CircularWithdrawnOn); diff != "" {
				t.Errorf("%s: obligation's CircularWithdrawnOn (-circular +obligation):\n%s", c.Slug, diff)
			}
		}
	}
}

func TestLoad_WithdrawnProblems(t *testing.T) {
	for _, tt := range []struct {
		name, extra, want string
	}{
		{"not a map", "withdrawn: 2025-11-28\n", "content/circulars/rbi-2021-04-01-a.md:9: withdrawn: must be a map {date, by, rulesNowIn}"},
		{"no date", "withdrawn:\n  rulesNowIn: [X]\n", "content/circulars/rbi-2021-04-01-a.md:10: withdrawn.date: required field is missing"},
		{"neither by nor rules", "withdrawn:\n  date: 2025-11-28\n", "content/circulars/rbi-2021-04-01-a.md:10: withdrawn.by: say what withdrew it"},
		{"before issue", "withdrawn:\n  date: 2020-01-01\n  rulesNowIn: [X]\n", "content/circulars/rbi-2021-04-01-a.md:10: withdrawn.date: 2020-01-01 is before publishedDate"},
		{"unknown by", "withdrawn:\n  date: 2025-11-28\n  by: rbi-nope\n", "content/circulars/rbi-2021-04-01-a.md:9: withdrawn.by: refers to unknown or unpublished circular rbi-nope"},
		{"by itself", "withdrawn:\n  date: 2025-11-28\n  by: rbi-2021-04-01-a\n", "withdrawn.by: a circular cannot withdraw itself"},
		{"by a later one", "withdrawn:\n  date: 2022-01-01\n  by: rbi-2025-11-28-b\n", "withdrawn.by: rbi-2025-11-28-b was published on 2025-11-28, after the withdrawal date 2022-01-01"},
		{"unknown field", "withdrawn:\n  date: 2025-11-28\n  by: rbi-2025-11-28-b\n  reason: tidy\n", "content/circulars/rbi-2021-04-01-a.md:12: withdrawn.reason: unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"circulars/rbi-2021-04-01-a.md": lifecycleCircular("2021-04-01", tt.extra),
				"circulars/rbi-2025-11-28-b.md": lifecycleCircular("2025-11-28", ""),
			}
			_, err := LoadFS(fsys, "content", nil)
			var problems Problems
			if !errors.As(err, &problems) {
				t.Fatalf("err = %v, want problems", err)
			}
			if !strings.Contains(problems.Error(), tt.want) {
				t.Errorf("problems:\n%v\nwant one containing %q", problems, tt.want)
			}
		})
	}
}
