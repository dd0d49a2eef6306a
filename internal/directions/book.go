package directions

import (
	"slices"
	"sync"

	"regpulse/internal/catalog"
)

// Book is the catalog's Master Directions, with what comparing and
// citing them needs of its circulars.
type Book struct {
	Directions []catalog.MasterDirection
	bySlug     map[string]*catalog.MasterDirection
	circulars  map[string]*catalog.Circular
	// changes keeps VersionChanges: a build shows each version's changes
	// on its timeline, its circulars' pages and its feed.
	mu      sync.Mutex
	changes map[versionKey]Comparison
}

type versionKey struct {
	slug string
	vi   int
}

// New indexes cat's directions and circulars.
func New(cat *catalog.Catalog) *Book {
	b := &Book{Directions: cat.Directions, bySlug: map[string]*catalog.MasterDirection{}, circulars: map[string]*catalog.Circular{},
		changes: map[versionKey]Comparison{}}
	for i := range b.Directions {
		b.bySlug[b.Directions[i].Slug] = &b.Directions[i]
	}
	for i := range cat.Circulars {
		b.circulars[cat.Circulars[i].Slug] = &cat.Circulars[i]
	}
	return b
}

// Direction is the direction with slug, or nil.
func (b *Book) Direction(slug string) *catalog.MasterDirection { return b.bySlug[slug] }

// Circular is the catalog's circular with slug, or nil.
func (b *Book) Circular(slug string) *catalog.Circular { return b.circulars[slug] }

// Compare is Compare with the kinds of business each change touches
// taken, where its effect does not say, from the amending circulars.
func (b *Book) Compare(d *catalog.MasterDirection, from, to catalog.Date) Comparison {
	return Compare(d, from, to, b.Touches(d))
}

// Touches says which kinds of business a version of d bears on: those its
// amending circulars hit hard or moderately (their entity impact), else
// all those d applies to.
func (b *Book) Touches(d *catalog.MasterDirection) Touches {
	return func(v *catalog.DirectionVersion) []string {
		seen := map[string]bool{}
		for _, s := range v.Circulars {
			if c := b.circulars[s]; c != nil {
				for _, ei := range c.EntityImpact {
					if ei.ImpactLevel != "low" {
						seen[ei.EntityType] = true
					}
				}
			}
		}
		var out []string
		for _, t := range catalog.EntityTypes {
			if seen[t] {
				out = append(out, t)
			}
		}
		if len(out) == 0 {
			return slices.Clone(d.AppliesTo)
		}
		return out
	}
}

// VersionChanges compares version vi of d with the text the day before,
// once per Book: callers share the comparison and must not change it.
func (b *Book) VersionChanges(d *catalog.MasterDirection, vi int) Comparison {
	k := versionKey{d.Slug, vi}
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.changes[k]; ok {
		return c
	}
	v := d.Versions[vi]
	before := catalog.Date{Time: v.Date.AddDate(0, 0, -1)}
	c := b.Compare(d, before, v.Date)
	b.changes[k] = c
	return c
}
