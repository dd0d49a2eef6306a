package store

import (
	"slices"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/store/storetest"
)

// TestAlerts_Bouncing: an address refused permanently BounceAfter times
// in a row is bouncing, and its alerts are not active (an e-mail sent in
// between starts the count again); the stats count it.
func TestAlerts_Bouncing(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, u, a, _ := matchedAlert(t, open)
		send := func(failure string) {
			t.Helper()
			id, _, err := db.ClaimSend(ctx, a.ID, u.Email, alerts.Immediately, "m")
			if err != nil || id == "" {
				t.Fatalf("claim: %q %v", id, err)
			}
			if err := db.FinishSend(ctx, id, u.Email, failure, failure != ""); err != nil {
				t.Fatal(err)
			}
			if failure == "" { // a match for the next claims
				if _, err := db.ResendAlerts(ctx, storetest.Now.Add(-time.Hour), storetest.Now.Add(time.Hour)); err != nil {
					t.Fatal(err)
				}
			}
		}
		send("550 no such mailbox")
		send("")
		for range alerts.BounceAfter {
			send("550 no such mailbox")
		}
		b, err := db.Bouncing(ctx)
		if err != nil || len(b) != 1 || !b[0].Bouncing || b[0].Failures != alerts.BounceAfter {
			t.Errorf("bouncing: %+v, %v", b, err)
		}
		if active, _ := db.ActiveAlerts(ctx); slices.ContainsFunc(active, func(x alerts.Alert) bool { return x.ID == a.ID }) {
			t.Error("an alert to a bouncing address is active")
		}
		st, err := db.AlertStats(ctx)
		if err != nil || st.Waiting != 1 || st.Sends["failed"] != alerts.BounceAfter+1 || st.Sends["sent"] != 1 || st.Alerts["search/immediately (off)"] != 1 {
			t.Errorf("stats: %+v, %v", st, err)
		}
	})
}

func TestAlerts_RunLock(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		steps := []struct {
			holder string
			want   bool
		}{{"a", true}, {"b", false}, {"a", true}}
		for _, st := range steps {
			if ok, err := db.ClaimAlertRun(ctx, "daily-2025-06-30", st.holder, time.Hour); err != nil || ok != st.want {
				t.Errorf("claim by %s: %v %v, want %v", st.holder, ok, err, st.want)
			}
		}
		if err := db.FinishAlertRun(ctx, "daily-2025-06-30"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := db.ClaimAlertRun(ctx, "daily-2025-06-30", "a", time.Hour); ok {
			t.Error("a finished run claimed again")
		}
		// A released lease goes to the next holder at once, and again.
		if ok, _ := db.ClaimAlertRun(ctx, "immediately", "a", time.Hour); !ok {
			t.Fatal("claim immediately")
		}
		if ok, _ := db.ClaimAlertRun(ctx, "immediately", "b", time.Hour); ok {
			t.Error("a held mutex taken")
		}
		if err := db.ReleaseAlertRun(ctx, "immediately", "a"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := db.ClaimAlertRun(ctx, "immediately", "b", time.Hour); !ok {
			t.Error("a released mutex not taken")
		}
		// A lease that ran out goes to another holder.
		if ok, _ := db.ClaimAlertRun(ctx, "daily-2025-07-01", "a", -time.Minute); !ok {
			t.Fatal("first claim")
		}
		if ok, _ := db.ClaimAlertRun(ctx, "daily-2025-07-01", "b", time.Hour); !ok {
			t.Error("an expired lease was not taken over")
		}
	})
}
