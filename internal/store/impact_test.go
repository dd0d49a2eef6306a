package store

import (
	"context"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
	"regpulse/internal/store/storetest"
)

// TestImpactTracking_AgreesWithCatalogRule checks that the store's SQL
// counts and scores are what impact.Records computes from the same catalog
// (the static /impact-tracker page uses the latter), on the fixture and on
// generated circulars, as of several dates.
func TestImpactTracking_AgreesWithCatalogRule(t *testing.T) {
	ctx := context.Background()
	big := storetest.Catalog()
	big.Circulars = storetest.Circulars(300)
	for _, cat := range []*catalog.Catalog{storetest.Catalog(), big} {
		for _, now := range []time.Time{storetest.Now, storetest.Now.AddDate(-3, 0, 0), storetest.Now.AddDate(0, 7, 0)} {
			db, err := Open(ctx, ":memory:", WithClock(func() time.Time { return now }))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.SyncCatalog(ctx, cat); err != nil {
				t.Fatal(err)
			}
			recs, err := db.ImpactTracking(ctx)
			db.Close()
			if err != nil {
				t.Fatal(err)
			}
			want := impact.Records(cat.Circulars, now)
			if len(recs) != len(want) {
				t.Fatalf("%d records, want %d", len(recs), len(want))
			}
			for i, r := range recs {
				w := want[i]
				got := impact.Record{EntityType: r.EntityType, Name: w.Name, Band: w.Band, Score: r.ComplianceScore,
					High: r.HighImpactCount, Medium: r.MediumImpactCount, Low: r.LowImpactCount}
				if got != w {
					t.Errorf("%d circulars as of %s: store %+v, catalog rule %+v", len(cat.Circulars), now.Format(time.DateOnly), got, w)
				}
			}
		}
	}
}

func TestImpactTracking(t *testing.T) {
	ctx := context.Background()
	t.Run("BeforeAnySync", func(t *testing.T) {
		recs, err := openTest(t).ImpactTracking(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 3 {
			t.Fatalf("got %d records, want the 3 seeded", len(recs))
		}
		for _, r := range recs {
			if r.ComplianceScore != 100 || r.CircularID != "" || r.HighImpactCount+r.MediumImpactCount+r.LowImpactCount != 0 {
				t.Errorf("seeded record = %+v", r)
			}
		}
	})

	db := openSynced(t, storetest.Catalog())
	recs, err := db.ImpactTracking(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []ImpactRecord{
		{EntityType: "PSP", CircularID: idOf(storetest.SlugUPIFraud), ComplianceScore: 93, HighImpactCount: 2, MediumImpactCount: 1},
		{EntityType: "Issuer", CircularID: idOf(storetest.SlugBimaSugam), ComplianceScore: 98, HighImpactCount: 1, MediumImpactCount: 1, LowImpactCount: 2},
		{EntityType: "Aggregator", CircularID: idOf(storetest.SlugUPIFraud), ComplianceScore: 95, HighImpactCount: 1, LowImpactCount: 1},
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d", len(recs), len(want))
	}
	for i, r := range recs {
		w := want[i]
		w.ID, w.UpdatedAt = r.ID, storetest.Now.Truncate(time.Second)
		if r != w {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, r, w)
		}
		if r.ID == "" {
			t.Errorf("record %d has no id", i)
		}
	}

	t.Run("SetScoreSurvivesSync", func(t *testing.T) {
		issuerID := recs[1].ID
		if err := db.SetComplianceScore(ctx, "Issuer", 42); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SyncCatalog(ctx, storetest.Catalog()); err != nil {
			t.Fatal(err)
		}
		recs, _ := db.ImpactTracking(ctx)
		if recs[1].EntityType != "Issuer" || recs[1].ComplianceScore != 42 || recs[1].ID != issuerID {
			t.Errorf("Issuer after sync = %+v, want the set score 42", recs[1])
		}
		if recs[0].ComplianceScore != 93 {
			t.Errorf("PSP after sync = %d, want the rule's 93", recs[0].ComplianceScore)
		}
	})
	t.Run("ErrSetScore", func(t *testing.T) {
		for _, tc := range []struct {
			typ   string
			score int
		}{{"PSP", -1}, {"PSP", 101}, {"", 50}} {
			if err := db.SetComplianceScore(ctx, tc.typ, tc.score); err == nil {
				t.Errorf("SetComplianceScore(%q, %d) succeeded", tc.typ, tc.score)
			}
		}
	})
}

// TestImpactTracking_WindowSlides checks that the rule's window follows the
// clock even when no circular changes.
func TestImpactTracking_WindowSlides(t *testing.T) {
	ctx := context.Background()
	now := storetest.Now
	db, err := Open(ctx, ":memory:", WithClock(func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SyncCatalog(ctx, storetest.Catalog()); err != nil {
		t.Fatal(err)
	}
	now = now.AddDate(2, 0, 0) // every fixture circular is now over a year old
	stats, err := db.SyncCatalog(ctx, storetest.Catalog())
	if err != nil {
		t.Fatal(err)
	}
	if stats.Scores != 3 {
		t.Errorf("scores changed = %d, want 3", stats.Scores)
	}
	recs, _ := db.ImpactTracking(ctx)
	for _, r := range recs {
		if r.ComplianceScore != 100 || !r.UpdatedAt.Equal(now) {
			t.Errorf("%s two years on: score %d updated %v; want 100 at %v", r.EntityType, r.ComplianceScore, r.UpdatedAt, now)
		}
	}
}
