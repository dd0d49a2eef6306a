package alerts_test

import (
	"strings"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
)

func TestDueReminder(t *testing.T) {
	day := func(s string) catalog.Date {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return catalog.Date{Time: d}
	}
	paper := func(published, due string) catalog.Circular {
		d := day(due)
		return catalog.Circular{PublishedDate: day(published), DocumentType: "consultation-paper", CommentsDue: &d}
	}
	finalised := paper("2025-07-01", "2025-07-20")
	finalised.FinalisedBy = catalog.TextList{"rbi-final"}
	for _, tt := range []struct {
		name  string
		c     catalog.Circular
		today string
		want  string
	}{
		{"8 days before", paper("2025-07-01", "2025-07-20"), "2025-07-12", ""},
		{"7 days before", paper("2025-07-01", "2025-07-20"), "2025-07-13", alerts.ReminderWeek},
		{"2 days before: the week's, late", paper("2025-07-01", "2025-07-20"), "2025-07-18", alerts.ReminderWeek},
		{"the day before", paper("2025-07-01", "2025-07-20"), "2025-07-19", alerts.ReminderDay},
		{"the day itself: the day's, late", paper("2025-07-01", "2025-07-20"), "2025-07-20", alerts.ReminderDay},
		{"after the deadline", paper("2025-07-01", "2025-07-20"), "2025-07-21", ""},
		{"published within the week: no week's", paper("2025-07-15", "2025-07-20"), "2025-07-16", ""},
		{"published within the week: the day's", paper("2025-07-15", "2025-07-20"), "2025-07-19", alerts.ReminderDay},
		{"finalised", finalised, "2025-07-19", ""},
		{"no deadline", catalog.Circular{PublishedDate: day("2025-07-01"), DocumentType: "draft"}, "2025-07-19", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := alerts.DueReminder(tt.c, day(tt.today).Add(9*time.Hour)); got != tt.want {
				t.Errorf("DueReminder on %s = %q, want %q", tt.today, got, tt.want)
			}
		})
	}
}

// TestRun_CommentReminders: a consultation matching an alert is sent on
// arrival, then reminded 7 days and 1 day before its comments are due,
// from the digest hour, each once whatever the reruns; an alert it does
// not match gets nothing.
func TestRun_CommentReminders(t *testing.T) {
	f := newFixture(t)
	asha := f.user("asha", auth.Choices{EntityTypes: []string{"PSP"}, EmailNotifications: false})
	f.search(asha, "UPI fraud", "upi fraud", alerts.Immediately)
	meera := f.user("meera", auth.Choices{EmailNotifications: false})
	f.search(meera, "Tokenisation", "tokenisation", alerts.Immediately)

	f.at("2025-07-01T05:00:00Z")
	paper := f.newCircular("UPI fraud reporting: consultation paper", "RBI", "consultation-paper")
	due := catalog.Date{Time: time.Date(2025, 7, 20, 0, 0, 0, 0, time.UTC)}
	paper.CommentsDue = &due
	f.publish(paper)

	sent := func(at string) int {
		t.Helper()
		f.at(at)
		return f.run("a").Sent
	}
	for _, step := range []struct {
		at   string
		want int
	}{
		{"2025-07-01T05:00:00Z", 1}, // the arrival
		{"2025-07-01T07:05:00Z", 0},
		{"2025-07-12T07:05:00Z", 0}, // 8 days before
		{"2025-07-13T05:00:00Z", 0}, // 7 days before, before the digest hour
		{"2025-07-13T07:05:00Z", 1},
		{"2025-07-13T07:06:00Z", 0}, // a rerun
		{"2025-07-15T07:05:00Z", 0}, // sent already
		{"2025-07-19T07:05:00Z", 1}, // the day before
		{"2025-07-19T09:00:00Z", 0},
		{"2025-07-20T07:05:00Z", 0},
		{"2025-07-21T07:05:00Z", 0},
	} {
		if got := sent(step.at); got != step.want {
			t.Errorf("at %s: %d e-mails sent, want %d", step.at, got, step.want)
		}
	}
	got := f.mail.Received()
	if len(got["asha@example.com"]) != 3 || len(got["meera@example.com"]) != 0 {
		t.Fatalf("received: %v", f.got())
	}
	for i, want := range []struct{ subject, body string }{
		{"RegPulse reminder: comments due 20 July 2025 on " + paper.Title, "are due in 7 days, on 20 July 2025"},
		{"RegPulse reminder: comments due 20 July 2025 on " + paper.Title, "are due tomorrow, on 20 July 2025"},
	} {
		m := parse(t, got["asha@example.com"][i+1])
		if s := m.Header.Get("Subject"); s != want.subject {
			t.Errorf("reminder %d: subject %q, want %q", i, s, want.subject)
		}
		body, _ := readAll(m)
		body = strings.Join(strings.Fields(body), " ")
		if !strings.Contains(body, want.body) || !strings.Contains(body, "Consultation paper: NOT BINDING") {
			t.Errorf("reminder %d lacks %q:\n%s", i, want.body, body)
		}
		if !strings.HasPrefix(m.Header.Get("Message-Id"), "<reminder-") {
			t.Errorf("reminder %d: Message-Id %q", i, m.Header.Get("Message-Id"))
		}
	}
}
