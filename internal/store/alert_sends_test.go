package store

import (
	"sync"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/store/storetest"
)

// TestAlerts_Sends: e-mails claimed once by concurrent senders, failures
// given back, resends.
func TestAlerts_Sends(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, u, a, added := matchedAlert(t, open)
		t.Run("ClaimOnce", func(t *testing.T) {
			var mu sync.Mutex
			var ids []string
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					id, cs, err := db.ClaimSend(ctx, a.ID, u.Email, alerts.Immediately, "alert-{send}@example.com")
					if err != nil {
						t.Error(err)
					}
					if id != "" {
						mu.Lock()
						ids = append(ids, id)
						mu.Unlock()
						if len(cs) != 1 || cs[0].ID != added.ID {
							t.Errorf("claimed circulars %v", slugsOf(cs))
						}
					}
				})
			}
			wg.Wait()
			if len(ids) != 1 {
				t.Fatalf("%d senders claimed the e-mail", len(ids))
			}
			// Failed: given back.
			if err := db.FinishSend(ctx, ids[0], u.Email, "550 no such mailbox", true); err != nil {
				t.Fatal(err)
			}
			id, cs, err := db.ClaimSend(ctx, a.ID, u.Email, alerts.Immediately, "m")
			if err != nil || id == "" || len(cs) != 1 {
				t.Fatalf("a failed e-mail's matches are not given back: %q %v", id, err)
			}
			if err := db.FinishSend(ctx, id, u.Email, "", false); err != nil {
				t.Fatal(err)
			}
			if id, _, _ := db.ClaimSend(ctx, a.ID, u.Email, alerts.Immediately, "m"); id != "" {
				t.Error("a sent e-mail's matches claimed again")
			}
			got, _ := db.Alert(ctx, a.ID)
			if got.LastSentAt == nil || !got.LastSentAt.Equal(storetest.Now) {
				t.Errorf("last sent %v", got.LastSentAt)
			}
			w, _ := db.Waiting(ctx, storetest.Now.Truncate(24*time.Hour))
			if len(w) != 0 {
				t.Errorf("still waiting: %+v", w)
			}
			feed, err := db.AlertCirculars(ctx, a.ID, 10)
			if err != nil || len(feed) != 1 || feed[0].ID != added.ID {
				t.Errorf("the alert's feed: %v, %v", slugsOf(feed), err)
			}
		})
		t.Run("Resend", func(t *testing.T) {
			n, err := db.ResendAlerts(ctx, storetest.Now.Add(-time.Hour), storetest.Now.Add(time.Hour))
			if err != nil || n != 1 {
				t.Fatalf("resend: %d, %v", n, err)
			}
			w, _ := db.Waiting(ctx, storetest.Now.Truncate(24*time.Hour))
			if len(w) != 1 || w[0].SentSince != 1 {
				t.Errorf("after resend: %+v", w)
			}
		})
	})
}
