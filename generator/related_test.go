package generator

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// scanRelated is the rule as first written, comparing c with every
// circular: the index must give the same answer.
func scanRelated(cs []catalog.Circular, c catalog.Circular) []string {
	var both, one []string
	for _, o := range cs {
		if o.Slug == c.Slug {
			continue
		}
		sameSource, sameCategory := o.Source == c.Source, o.Category == c.Category
		switch {
		case sameSource && sameCategory:
			both = append(both, o.Slug)
		case sameSource || sameCategory:
			one = append(one, o.Slug)
		}
	}
	out := append(both, one...)
	if len(out) > relatedLimit {
		out = out[:relatedLimit]
	}
	return out
}

func TestRelatedIndex_Related(t *testing.T) {
	few := storetest.Catalog().Circulars
	lonely := storetest.Circular("lonely", "PRB", "Nothing else", "2025-01-01", "low")
	for _, tc := range []struct {
		name string
		cs   []catalog.Circular
	}{
		{"Fixture", few},
		{"NoneRelated", append([]catalog.Circular{lonely}, few...)},
		{"Generated", storetest.Circulars(3000)},
		{"Realistic", storetest.RealisticCirculars(2000, 3)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := newRelatedIndex(tc.cs)
			for i, c := range tc.cs {
				if diff := cmp.Diff(scanRelated(tc.cs, c), x.related(i)); diff != "" {
					t.Fatalf("%s (-scan +index):\n%s", c.Slug, diff)
				}
			}
		})
	}
}
