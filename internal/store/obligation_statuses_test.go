package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
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

// A register confirms at once what was in force before it began tracking,
// once: ravi's cyber obligation (in force for him), not asha's (overdue
// for her), nor one he marked not applicable.
func TestConfirmInForce(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		f := newRegisterFixture(t, open)
		if n, err := f.db.ConfirmInForce(ctx, f.asha.ID, pspTypes, "ok"); err != nil || n != 0 {
			t.Fatalf("asha's confirmation = %d, %v; want 0 (hers is overdue, not in force)", n, err)
		}
		n, err := f.db.ConfirmInForce(ctx, f.ravi.ID, pspTypes, "Checked with the CISO.")
		if err != nil || n != 1 {
			t.Fatalf("ravi's confirmation = %d, %v; want 1", n, err)
		}
		it, err := f.db.RegisterItem(ctx, f.ravi.ID, f.cyber.ID, pspTypes)
		if err != nil {
			t.Fatal(err)
		}
		if it.Status != register.StatusDone || it.Note != "Checked with the CISO." || it.DueGroup != register.GroupInForce {
			t.Errorf("after confirming: %s, %q, %s", it.Status, it.Note, it.DueGroup)
		}
		hist, err := f.db.ObligationHistory(ctx, f.ravi.ID, f.cyber.ID, pspTypes)
		if err != nil || len(hist) != 1 || hist[0].Status != register.StatusDone {
			t.Errorf("history = %+v, %v", hist, err)
		}
		// Once is enough.
		if n, err := f.db.ConfirmInForce(ctx, f.ravi.ID, pspTypes, "again"); err != nil || n != 0 {
			t.Errorf("a second confirmation = %d, %v; want 0", n, err)
		}
		// Another of his own choices stands: not applicable stays.
		if _, err := f.db.SetObligationStatus(ctx, f.ravi.ID, f.cyber.ID, pspTypes, register.StatusNotApplicable, "We hold no card data."); err != nil {
			t.Fatal(err)
		}
		if n, err := f.db.ConfirmInForce(ctx, f.ravi.ID, pspTypes, "x"); err != nil || n != 0 {
			t.Errorf("confirming over not applicable = %d, %v; want 0", n, err)
		}
		// An account the store does not have.
		if _, err := f.db.ConfirmInForce(ctx, "no-such-user", pspTypes, "x"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("unknown user: %v, want catalog.ErrNotFound", err)
		}
	})
}
