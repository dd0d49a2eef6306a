package directions

import (
	"testing"

	"regpulse/internal/catalog"
)

// The repository's own directions: every version whose changes are known
// changes something, and the text on each version's date is the one
// before it with that version's changes.
func TestContent(t *testing.T) {
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Directions) < 5 {
		t.Fatalf("%d Master Directions in the content, want the five payments ones at least", len(cat.Directions))
	}
	b := New(cat)
	for i := range b.Directions {
		d := &b.Directions[i]
		if len(d.At(d.IssuedDate)) == 0 {
			t.Errorf("%s: no text as issued", d.Slug)
		}
		for vi, v := range d.Versions {
			c := b.VersionChanges(d, vi)
			if v.ChangesKnown && len(c.Changes) == 0 {
				t.Errorf("%s: version %s changes nothing", d.Slug, v.Date)
			}
			for _, ch := range c.Changes {
				if len(ch.By) != 1 || ch.By[0].Date != v.Date {
					t.Errorf("%s %s: provision %s cites %v, want the version alone", d.Slug, v.Date, ch.Provision, ch.By)
				}
				if len(ch.Touches) == 0 {
					t.Errorf("%s %s: provision %s touches no kind of business", d.Slug, v.Date, ch.Provision)
				}
			}
		}
	}
}
