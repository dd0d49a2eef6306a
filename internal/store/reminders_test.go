package store

import (
	"sync"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// kindsOf is each reminder's subject id and kind.
func kindsOf(rs []teammail.Reminder) map[string]string {
	out := map[string]string{}
	for _, r := range rs {
		out[r.ID] = r.Kind
	}
	return out
}

// TestReminders: a member's open decisions due within the window or
// overdue are claimed once per kind and due date, never again after an
// e-mail took them (however many claim at once), given back by a
// failed e-mail, reminded again as overdue when the day passes or when
// the due date moves; closed, undated, later ones, a viewer's and an
// owner with reminders off get none.
func TestReminders(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi, vik := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi"), newAlertUser(t, db, "vik")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		join(t, db, by, vik.Email, vik.ID, teams.RoleMember, nil)
		today := catalog.Date{Time: catalog.Day(now)}
		day := func(n int) *catalog.Date { return &catalog.Date{Time: today.AddDate(0, 0, n)} }
		put := func(id, owner string, due *catalog.Date, status string) decisions.Decision {
			t.Helper()
			d, err := db.PutDecision(ctx, by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectCircular, ID: id},
				Applicability: decisions.Applicable, OwnerID: catalog.OptString(owner), DueDate: due, Status: status})
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		put("soon", ravi.ID, day(3), decisions.StatusNew)
		put("edge", ravi.ID, day(teammail.Horizon), decisions.StatusAssessing)
		put("late", ravi.ID, day(-2), decisions.StatusActionPlanned)
		put("later", ravi.ID, day(teammail.Horizon+1), decisions.StatusNew)
		put("done", ravi.ID, day(-1), decisions.StatusDone)
		put("undated", ravi.ID, nil, decisions.StatusNew)
		put("ashas", asha.ID, day(1), decisions.StatusNew)
		put("viks", vik.ID, day(1), decisions.StatusNew)
		// Asha turned reminders off; Vik is a viewer now.
		c := auth.DefaultChoices()
		c.ReminderEmails = false
		if p, err := db.SavePreferences(ctx, asha.ID, c); err != nil || p.ReminderEmails || !p.MentionEmails {
			t.Fatalf("preferences: %+v, %v", p, err)
		}
		if _, err := db.SetMemberRole(ctx, by, vik.ID, teams.RoleViewer, nil); err != nil {
			t.Fatal(err)
		}

		recipients := func(on catalog.Date) []string {
			t.Helper()
			rs, err := db.Recipients(ctx, on)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range rs {
				ids = append(ids, r.UserID)
			}
			return ids
		}
		if got := recipients(today); len(got) != 1 || got[0] != ravi.ID {
			t.Fatalf("recipients: %v, want only ravi", got)
		}
		// Four senders at once: one takes the reminders.
		var wg sync.WaitGroup
		var mu sync.Mutex
		var claimed []string
		var items []teammail.Reminder
		for range 4 {
			wg.Go(func() {
				id, rs, err := db.ClaimReminders(ctx, ravi.ID, ravi.Email, today, "reminder-{send}@regpulse.example")
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if id != "" {
					claimed, items = append(claimed, id), rs
				}
			})
		}
		wg.Wait()
		want := map[string]string{"late": teammail.KindOverdue, "soon": teammail.KindDueSoon, "edge": teammail.KindDueSoon}
		if len(claimed) != 1 || len(kindsOf(items)) != 3 || kindsOf(items)["late"] != want["late"] || kindsOf(items)["soon"] != want["soon"] ||
			kindsOf(items)["edge"] != want["edge"] {
			t.Fatalf("claims: %v, %+v; want one of %v", claimed, kindsOf(items), want)
		}
		if items[0].ID != "late" || items[0].OrganisationName != "Asha Payments" || items[0].DueDate.String() != day(-2).String() {
			t.Errorf("first reminder: %+v, want the overdue one with its organisation", items[0])
		}
		if got := recipients(today); len(got) != 0 {
			t.Errorf("recipients while the e-mail is sending: %v", got)
		}
		// A failed e-mail gives them back; a sent one keeps them.
		if err := db.FinishReminders(ctx, claimed[0], ravi.Email, "421 try later", false); err != nil {
			t.Fatal(err)
		}
		if got := recipients(today); len(got) != 1 {
			t.Errorf("recipients after a failure: %v, want ravi again", got)
		}
		id, rs, err := db.ClaimReminders(ctx, ravi.ID, ravi.Email, today, "m-{send}")
		if err != nil || id == "" || len(rs) != 3 {
			t.Fatalf("claim after a failure: %q %+v %v", id, rs, err)
		}
		if err := db.FinishReminders(ctx, id, ravi.Email, "", false); err != nil {
			t.Fatal(err)
		}
		if id, rs, err := db.ClaimReminders(ctx, ravi.ID, ravi.Email, today, "m-{send}"); err != nil || id != "" || len(rs) != 0 {
			t.Errorf("a second claim the same day: %q %+v %v", id, rs, err)
		}
		if got := recipients(today); len(got) != 0 {
			t.Errorf("recipients after the e-mail: %v", got)
		}
		// Five days on, "soon" and "edge"... "soon" is overdue (once more,
		// as overdue); "late" was reminded overdue already; "later" is due soon.
		on := catalog.Date{Time: today.AddDate(0, 0, 5)}
		id, rs, err = db.ClaimReminders(ctx, ravi.ID, ravi.Email, on, "m-{send}")
		if got := kindsOf(rs); err != nil || id == "" || len(got) != 2 || got["soon"] != teammail.KindOverdue || got["later"] != teammail.KindDueSoon {
			t.Fatalf("five days on: %+v, %v", got, err)
		}
		if err := db.FinishReminders(ctx, id, ravi.Email, "", false); err != nil {
			t.Fatal(err)
		}
		// A due date moved is reminded of again.
		d, err := db.Decision(ctx, org.ID, decisions.Subject{Type: decisions.SubjectCircular, ID: "late"})
		if err != nil {
			t.Fatal(err)
		}
		d.DueDate = &on
		if _, err := db.PutDecision(ctx, by, d); err != nil {
			t.Fatal(err)
		}
		id, rs, err = db.ClaimReminders(ctx, ravi.ID, ravi.Email, on, "m-{send}")
		if got := kindsOf(rs); err != nil || id == "" || len(got) != 1 || got["late"] != teammail.KindDueSoon {
			t.Errorf("a moved due date: %+v, %v", got, err)
		}
		// A permanent refusal counts against the address, as the alerts'.
		if err := db.FinishReminders(ctx, id, ravi.Email, "550 no such user", true); err != nil {
			t.Fatal(err)
		}
		if list, err := db.Bouncing(ctx); err != nil || len(list) != 1 || list[0].Failures != 1 {
			t.Errorf("refusals: %+v, %v", list, err)
		}
		// Sent: today's and five days on; failed: the first claim and the
		// refusal.
		if st, err := db.AlertStats(ctx); err != nil || st.ReminderSends["sent"] != 2 || st.ReminderSends["failed"] != 2 || st.ReminderSends["sending"] != 0 {
			t.Errorf("stats: %+v, %v", st.ReminderSends, err)
		}
	})
}
