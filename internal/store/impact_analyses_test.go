package store

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestPutImpactAnalysis(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		id := idOf(storetest.SlugUPILite)
		analysis := func(entityType, level string, at time.Time, reasons ...string) catalog.ImpactAnalysis {
			return catalog.ImpactAnalysis{CircularID: id, EntityType: entityType, ImpactLevel: level, Reasons: reasons,
				Provider: "local", Model: "rules", GeneratedAt: at}
		}
		if got, err := db.ImpactAnalyses(ctx, id); err != nil || len(got) != 0 {
			t.Errorf("ImpactAnalyses before any = %v, %v; want none", got, err)
		}
		issuer := analysis("Issuer", "low", storetest.Now, "Nothing for issuers.")
		pspFirst := analysis("PSP", "medium", storetest.Now, "PSPs must act.")
		pspAgain := analysis("PSP", "high", storetest.Now.Add(time.Hour), "PSPs must act.", "By 1 April 2026.")
		for _, a := range []catalog.ImpactAnalysis{issuer, pspFirst, pspAgain} {
			if err := db.PutImpactAnalysis(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		// One per entity type, the latest, in the order of catalog.EntityTypes.
		got, err := db.ImpactAnalyses(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]catalog.ImpactAnalysis{pspAgain, issuer}, got); diff != "" {
			t.Errorf("ImpactAnalyses (-want +got):\n%s", diff)
		}
		t.Run("ErrNotFound", func(t *testing.T) {
			a := pspFirst
			a.CircularID = "no-such-id"
			if err := db.PutImpactAnalysis(ctx, a); !errors.Is(err, ErrNotFound) {
				t.Errorf("err = %v, want ErrNotFound", err)
			}
		})
		t.Run("BadLevelRefused", func(t *testing.T) {
			if err := db.PutImpactAnalysis(ctx, analysis("PSP", "severe", storetest.Now)); err == nil {
				t.Error("an impact level other than high, medium or low was stored")
			}
		})
	})
}
