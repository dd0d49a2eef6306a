package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestDB_ExportCirculars(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		const (
			bima  = storetest.SlugBimaSugam
			fraud = storetest.SlugUPIFraud
			lite  = storetest.SlugUPILite
			cyber = storetest.SlugCyber
			token = storetest.SlugTokenisation
		)
		for _, tc := range []struct {
			name string
			q    catalog.CircularQuery
			want []string
		}{
			{"All", catalog.CircularQuery{}, []string{bima, fraud, lite, cyber, token}},
			// The export is whole: a page in the query is ignored.
			{"PageIgnored", catalog.CircularQuery{Page: catalog.Page{Limit: 1, Offset: 1}}, []string{bima, fraud, lite, cyber, token}},
			{"Source", catalog.CircularQuery{Source: "RBI"}, []string{fraud, token}},
			{"Category", catalog.CircularQuery{Category: "UPI"}, []string{fraud, lite}},
			{"Impact", catalog.CircularQuery{Impact: "high"}, []string{fraud, cyber, token}},
			{"Search", catalog.CircularQuery{Search: "tokenisation"}, []string{token}},
			{"NoMatch", catalog.CircularQuery{Source: "PRB"}, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var got []string
				err := db.ExportCirculars(ctx, tc.q, func(c catalog.Circular) error {
					got = append(got, c.Slug)
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("slugs (-want +got):\n%s", diff)
				}
			})
		}

		t.Run("SameAsList", func(t *testing.T) {
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: catalog.Page{Limit: 100}})
			if err != nil {
				t.Fatal(err)
			}
			var got []catalog.Circular
			if err := db.ExportCirculars(ctx, catalog.CircularQuery{}, func(c catalog.Circular) error { got = append(got, c); return nil }); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(list, got); diff != "" {
				t.Errorf("export differs from the list (-list +export):\n%s", diff)
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
