package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
	"regpulse/internal/store/storetest"
)

// openAt opens a store whose clock reads *now.
func openAt(t *testing.T, open opener, now *time.Time) *DB {
	t.Helper()
	return open(t, WithNow(func() time.Time { return *now }))
}

// TestDB_ImpactTracking_StoresTheRule checks that the store serves what
// impact.Records computes from the catalog it holds (the static
// /impact-tracker page shows the same), on the fixture and on generated
// circulars, as of several dates.
func TestDB_ImpactTracking_StoresTheRule(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		big := storetest.Catalog()
		big.Circulars = storetest.Circulars(300)
		for _, cat := range []*catalog.Catalog{storetest.Catalog(), big} {
			for _, now := range []time.Time{storetest.Now, storetest.Now.AddDate(-3, 0, 0), storetest.Now.AddDate(0, 7, 0)} {
				db := openAt(t, open, &now)
				if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
					t.Fatal(err)
				}
				got, err := db.ImpactTracking(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(impact.Records(cat.Circulars, now), got); diff != "" {
					t.Errorf("%d circulars as of %s (-rule +store):\n%s", len(cat.Circulars), now.Format(time.DateOnly), diff)
				}
			}
		}
	})
}

func TestDB_ImpactTracking(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		t.Run("BeforeAnySync", func(t *testing.T) {
			recs, err := open(t).ImpactTracking(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(impact.Records(nil, storetest.Now), recs); diff != "" {
				t.Errorf("records before any sync (-want +got):\n%s", diff)
			}
		})

		db := openSynced(t, open, storetest.Catalog())
		recs, err := db.ImpactTracking(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		want := []impact.Record{
			{ID: impact.RecordID("PSP"), EntityType: "PSP", Name: "Payment Service Providers", CircularID: catalog.OptString(idOf(storetest.SlugUPIFraud)),
				ComplianceScore: 93, Band: impact.Good, HighImpactCount: 2, MediumImpactCount: 1, UpdatedAt: storetest.Now},
			{ID: impact.RecordID("Issuer"), EntityType: "Issuer", Name: "Card Issuers", CircularID: catalog.OptString(idOf(storetest.SlugBimaSugam)),
				ComplianceScore: 98, Band: impact.Good, HighImpactCount: 1, MediumImpactCount: 1, LowImpactCount: 2, UpdatedAt: storetest.Now},
			{ID: impact.RecordID("Aggregator"), EntityType: "Aggregator", Name: "Payment Aggregators", CircularID: catalog.OptString(idOf(storetest.SlugUPIFraud)),
				ComplianceScore: 95, Band: impact.Good, HighImpactCount: 1, LowImpactCount: 1, UpdatedAt: storetest.Now},
		}
		if diff := cmp.Diff(want, recs); diff != "" {
			t.Errorf("records (-want +got):\n%s", diff)
		}
	})
}

// TestDB_ImpactTracking_UpdatedAt checks that a record's updatedAt moves
// only when its values change: when the window slides past circulars, or
// the circulars change, but not at every sync.
func TestDB_ImpactTracking_UpdatedAt(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		now := storetest.Now
		db := openAt(t, open, &now)
		sync := func(cat *catalog.Catalog) SyncStats {
			t.Helper()
			stats, err := db.SyncCatalog(t.Context(), cat)
			if err != nil {
				t.Fatal(err)
			}
			return stats
		}
		records := func() []impact.Record {
			t.Helper()
			recs, err := db.ImpactTracking(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			return recs
		}
		sync(storetest.Catalog())
		first := now

		now = now.Add(time.Hour) // nothing changes
		if stats := sync(storetest.Catalog()); stats.Impact != (KindStats{Unchanged: 3}) {
			t.Errorf("a sync with no change: impact records %s, want all unchanged", stats.Impact)
		}
		for _, r := range records() {
			if !r.UpdatedAt.Equal(first) {
				t.Errorf("%s updated at %v after a sync that changed nothing, want %v", r.EntityType, r.UpdatedAt, first)
			}
		}

		now = now.AddDate(2, 0, 0) // every fixture circular is over a year old
		if stats := sync(storetest.Catalog()); stats.Impact != (KindStats{Changed: 3}) {
			t.Errorf("two years on: impact records %s, want all changed", stats.Impact)
		}
		for _, r := range records() {
			if r.ComplianceScore != 100 || !r.UpdatedAt.Equal(now.Truncate(time.Second)) {
				t.Errorf("%s two years on: score %d updated %v; want 100 at %v", r.EntityType, r.ComplianceScore, r.UpdatedAt, now)
			}
		}

		now = now.Add(time.Hour) // a circular of another type's only: Aggregator changes alone
		cat := storetest.Catalog()
		cat.Circulars = append(cat.Circulars, storetest.Circular("rbi-2027-06-30-new", "RBI", "UPI", now.Format(time.DateOnly), "low", "Aggregator", "low"))
		if stats := sync(cat); stats.Impact != (KindStats{Changed: 1, Unchanged: 2}) {
			t.Errorf("a new Aggregator circular: impact records %s, want 1 changed", stats.Impact)
		}
	})
}
