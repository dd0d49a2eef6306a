package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/store/storetest"
)

// TestObligations_Extracted: extracted obligations are stored apart,
// shown while the circular has none written, never replace written ones,
// outlive a sync, and once accepted are never replaced.
func TestObligations_Extracted(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, cat, cyber := openWithExtracted(t, open, "2025-08-01")
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		if got, _ := db.CircularObligations(ctx, lite.ID); len(got) != 2 || got[0].Origin != catalog.OriginEditor {
			t.Errorf("an extracted obligation shows beside written ones: %v", obligationIDs(got))
		}
		if got, _ := db.CircularObligations(ctx, cyber.CircularID); !cmp.Equal(got, []catalog.Obligation{cyber}) {
			t.Errorf("extracted: %+v", got)
		}
		states, err := db.ExtractedStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]obligations.ExtractedState{cyber.CircularID: {InputHash: "h1"}, lite.ID: {InputHash: "h2"}}, states); diff != "" {
			t.Errorf("ExtractedStates (-want +got):\n%s", diff)
		}

		// A sync (content edited) leaves extracted ones alone.
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.CircularObligations(ctx, cyber.CircularID); len(got) != 1 {
			t.Errorf("sync removed extracted obligations: %v", got)
		}

		t.Run("Accept", func(t *testing.T) {
			n, err := db.AcceptObligations(ctx, storetest.SlugCyber)
			if err != nil || n != 1 {
				t.Fatalf("AcceptObligations = %d, %v", n, err)
			}
			if got, _ := db.CircularObligations(ctx, cyber.CircularID); len(got) != 1 || !got[0].Accepted || got[0].Origin != catalog.OriginExtracted {
				t.Errorf("accepted: %+v", got)
			}
			if err := db.PutExtractedObligations(ctx, cyber.CircularID, "h3", nil); !errors.Is(err, ErrAccepted) {
				t.Errorf("replacing accepted ones: err = %v, want ErrAccepted", err)
			}
			if _, err := db.AcceptObligations(ctx, "no-such-circular"); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown circular: err = %v", err)
			}
		})
	})
}
