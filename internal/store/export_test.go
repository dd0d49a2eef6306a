package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestDB_ExportCirculars(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		// The export is the list's query, whole: for every filter it gives
		// what the list gives (TestListCirculars holds the list to its
		// expectations), and a page in the query is ignored.
		export := func(t *testing.T, q catalog.CircularQuery) []catalog.Circular {
			t.Helper()
			got := []catalog.Circular{}
			if err := db.ExportCirculars(ctx, q, func(c catalog.Circular) error { got = append(got, c); return nil }); err != nil {
				t.Fatal(err)
			}
			return got
		}
		for _, tc := range []struct {
			name string
			q    catalog.CircularQuery
		}{
			{"All", catalog.CircularQuery{}},
			{"Source", catalog.CircularQuery{Source: "RBI"}},
			{"Category", catalog.CircularQuery{Category: "UPI"}},
			{"Impact", catalog.CircularQuery{Impact: "high"}},
			{"DocumentType", catalog.CircularQuery{Type: "master-direction"}},
			{"Verification", catalog.CircularQuery{Verification: "reported"}},
			{"Search", catalog.CircularQuery{Search: "tokenisation"}},
			{"NoMatch", catalog.CircularQuery{Source: "PRB"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				whole := tc.q
				whole.Page = catalog.Page{Limit: catalog.MaxLimit}
				list, total, err := db.ListCirculars(ctx, whole)
				if err != nil {
					t.Fatal(err)
				}
				if total > len(list) {
					t.Fatalf("the fixture outgrew one page of the list (%d of %d)", len(list), total)
				}
				if diff := cmp.Diff(list, export(t, tc.q)); diff != "" {
					t.Errorf("export differs from the list (-list +export):\n%s", diff)
				}
			})
		}
		t.Run("PageIgnored", func(t *testing.T) {
			all := export(t, catalog.CircularQuery{})
			if len(all) != 5 {
				t.Fatalf("exported %d circulars, want the fixture's 5", len(all))
			}
			if diff := cmp.Diff(all, export(t, catalog.CircularQuery{Page: catalog.Page{Limit: 1, Offset: 1}})); diff != "" {
				t.Errorf("a page changed the export (-whole +paged):\n%s", diff)
			}
		})

		t.Run("ErrStopsExport", func(t *testing.T) {
			stop := errors.New("stop")
			n := 0
			err := db.ExportCirculars(ctx, catalog.CircularQuery{}, func(catalog.Circular) error { n++; return stop })
			if !errors.Is(err, stop) || n != 1 {
				t.Errorf("err %v after %d rows, want stop after 1", err, n)
			}
		})
	})
}
