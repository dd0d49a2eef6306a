package store

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func newAlertUser(t *testing.T, db *DB, name string) auth.User {
	t.Helper()
	u, err := db.CreateUser(t.Context(), auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "x", FirstName: "A", LastName: "B"})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestAlerts_UserAlerts(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		list, err := db.UserAlerts(ctx, asha.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("a new user's alerts: %+v, %v", list, err)
		}
		pref := list[0]
		if pref.Kind != alerts.KindPreferences || !pref.Enabled || pref.Frequency != alerts.Daily || pref.FeedToken == "" || pref.Email != "asha@example.com" {
			t.Errorf("preferences alert %+v", pref)
		}
		if _, err := db.SavePreferences(ctx, asha.ID, auth.Choices{CircularSources: []string{"RBI"}, ImpactLevels: []string{"high"},
			Categories: []string{}, EntityTypes: []string{"PSP"}, EmailNotifications: true}); err != nil {
			t.Fatal(err)
		}
		pref, err = db.UserAlert(ctx, asha.ID, pref.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]string{{"RBI"}, {"high"}, {"PSP"}}, [][]string{pref.Sources, pref.ImpactLevels, pref.EntityTypes}); diff != "" {
			t.Errorf("the preferences alert follows the preferences (-want +got):\n%s", diff)
		}
		saved, err := db.CreateAlert(ctx, alerts.Alert{UserID: asha.ID, Name: "UPI fraud", Query: "upi fraud",
			Filters: alerts.Filters{Sources: []string{"RBI"}, DocumentTypes: []string{"circular"}}, Frequency: alerts.Immediately, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		want := alerts.Alert{ID: saved.ID, Kind: alerts.KindSearch, Name: "UPI fraud", Query: "upi fraud",
			Filters:     alerts.Filters{Sources: []string{"RBI"}, Categories: []string{}, DocumentTypes: []string{"circular"}, ImpactLevels: []string{}},
			EntityTypes: []string{},
			Frequency:   alerts.Immediately, Enabled: true, FeedToken: saved.FeedToken, CreatedAt: storetest.Now,
			Description: `An e-mail as soon as a new circular matching "upi fraud" from RBI of type Circular arrives.`,
			Business:    []string{"PSP"}, UserID: asha.ID, Email: "asha@example.com", Confirmed: true}
		if diff := cmp.Diff(want, saved); diff != "" {
			t.Errorf("created (-want +got):\n%s", diff)
		}
		t.Run("ErrNoAlert", func(t *testing.T) {
			if _, err := db.UserAlert(ctx, ravi.ID, saved.ID); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("another user's alert: %v", err)
			}
			if _, err := db.UpdateAlert(ctx, ravi.ID, saved.ID, saved); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("updating another user's alert: %v", err)
			}
			if err := db.DeleteAlert(ctx, ravi.ID, saved.ID); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("deleting another user's alert: %v", err)
			}
			if _, err := db.RenewFeedToken(ctx, ravi.ID, saved.ID); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("renewing another user's feed: %v", err)
			}
		})
		t.Run("Update", func(t *testing.T) {
			ch := saved
			ch.Name, ch.Frequency, ch.Enabled, ch.ImpactLevels = "Renamed", alerts.Weekly, false, []string{"high"}
			got, err := db.UpdateAlert(ctx, asha.ID, saved.ID, ch)
			if err != nil || got.Name != "Renamed" || got.Frequency != alerts.Weekly || got.Enabled || !slices.Equal(got.ImpactLevels, []string{"high"}) {
				t.Errorf("updated: %+v, %v", got, err)
			}
			// The preferences alert: frequency and on/off, on/off being the preferences'.
			p := pref
			p.Frequency, p.Enabled, p.Name = alerts.Immediately, false, "ignored"
			got, err = db.UpdateAlert(ctx, asha.ID, pref.ID, p)
			if err != nil || got.Frequency != alerts.Immediately || got.Enabled || got.Name != "My preferences" {
				t.Errorf("preferences alert updated: %+v, %v", got, err)
			}
			prefs, _ := db.Preferences(ctx, asha.ID)
			if prefs.EmailNotifications {
				t.Error("turning the preferences alert off left e-mail notifications on")
			}
		})
		t.Run("FeedToken", func(t *testing.T) {
			got, err := db.RenewFeedToken(ctx, asha.ID, saved.ID)
			if err != nil || got.FeedToken == saved.FeedToken {
				t.Fatalf("renewed: %+v, %v", got, err)
			}
			if _, err := db.AlertByFeedToken(ctx, saved.FeedToken); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("the old token still works: %v", err)
			}
			if a, err := db.AlertByFeedToken(ctx, got.FeedToken); err != nil || a.ID != saved.ID {
				t.Errorf("the new token: %+v, %v", a, err)
			}
		})
		t.Run("ErrPreferencesAlert", func(t *testing.T) {
			if err := db.DeleteAlert(ctx, asha.ID, pref.ID); !errors.Is(err, alerts.ErrPreferencesAlert) {
				t.Errorf("deleting the preferences alert: %v", err)
			}
		})
		t.Run("Delete", func(t *testing.T) {
			if err := db.DeleteAlert(ctx, asha.ID, saved.ID); err != nil {
				t.Fatal(err)
			}
			if list, _ := db.UserAlerts(ctx, asha.ID); len(list) != 1 {
				t.Errorf("after delete: %d alerts", len(list))
			}
		})
		t.Run("Anonymous", func(t *testing.T) {
			sub, err := db.CreateAlert(ctx, alerts.Alert{Email: "Reader@Example.com", Name: "UPI", Query: "upi", Frequency: alerts.Daily, Enabled: true})
			if err != nil || sub.Confirmed || sub.UserID != "" || sub.Email != "Reader@Example.com" {
				t.Fatalf("anonymous: %+v, %v", sub, err)
			}
			active, _ := db.ActiveAlerts(ctx)
			if slices.ContainsFunc(active, func(a alerts.Alert) bool { return a.ID == sub.ID }) {
				t.Error("an unconfirmed subscription is active")
			}
			un, _ := db.Unconfirmed(ctx)
			if len(un) != 1 || un[0].ID != sub.ID {
				t.Errorf("unconfirmed: %+v", un)
			}
			if ok, err := db.MarkConfirmationSent(ctx, sub.ID); !ok || err != nil {
				t.Errorf("mark: %v %v", ok, err)
			}
			if ok, _ := db.MarkConfirmationSent(ctx, sub.ID); ok {
				t.Error("marked twice")
			}
			if got, err := db.ConfirmAlert(ctx, sub.ID); err != nil || !got.Confirmed {
				t.Errorf("confirmed: %+v, %v", got, err)
			}
			if got, err := db.StopAlert(ctx, sub.ID); err != nil || got.Enabled {
				t.Errorf("stopped: %+v, %v", got, err)
			}
			if _, err := db.StopAlert(ctx, "nope"); !errors.Is(err, alerts.ErrNoAlert) {
				t.Errorf("stopping nothing: %v", err)
			}
		})
	})
}

// TestAlerts_Deliveries: arrivals from a sync, matches recorded once,
// e-mails claimed once by concurrent senders, failures given back,
// bouncing addresses, resends.
func TestAlerts_Deliveries(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := storetest.Catalog()
		db := openSynced(t, open, cat)
		if arr, err := db.Arrivals(ctx, 100); err != nil || len(arr) != len(cat.Circulars) {
			t.Fatalf("a first sync's arrivals: %d, %v", len(arr), err)
		}
		// Nothing arrives again: mark them matched.
		arr, _ := db.Arrivals(ctx, 100)
		if err := db.RecordMatches(ctx, arr, nil); err != nil {
			t.Fatal(err)
		}
		u := newAlertUser(t, db, "asha")
		a, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "UPI", Query: "upi", Frequency: alerts.Immediately, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		added := storetest.Circular("rbi-2025-06-29-upi-new", "RBI", "UPI", "2025-06-29", "high")
		cat.Circulars = append([]catalog.Circular{added}, cat.Circulars...)
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		arr, err = db.Arrivals(ctx, 100)
		if err != nil || len(arr) != 1 || arr[0].Circular.ID != added.ID || !arr[0].At.Equal(storetest.Now) {
			t.Fatalf("arrivals after adding one: %+v, %v", arr, err)
		}
		m := []alerts.Match{{AlertID: a.ID, CircularID: added.ID}}
		for range 2 { // a rerun records nothing twice
			if err := db.RecordMatches(ctx, arr, m); err != nil {
				t.Fatal(err)
			}
		}
		if again, _ := db.Arrivals(ctx, 100); len(again) != 0 {
			t.Errorf("matched arrivals come back: %d", len(again))
		}
		w, err := db.Waiting(ctx, storetest.Now.Truncate(24*time.Hour))
		if err != nil || len(w) != 1 || w[0].Alert.ID != a.ID || w[0].SentSince != 0 {
			t.Fatalf("waiting: %+v, %v", w, err)
		}
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
		t.Run("Bouncing", func(t *testing.T) {
			for i := range alerts.BounceAfter {
				id, _, err := db.ClaimSend(ctx, a.ID, u.Email, alerts.Immediately, "m")
				if err != nil || id == "" {
					t.Fatalf("claim %d: %q %v", i, id, err)
				}
				if err := db.FinishSend(ctx, id, u.Email, "550 no such mailbox", true); err != nil {
					t.Fatal(err)
				}
			}
			b, err := db.Bouncing(ctx)
			if err != nil || len(b) != 1 || !b[0].Bouncing || b[0].Failures != alerts.BounceAfter {
				// the sent e-mail after ClaimOnce's refusal cleared the count
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
