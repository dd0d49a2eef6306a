package store

import (
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestEntryHash(t *testing.T) {
	t.Parallel()
	base := storetest.Catalog().Circulars[1]
	hash := func(t *testing.T, v any) string {
		t.Helper()
		h, err := entryHash(v)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	want := hash(t, base)
	if again := hash(t, base); again != want {
		t.Fatal("the same entry hashes differently")
	}
	for _, tc := range []struct {
		name   string
		change func(c *catalog.Circular)
	}{
		{"Title", func(c *catalog.Circular) { c.Title += "." }},
		{"Text", func(c *catalog.Circular) { c.Content += " More." }},
		{"OptionalText", func(c *catalog.Circular) { c.OfficialURL = "" }},
		{"Date", func(c *catalog.Circular) { c.PublishedDate = storetest.Date("2025-06-21") }},
		{"OptionalDate", func(c *catalog.Circular) { c.EffectiveDate = nil }},
		{"ListItem", func(c *catalog.Circular) { c.EntityImpact[0].ImpactLevel = "low" }},
		{"ListLength", func(c *catalog.Circular) { c.EntityImpact = c.EntityImpact[:1] }},
		{"EmptyListIsNotNil", func(c *catalog.Circular) { c.AdditionalSourceURLs = []string{} }},
		{"Flag", func(c *catalog.Circular) { c.TitleIsDescriptive = !c.TitleIsDescriptive }},
		// Length prefixes keep text from moving between fields unseen.
		{"TextMovedBetweenFields", func(c *catalog.Circular) { c.Title, c.Content = c.Title+c.Content[:1], c.Content[1:] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base
			c.EntityImpact = append([]catalog.EntityImpact(nil), base.EntityImpact...)
			tc.change(&c)
			if hash(t, c) == want {
				t.Error("the change leaves the hash as it was")
			}
		})
	}
	t.Run("PathIsNotContent", func(t *testing.T) {
		c := base
		c.Path = "content/elsewhere.md" // json:"-"
		if hash(t, c) != want {
			t.Error("a field JSON leaves out changes the hash")
		}
	})
	t.Run("MapOrder", func(t *testing.T) {
		a := map[string]int{"x": 1, "y": 2, "z": 3}
		b := map[string]int{"z": 3, "y": 2, "x": 1}
		if hash(t, a) != hash(t, b) {
			t.Error("equal maps hash differently")
		}
	})
	t.Run("ErrUnhashable", func(t *testing.T) {
		if _, err := entryHash(struct{ F func() }{}); err == nil {
			t.Error("a func was hashed")
		}
	})
}
