package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestDB_CatalogFreshness(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		clock := time.Date(2026, 11, 26, 8, 30, 15, 0, time.UTC)
		db := open(t, WithNow(func() time.Time { return clock }))
		t.Run("NeverSynced", func(t *testing.T) {
			got, err := db.CatalogFreshness(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(catalog.Freshness{}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
		cat := storetest.Catalog()
		for _, at := range []time.Time{clock, clock.Add(time.Hour)} {
			clock = at
			if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatal(err)
			}
			got, err := db.CatalogFreshness(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			// Every sync counts, one that changes nothing too: it is when
			// the catalog was last known to be as content says.
			if diff := cmp.Diff(catalog.NewFreshness(cat.Circulars, at), got); diff != "" {
				t.Errorf("after a sync at %v (-want +got):\n%s", at, diff)
			}
		}
	})
}
