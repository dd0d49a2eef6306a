package catalog

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestReviewCitations: the widgets direction (testDirection) is issued
// 2021-04-01 and amended 2022-01-01 (testVersion: "2" substituted, "2A"
// inserted). An obligation citing "2" and written before the amendment
// needs a review from 2022-01-01; one citing "1" does not; one citing the
// whole direction does; one reviewed after the amendment does not.
func TestReviewCitations(t *testing.T) {
	for _, tt := range []struct {
		name, written, cites string
		want                 *ProvisionReview
		problem              string
	}{
		{"ChangedProvision", "2021-06-01", `{direction: widgets, provisions: ["1", "2"]}`,
			&ProvisionReview{Since: mustDate(t, "2022-01-01"), Provisions: TextList{"2"}, Compare: "/master-directions/widgets/compare/2021-04-01/2022-01-01"}, ""},
		{"UnchangedProvision", "2021-06-01", `{direction: widgets, provisions: ["1"]}`, nil, ""},
		{"WholeDirection", "2021-06-01", `{direction: widgets}`,
			&ProvisionReview{Since: mustDate(t, "2022-01-01"), Compare: "/master-directions/widgets/compare/2021-04-01/2022-01-01"}, ""},
		{"Reviewed", "2021-06-01", `{direction: widgets, provisions: ["2"], reviewedOn: 2022-02-01}`, nil, ""},
		{"WrittenAfter", "2022-03-01", `{direction: widgets, provisions: ["2A"]}`, nil, ""},
		{"UnknownDirection", "2021-06-01", `{direction: gadgets}`, nil,
			"content/circulars/rbi-2021-06-01-a.md:14: obligations[0].cites: refers to unknown direction gadgets"},
		{"NoSuchProvisionThen", "2021-06-01", `{direction: widgets, provisions: ["2A"]}`, nil,
			"content/circulars/rbi-2021-06-01-a.md:14: obligations[0].cites: widgets has no provision 2A in its text of 2021-06-01"},
		{"NotAMap", "2021-06-01", `widgets`, nil, "content/circulars/rbi-2021-06-01-a.md:14: obligations.cites: must be a map"},
		{"UnknownKey", "2021-06-01", `{direction: widgets, paragraph: "2"}`, nil, "obligations.cites.paragraph: unknown field"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			circular := "---\ntitle: A circular\nsource: RBI\ncategory: \"Payment Systems\"\npublishedDate: " + tt.written +
				"\nimpactLevel: medium\nentityImpact: {PSP: high}\nsourceUrl: \"https://rbi.org.in/x\"\nobligations:\n" +
				"  - what: Hold widgets within the limit.\n    appliesTo: [PSP]\n    kind: new-requirement\n    source: Widgets are limited.\n" +
				"    cites: " + tt.cites + "\n---\nWidgets are limited.\n"
			fsys := fstest.MapFS{
				"master-directions/widgets/index.md":       {Data: []byte(testDirection)},
				"master-directions/widgets/2022-01-01.md":  {Data: []byte(testVersion)},
				"circulars/rbi-2022-01-01-widget-limit.md": {Data: []byte(testCircular)},
				"circulars/rbi-" + tt.written + "-a.md":    {Data: []byte(circular)},
			}
			cat, err := LoadFS(fsys, "content", nil)
			if tt.problem != "" {
				var problems Problems
				if !errors.As(err, &problems) || !strings.Contains(problems.Error(), tt.problem) {
					t.Fatalf("err = %v, want a problem containing %q", err, tt.problem)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var c Circular
			for _, x := range cat.Circulars {
				if x.Slug == "rbi-"+tt.written+"-a" {
					c = x
				}
			}
			if diff := cmp.Diff(tt.want, c.Obligations[0].Review); diff != "" {
				t.Errorf("Review (-want +got):\n%s", diff)
			}
		})
	}
}

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	var d Date
	if err := d.UnmarshalText([]byte(s)); err != nil {
		t.Fatal(err)
	}
	return d
}
