package local

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

// The labelled set is the content itself: the obligations editors wrote
// by hand in the front matter of the circulars that have clear ones
// (every high-impact circular with an operative text). The extraction
// sees only each circular's text and its editorial fields, never what the
// editors wrote; a proposed obligation is right when its source sentence
// is one an editor drew an obligation from.
const (
	minPrecision = 0.85
	minRecall    = 0.7
	minLabelled  = 15
)

func TestExtractObligations_LabelledSet(t *testing.T) {
	svc := ai.NewService(nil, New())
	var labelled, proposed, right int
	var circulars int
	var report []string
	cs := realCirculars(t)
	slugs := make([]string, 0, len(cs))
	for s := range cs {
		slugs = append(slugs, s)
	}
	sort.Strings(slugs)
	for _, slug := range slugs {
		c := cs[slug]
		if len(c.Obligations) == 0 {
			continue
		}
		circulars++
		want := map[string]bool{}
		for _, o := range c.Obligations {
			want[o.SourceText] = true
		}
		in := c
		in.Obligations = nil
		got, err := svc.ExtractObligations(t.Context(), ai.ObligationRequest{Circular: in})
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		seen := map[string]bool{}
		for _, o := range got {
			if seen[o.SourceText] {
				continue
			}
			seen[o.SourceText] = true
			proposed++
			if want[o.SourceText] {
				right++
			} else {
				report = append(report, fmt.Sprintf("%s: extra: %q", slug, o.SourceText))
			}
		}
		labelled += len(want)
		for s := range want {
			if !seen[s] {
				report = append(report, fmt.Sprintf("%s: missed: %q", slug, s))
			}
		}
	}
	if circulars < minLabelled {
		t.Fatalf("the labelled set has %d circulars, want at least %d", circulars, minLabelled)
	}
	p, r := float64(right)/float64(proposed), float64(right)/float64(labelled)
	t.Logf("labelled set: %d circulars, %d obligation sentences; proposed %d, right %d: precision %.3f, recall %.3f",
		circulars, labelled, proposed, right, p, r)
	slices.Sort(report)
	if testing.Verbose() {
		t.Log("\n" + strings.Join(report, "\n"))
	}
	if p < minPrecision || r < minRecall {
		t.Errorf("precision %.3f (min %.2f), recall %.3f (min %.2f):\n%s", p, minPrecision, r, minRecall, strings.Join(report, "\n"))
	}
}

func TestExtractObligations_Rules(t *testing.T) {
	c := catalog.Circular{
		Entry: catalog.Entry{ID: "6f1d3c2e-9a47-4e0b-8f5a-2c7b1e9d4a10", Slug: "x"}, DocumentType: "circular",
		EntityImpact: []catalog.EntityImpact{{EntityType: "PSP", ImpactLevel: "high"}},
		Content: "RBI reviewed the framework. Payment aggregators must settle funds by 31 March 2026.\n\n" +
			"Card issuers shall report each fraud within seven days of the customer's notice. " +
			"PSPs may not charge for the facility. Comments were due by 1 May 2026. It applies to all operators.",
	}
	got, err := ai.NewService(nil, New()).ExtractObligations(t.Context(), ai.ObligationRequest{Circular: c})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ who, kind, deadline, due, source string }
	var rows []row
	for _, o := range got {
		due := ""
		if o.DueDate != nil {
			due = o.DueDate.String()
		}
		rows = append(rows, row{strings.Join(o.AppliesTo, ","), o.Kind, string(o.Deadline), due,
			catalog.SliceUTF16(c.Content, o.SourceStart, o.SourceEnd)})
		if o.Origin != catalog.OriginExtracted || o.Provider != ai.ProviderLocal || o.Model != ModelObligations || o.Accepted || !o.Binding {
			t.Errorf("labels: %+v", o)
		}
	}
	want := []row{
		{"Aggregator", "new-requirement", "by 31 March 2026", "2026-03-31", "Payment aggregators must settle funds by 31 March 2026."},
		{"Issuer", "reporting", "within seven days of the customer's notice", "", "Card issuers shall report each fraud within seven days of the customer's notice."},
		{"PSP", "prohibition", "", "", "PSPs may not charge for the facility."},
	}
	if !slices.Equal(rows, want) {
		t.Errorf("got\n%v\nwant\n%v", rows, want)
	}
}
