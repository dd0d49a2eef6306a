package store

import (
	"sync"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// TestAlerts_Reminders: consultations closing are found by deadline; a
// reminder is claimed once by concurrent senders, again only after it
// failed, and never after it was sent.
func TestAlerts_Reminders(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := storetest.Catalog()
		day := func(s string) *catalog.Date {
			d, _ := time.Parse(time.DateOnly, s)
			return &catalog.Date{Time: d}
		}
		paper := storetest.Circular("rbi-2025-06-20-paper", "RBI", "UPI", "2025-06-20", "low")
		paper.DocumentType, paper.CommentsDue = "consultation-paper", day("2025-07-10")
		later := storetest.Circular("rbi-2025-06-21-draft", "RBI", "UPI", "2025-06-21", "low")
		later.DocumentType, later.CommentsDue = "draft", day("2025-07-30")
		final := storetest.Circular("rbi-2025-06-22-final", "RBI", "UPI", "2025-06-22", "low")
		final.FinalOf, later.FinalisedBy = catalog.OptString(later.Slug), catalog.TextList{final.Slug}
		cat.Circulars = append([]catalog.Circular{final, later, paper}, cat.Circulars...)
		db := openSynced(t, open, cat)
		u := newAlertUser(t, db, "asha")
		a, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "UPI", Query: "upi", Frequency: alerts.Immediately, Enabled: true})
		if err != nil {
			t.Fatal(err)
		}

		cs, err := db.ConsultationsClosing(ctx, *day("2025-07-01"), *day("2025-07-31"))
		if err != nil || len(cs) != 2 || cs[0].Slug != paper.Slug || cs[1].Slug != later.Slug {
			t.Fatalf("closing in July: %v, %v", slugsOf(cs), err)
		}
		if cs[1].FinalisedBy[0] != final.Slug || cs[0].CommentsDue.String() != "2025-07-10" {
			t.Errorf("stored consultation: %+v", cs[1])
		}
		if cs, _ := db.ConsultationsClosing(ctx, *day("2025-07-11"), *day("2025-07-29")); len(cs) != 0 {
			t.Errorf("closing between the deadlines: %v", slugsOf(cs))
		}

		claim := func() string {
			id, err := db.ClaimReminder(ctx, a.ID, paper.ID, alerts.ReminderWeek, u.Email, "reminder-{send}@example.com")
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		var mu sync.Mutex
		var ids []string
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				if id := claim(); id != "" {
					mu.Lock()
					ids = append(ids, id)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(ids) != 1 {
			t.Fatalf("%d senders claimed the reminder", len(ids))
		}
		if id := claim(); id != "" {
			t.Fatal("a reminder being sent was claimed again")
		}
		if err := db.FinishReminder(ctx, ids[0], u.Email, "451 try later", false); err != nil {
			t.Fatal(err)
		}
		again := claim()
		if again == "" || again == ids[0] {
			t.Fatalf("a failed reminder is not taken again: %q", again)
		}
		if err := db.FinishReminder(ctx, again, u.Email, "", false); err != nil {
			t.Fatal(err)
		}
		if id := claim(); id != "" {
			t.Error("a sent reminder was claimed again")
		}
		if st, err := db.AlertStats(ctx); err != nil || st.DeadlineReminders["sent"] != 1 || st.DeadlineReminders["failed"] != 0 {
			t.Errorf("stats: %+v, %v", st.DeadlineReminders, err)
		}
		// The day's reminder is its own.
		if id, err := db.ClaimReminder(ctx, a.ID, paper.ID, alerts.ReminderDay, u.Email, "m"); err != nil || id == "" {
			t.Errorf("the day's reminder: %q, %v", id, err)
		}
	})
}
