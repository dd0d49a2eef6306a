package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/register"
	"regpulse/internal/store/storetest"
)

func TestObligationStatuses(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		f := newRegisterFixture(t, open)
		it, err := f.db.SetObligationStatus(ctx, f.asha.ID, f.cyber.ID, pspTypes, register.StatusInProgress, "Asked IT.")
		if err != nil {
			t.Fatal(err)
		}
		if it.Status != register.StatusInProgress || it.Note != "Asked IT." || it.StatusUpdatedAt == nil || !it.StatusUpdatedAt.Equal(storetest.Now) {
			t.Errorf("SetObligationStatus = %+v", it)
		}
		if _, err := f.db.SetObligationStatus(ctx, f.asha.ID, f.cyber.ID, pspTypes, register.StatusDone, ""); err != nil {
			t.Fatal(err)
		}
		hist, err := f.db.ObligationHistory(ctx, f.asha.ID, f.cyber.ID, pspTypes)
		if err != nil {
			t.Fatal(err)
		}
		wantHist := []register.Change{{Status: "in-progress", Note: "Asked IT.", ChangedAt: storetest.Now}, {Status: "done", ChangedAt: storetest.Now}}
		if diff := cmp.Diff(wantHist, hist); diff != "" {
			t.Errorf("ObligationHistory (-want +got):\n%s", diff)
		}
		// Another user has no history of asha's changes.
		if h, err := f.db.ObligationHistory(ctx, f.ravi.ID, f.cyber.ID, pspTypes); err != nil || len(h) != 0 {
			t.Errorf("ravi's history = %v, %v", h, err)
		}

		for _, tc := range f.outside() {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := f.db.SetObligationStatus(ctx, f.asha.ID, tc.id, pspTypes, register.StatusDone, ""); !errors.Is(err, ErrNotFound) {
					t.Errorf("SetObligationStatus: err = %v, want ErrNotFound", err)
				}
				if _, err := f.db.ObligationHistory(ctx, f.asha.ID, tc.id, pspTypes); !errors.Is(err, ErrNotFound) {
					t.Errorf("ObligationHistory: err = %v, want ErrNotFound", err)
				}
			})
		}
		if _, err := f.db.SetObligationStatus(ctx, f.asha.ID, f.tell.ID, pspTypes, "finished", ""); err == nil {
			t.Error("an unknown status was stored")
		}
		if h, _ := f.db.ObligationHistory(ctx, f.asha.ID, f.tell.ID, pspTypes); len(h) != 0 {
			t.Errorf("a refused change was recorded: %v", h)
		}

		// Statuses go with their user.
		if err := f.db.DeleteUser(ctx, f.asha.ID); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := f.db.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM obligation_status_history WHERE user_id = ?", f.asha.ID).Scan(&n); err != nil || n != 0 {
			t.Errorf("a deleted user's history stays: %d, %v", n, err)
		}
	})
}
