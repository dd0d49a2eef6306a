package generator

import (
	"testing"
)

// TestRelatedCache: a build leaves beside its output the state of its
// related ranking, which the next build reads back whole (a state that
// failed to read would only make every circular ranked again).
func TestRelatedCache(t *testing.T) {
	out, res := buildSiteAt(t, fixtureContent, templatesDir, fixtureNow)
	rc := readRelatedCache(out)
	if rc.last == nil {
		t.Fatal("no related state read beside the output")
	}
	if len(rc.last.IDs) != len(res.Catalog.Circulars) || len(rc.last.Out) != len(res.Catalog.Circulars) {
		t.Fatalf("the state ranks %d docs (%d rankings), the catalog has %d circulars", len(rc.last.IDs), len(rc.last.Out), len(res.Catalog.Circulars))
	}
	for i, c := range res.Catalog.Circulars {
		if rc.last.IDs[i] != c.Slug {
			t.Fatalf("doc %d is %s, the catalog's circular %s", i, rc.last.IDs[i], c.Slug)
		}
	}
}
