package store

import (
	"testing"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
)

// An alert's language (migrations 00049, 00050): a user's alerts read
// their user's, and follow it when the user changes it; an anonymous
// subscription reads the language it was made in.
func TestDB_AlertLanguage(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		nu := newUser("ravi", "ravi@example.com")
		nu.Language = "hi"
		ravi := mustCreate(t, db, nu)
		saved, err := db.CreateAlert(ctx, alerts.Alert{UserID: ravi.ID, Name: "UPI", Query: "upi", Frequency: alerts.Daily, Enabled: true,
			Language: "en"}) // a user's alert: the user's language, whatever this says
		if err != nil {
			t.Fatal(err)
		}
		hi, err := db.CreateAlert(ctx, alerts.Alert{Email: "reader@example.com", Name: "UPI", Query: "upi", Frequency: alerts.Daily, Enabled: true, Language: "hi"})
		if err != nil {
			t.Fatal(err)
		}
		en, err := db.CreateAlert(ctx, alerts.Alert{Email: "other@example.com", Name: "UPI", Query: "upi", Frequency: alerts.Daily, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			a    alerts.Alert
			want string
		}{{saved, "hi"}, {hi, "hi"}, {en, "en"}} {
			if tc.a.Language != tc.want {
				t.Errorf("alert to %s: language %q, want %q", tc.a.Email, tc.a.Language, tc.want)
			}
		}
		// The user reads English from now on: so do their alerts.
		if _, err := db.UpdateProfile(ctx, ravi.ID, auth.Profile{FirstName: "Ravi", LastName: "K", Email: "ravi@example.com", Language: "en"}); err != nil {
			t.Fatal(err)
		}
		if a, err := db.Alert(ctx, saved.ID); err != nil || a.Language != "en" {
			t.Errorf("after the profile's change: %q, %v; want en", a.Language, err)
		}
		unconfirmed, err := db.Unconfirmed(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, a := range unconfirmed {
			got[a.Email] = a.Language
		}
		if got["reader@example.com"] != "hi" || got["other@example.com"] != "en" {
			t.Errorf("the confirmations' languages: %v", got)
		}
	})
}
