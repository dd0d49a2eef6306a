package store

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// slugs lists the slugs of entries, in order.
func slugs[T any](list []T, slug func(T) string) []string {
	out := []string{}
	for _, v := range list {
		out = append(out, slug(v))
	}
	return out
}

func TestDB_ListCompanies(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		for _, tc := range []struct {
			name      string
			q         catalog.CompanyQuery
			want      []string
			wantTotal int
		}{
			{"All", catalog.CompanyQuery{Page: catalog.Page{Limit: 100}}, []string{"klarna", "razorpay"}, 2},
			{"Category", catalog.CompanyQuery{Category: "BNPL", Page: catalog.Page{Limit: 100}}, []string{"klarna"}, 1},
			{"Limit", catalog.CompanyQuery{Page: catalog.Page{Limit: 1}}, []string{"klarna"}, 2},
			{"Offset", catalog.CompanyQuery{Page: catalog.Page{Limit: 1, Offset: 1}}, []string{"razorpay"}, 2},
			{"NoMatch", catalog.CompanyQuery{Category: "Insurance", Page: catalog.Page{Limit: 100}}, []string{}, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				list, total, err := db.ListCompanies(t.Context(), tc.q)
				if err != nil {
					t.Fatal(err)
				}
				got := slugs(list, func(c catalog.Company) string { return c.Slug })
				if diff := cmp.Diff(tc.want, got); diff != "" || total != tc.wantTotal {
					t.Errorf("total %d (want %d), slugs (-want +got):\n%s", total, tc.wantTotal, diff)
				}
			})
		}
		t.Run("ErrBadLimit", func(t *testing.T) {
			if _, _, err := db.ListCompanies(t.Context(), catalog.CompanyQuery{}); err == nil {
				t.Error("limit 0 accepted")
			}
		})
	})
}

func TestDB_ListRegulations(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		for _, tc := range []struct {
			name string
			q    catalog.RegulationQuery
			want []string
		}{
			{"All", catalog.RegulationQuery{}, []string{"aus-privacy-reform", "dpdpa", "gdpr"}},
			{"Country", catalog.RegulationQuery{Country: "India"}, []string{"dpdpa"}},
			{"Status", catalog.RegulationQuery{Status: "active"}, []string{"dpdpa", "gdpr"}},
			{"CountryAndStatus", catalog.RegulationQuery{Country: "Australia", Status: "active"}, []string{}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				tc.q.Limit = 100
				list, total, err := db.ListRegulations(t.Context(), tc.q)
				if err != nil {
					t.Fatal(err)
				}
				got := slugs(list, func(r catalog.Regulation) string { return r.Slug })
				if diff := cmp.Diff(tc.want, got); diff != "" || total != len(tc.want) {
					t.Errorf("total %d, slugs (-want +got):\n%s", total, diff)
				}
			})
		}
	})
}

func TestDB_ListNetworks(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		list, total, err := db.ListNetworks(t.Context(), catalog.Page{Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := slugs(list, func(n catalog.Network) string { return n.Slug }); !cmp.Equal(got, []string{"upi"}) || total != 2 {
			t.Errorf("first page %v of %d, want [upi] of 2", got, total)
		}
	})
}

func TestDB_ListSibosEvents(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := openSynced(t, open, storetest.Catalog())
		list, total, err := db.ListSibosEvents(t.Context(), catalog.Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		if got := slugs(list, func(e catalog.SibosEvent) string { return e.Slug }); !cmp.Equal(got, []string{"sibos-2025", "sibos-2019"}) || total != 2 {
			t.Errorf("got %v of %d, want newest year first", got, total)
		}
	})
}

// TestDB_EntriesWhole checks that every kind of entry the store keeps comes
// back exactly as the catalog holds it, every field: the columns follow the
// types (columns.go). Lists come back [] where the catalog had nil.
func TestDB_EntriesWhole(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		page := catalog.Page{Limit: 100}
		opts := cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreFields(catalog.Entry{}, "Path"),
			cmpopts.SortSlices(func(a, b catalog.Company) bool { return a.Slug < b.Slug })}
		check := func(t *testing.T, want, got any, err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, opts...); diff != "" {
				t.Errorf("(-catalog +store):\n%s", diff)
			}
		}
		ctx := t.Context()
		t.Run("Circulars", func(t *testing.T) {
			got, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: page})
			check(t, cat.Circulars, got, err)
		})
		t.Run("News", func(t *testing.T) {
			got, _, err := db.ListNews(ctx, catalog.NewsQuery{Page: page})
			check(t, cat.News, got, err)
		})
		t.Run("Companies", func(t *testing.T) {
			got, _, err := db.ListCompanies(ctx, catalog.CompanyQuery{Page: page})
			check(t, cat.Companies, got, err)
		})
		t.Run("Regulations", func(t *testing.T) {
			got, _, err := db.ListRegulations(ctx, catalog.RegulationQuery{Page: page})
			check(t, bySlug(cat.Regulations, func(r catalog.Regulation) string { return r.Slug }), got, err)
		})
		t.Run("Networks", func(t *testing.T) {
			got, _, err := db.ListNetworks(ctx, page)
			check(t, bySlug(cat.Networks, func(n catalog.Network) string { return n.Slug }), got, err)
		})
		t.Run("Sibos", func(t *testing.T) {
			got, _, err := db.ListSibosEvents(ctx, page)
			check(t, cat.Sibos, got, err)
		})
	})
}

// bySlug is list sorted by slug, as the directory lists are.
func bySlug[T any](list []T, slug func(T) string) []T {
	out := slices.Clone(list)
	slices.SortFunc(out, func(a, b T) int { return strings.Compare(slug(a), slug(b)) })
	return out
}
