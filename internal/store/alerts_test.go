package store

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
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
			Business:    []string{"PSP"}, UserID: asha.ID, Email: "asha@example.com", Confirmed: true, Language: "en"}
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
