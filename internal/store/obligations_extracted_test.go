package store

import (
	"errors"
	"slices"
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

// TestObligations_ExtractedStamps: a circular's stamp changes at every
// write of its extracted obligations (the same ones written again
// included), at their acceptance, and when written ones come to hide
// them or go; the dated ones are those the calendar lists.
func TestObligations_ExtractedStamps(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, cat, cyber := openWithExtracted(t, open, "2025-08-01")
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		stamps := func() map[string]string {
			t.Helper()
			s, err := db.ExtractedStamps(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		first := stamps()
		if len(first) != 2 || first[cyber.CircularID] == "" || first[lite.ID] == "" {
			t.Fatalf("ExtractedStamps = %v, want cyber's and UPI Lite's", first)
		}
		seen := map[string]string{first[cyber.CircularID]: "the first write"}
		changed := func(what string) {
			t.Helper()
			s := stamps()[cyber.CircularID]
			if by, ok := seen[s]; ok {
				t.Errorf("after %s the stamp is %q, as after %s", what, s, by)
			}
			seen[s] = what
		}
		if err := db.PutExtractedObligations(ctx, cyber.CircularID, "h1", []catalog.Obligation{cyber}); err != nil {
			t.Fatal(err)
		}
		changed("the same obligations written again")
		if n, err := db.AcceptObligations(ctx, cyber.CircularID); err != nil || n != 1 {
			t.Fatalf("AcceptObligations = %d, %v", n, err)
		}
		changed("their acceptance")
		if n, err := db.AcceptObligations(ctx, cyber.CircularID); err != nil || n != 0 {
			t.Fatalf("AcceptObligations again = %d, %v", n, err)
		}
		if s := stamps()[cyber.CircularID]; seen[s] != "their acceptance" {
			t.Errorf("accepting none changed the stamp to %q", s)
		}

		// UPI Lite's written obligations hide its extracted one; once the
		// content has none, the sync shows it, and its stamp says so.
		for i := range cat.Circulars {
			if cat.Circulars[i].ID == lite.ID {
				cat.Circulars[i].Obligations = nil
			}
		}
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if s := stamps()[lite.ID]; s == first[lite.ID] {
			t.Errorf("UPI Lite's extracted obligation shown now, and its stamp is as when hidden: %q", s)
		}
		if got, err := db.ExtractedObligationsOf(ctx, []string{lite.ID}); err != nil || len(got[lite.ID]) != 1 {
			t.Errorf("ExtractedObligationsOf(UPI Lite) = %v, %v; want its one", got, err)
		}

		// cyber's circular gone from content: its extraction stays, not
		// shown; back, it shows as before, and its stamp is as before
		before := stamps()[cyber.CircularID]
		without := *cat
		without.Circulars = slices.DeleteFunc(slices.Clone(cat.Circulars), func(c catalog.Circular) bool { return c.ID == cyber.CircularID })
		if _, err := db.SyncCatalog(ctx, &without); err != nil {
			t.Fatal(err)
		}
		changed("its circular's removal")
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if s := stamps()[cyber.CircularID]; s != before {
			t.Errorf("its circular back, the stamp is %q; want %q, as before its removal", s, before)
		}

		// the calendar's: binding, due on or after the day
		for _, tc := range []struct {
			from string
			want int
		}{{"2025-07-01", 1}, {"2025-08-01", 1}, {"2025-08-02", 0}} {
			got, err := db.DatedExtractedObligations(ctx, storetest.Date(tc.from))
			if err != nil || len(got[cyber.CircularID]) != tc.want || len(got) != tc.want {
				t.Errorf("DatedExtractedObligations(%s) = %v, %v; want %d of cyber's", tc.from, got, err, tc.want)
			}
		}
	})
}
