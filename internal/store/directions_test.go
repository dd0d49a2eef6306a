package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
)

// The store's texts and comparisons are the catalog's: on each version's
// date, and between each version and the one before, for the content's
// Master Directions.
func TestDirections(t *testing.T) {
	t.Parallel()
	cat, err := catalog.Load("../../content")
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Directions) == 0 {
		t.Fatal("no Master Directions in the content")
	}
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, cat)
		list, err := db.ListDirections(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var slugs, want []string
		for _, d := range list {
			slugs = append(slugs, d.Slug)
		}
		for _, d := range cat.Directions {
			want = append(want, d.Slug)
		}
		if diff := cmp.Diff(want, slugs); diff != "" {
			t.Errorf("ListDirections (-want +got):\n%s", diff)
		}
		if _, err := db.Direction(ctx, "no-such-direction"); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown direction: %v, want ErrNotFound", err)
		}
		// the titles of some, by slug; an unknown slug has none
		titles, err := db.DirectionTitles(ctx, []string{cat.Directions[0].Slug, "no-such-direction", cat.Directions[0].Slug})
		if err != nil || len(titles) != 1 || titles[cat.Directions[0].Slug] != cat.Directions[0].Title {
			t.Errorf("DirectionTitles = %v, %v; want %s's title only", titles, err, cat.Directions[0].Slug)
		}
		for i := range cat.Directions {
			d := &cat.Directions[i]
			got, err := db.Direction(ctx, d.Slug)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(d.Versions, got.Versions, cmp.FilterPath(func(p cmp.Path) bool {
				return p.Last().String() == ".Path" || p.Last().String() == ".line"
			}, cmp.Ignore()), cmp.AllowUnexported(catalog.Effect{}), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: versions (-catalog +store):\n%s", d.Slug, diff)
			}
			days := []catalog.Date{d.IssuedDate}
			for _, v := range d.Versions {
				days = append(days, v.Date)
			}
			for j, day := range days {
				w, err := db.DirectionBetween(ctx, d.Slug, day, day)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(d.At(day), w.At(day), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s on %s (-catalog +store):\n%s", d.Slug, day, diff)
				}
				if j == 0 {
					continue
				}
				w, err = db.DirectionBetween(ctx, d.Slug, days[j-1], day)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(directions.Compare(d, days[j-1], day, nil), directions.Compare(&w, days[j-1], day, nil), cmpopts.EquateEmpty()); diff != "" {
					t.Errorf("%s from %s to %s (-catalog +store):\n%s", d.Slug, days[j-1], day, diff)
				}
			}
		}
		// a second sync of the same content writes nothing
		st, err := db.SyncCatalog(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		for name, ks := range map[string]KindStats{"directions": st.Directions, "versions": st.Versions, "provisions": st.Provisions} {
			if ks.Added+ks.Changed+ks.Removed > 0 {
				t.Errorf("second sync: %s %s, want all unchanged", name, ks)
			}
		}
	})
}
