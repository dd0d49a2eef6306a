package teammail_test

import (
	"bytes"
	"strings"
	"testing"

	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

var site, _ = mail.ParseSite("https://regpulse.example/")

func mention(to teams.Member) teammail.MentionEmail {
	author := teams.Member{UserID: "u-asha", Username: "asha", FirstName: "Asha", LastName: "Rao"}
	c := decisions.Comment{ID: "comment-1", OrganisationID: "o1", Subject: decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"},
		AuthorID: "u-asha", Body: "@ravi can you check the <limits> & report\nby Friday?", CreatedAt: storetest.Now, Mentions: []string{to.UserID}}
	return teammail.NewMention(to, author, "Asha <Payments>", c,
		teammail.Page{Title: "UPI fraud risk controls", Path: "/circulars/rbi-2025-06-20-upi-fraud-controls"}, site)
}

var ravi = teams.Member{UserID: "u-ravi", Username: "ravi", Email: "ravi@example.com", FirstName: "Ravi"}

func reminder() teammail.ReminderEmail {
	item := func(id, title, kind, due, status string) teammail.ReminderItem {
		d := storetest.Date(due)
		return teammail.ReminderItem{Reminder: teammail.Reminder{Kind: kind, WorkItem: decisions.WorkItem{OrganisationName: "Asha <Payments>",
			Decision: decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectCircular, ID: id}, DueDate: &d, Status: status}}},
			Page: teammail.Page{Title: title, Path: "/circulars/" + id}}
	}
	return teammail.ReminderEmail{To: teammail.Recipient{UserID: "u-ravi", Email: "ravi@example.com", Username: "ravi"},
		Day: storetest.Date("2025-06-30"), Site: site, Items: []teammail.ReminderItem{
			item("npci-lite", "UPI Lite limits", teammail.KindOverdue, "2025-06-29", decisions.StatusActionPlanned),
			item("rbi-old", "Card tokenisation", teammail.KindOverdue, "2025-06-10", decisions.StatusNew),
			item("rbi-fraud", "UPI fraud <risk> controls", teammail.KindDueSoon, "2025-06-30", decisions.StatusAssessing),
			item("irdai-bima", "Bima Sugam marketplace", teammail.KindDueSoon, "2025-07-07", decisions.StatusNew),
		}}
}

// golden checks r's HTML and text and the whole message m as snd builds
// it: one-off messages, without a list's headers.
func golden(t *testing.T, name string, r teammail.Rendered, snd mail.Sender, m mail.Message) {
	t.Helper()
	mailtest.Golden(t, name+".html.golden", []byte(r.HTML))
	mailtest.Golden(t, name+".txt.golden", []byte(r.Text))
	msg, err := snd.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"List-Unsubscribe", "List-Id", "Precedence"} {
		if bytes.Contains(b.Bytes(), []byte("\r\n"+h+":")) {
			t.Errorf("%s carries %s", name, h)
		}
	}
	mailtest.Golden(t, name+".eml.golden", mailtest.Stable(t, b.Bytes()))
}

// TestMentionEmail_Golden: the mention's bytes do not change unnoticed;
// the comment is escaped in HTML, its lines kept.
func TestMentionEmail_Golden(t *testing.T) {
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	e := mention(ravi)
	r, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Asha Rao mentioned you on UPI fraud risk controls" || !strings.Contains(r.HTML, "&lt;limits&gt; &amp; report") {
		t.Errorf("subject %q, html %s", r.Subject, r.HTML)
	}
	m, err := e.Message(snd, storetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "mention", r, snd, m)
}

// TestReminderEmail_Golden: the reminder's bytes, overdue first then
// due soon, each with its organisation, due date, how far and status.
func TestReminderEmail_Golden(t *testing.T) {
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	e := reminder()
	r, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "RegPulse reminder: 2 overdue, 2 due within 7 days" {
		t.Errorf("subject %q", r.Subject)
	}
	for _, want := range []string{"1 day overdue", "20 days overdue", "due today", "due in 7 days", "action planned"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	golden(t, "reminder", r, snd, mail.Message{To: e.To.Email, Subject: r.Subject, MessageID: "reminder-1@regpulse.example",
		Date: storetest.Now, Text: r.Text, HTML: r.HTML})
	// Only what is due soon: no overdue section.
	e.Items = e.Items[2:]
	if r, err := e.Render(); err != nil || r.Subject != "RegPulse reminder: 2 due within 7 days" || strings.Contains(r.Text, "OVERDUE") {
		t.Errorf("due soon only: %q, %v\n%s", r.Subject, err, r.Text)
	}
}

// TestMentionEmail_Hindi: a member who reads Hindi gets the mention in
// Hindi; the comment, the title and the names as written.
func TestMentionEmail_Hindi(t *testing.T) {
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	e := mention(ravi)
	e.Language = "hi"
	r, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Asha Rao ने UPI fraud risk controls पर आपका उल्लेख किया" || !strings.Contains(r.HTML, "&lt;limits&gt; &amp; report") ||
		!strings.Contains(r.HTML, `<a href="https://regpulse.example/hi/circulars/rbi-2025-06-20-upi-fraud-controls" style="color:#1d4ed8;">UPI fraud risk controls</a> पर, `) {
		t.Errorf("subject %q, html %s", r.Subject, r.HTML)
	}
	m, err := e.Message(snd, storetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "mention-hi", r, snd, m)
}

// TestReminderEmail_Hindi: a member who reads Hindi gets the reminder
// in Hindi: its words, months, statuses, links to /hi/ pages; titles and
// names as written.
func TestReminderEmail_Hindi(t *testing.T) {
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	e := reminder()
	e.To.Language = "hi"
	r, err := e.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "RegPulse अनुस्मारक: 2 अतिदेय, 2 अगले 7 दिनों में देय" {
		t.Errorf("subject %q", r.Subject)
	}
	for _, want := range []string{"1 दिन से अतिदेय", "20 दिन से अतिदेय", "आज देय", "7 दिन में देय", "कार्रवाई नियोजित", "देय तिथि 29 जून 2025",
		"https://regpulse.example/hi/circulars/npci-lite", "UPI fraud <risk> controls", "Asha <Payments>"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	golden(t, "reminder-hi", r, snd, mail.Message{To: e.To.Email, Subject: r.Subject, MessageID: "reminder-1@regpulse.example",
		Date: storetest.Now, Text: r.Text, HTML: r.HTML})
}

// TestMailer_SMTP: each mention goes through the loopback SMTP server
// once; a refused address is reported and the others still go.
func TestMailer_SMTP(t *testing.T) {
	srv := smtptest.Start(t, "bounce@example.com")
	srv.Once = true
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	m := &teammail.Mailer{Sender: snd, Now: storetest.Clock, Transport: func() (mail.Transport, error) { return mail.NewSMTP(srv.URL()) }}
	bounce := teams.Member{UserID: "u-b", Username: "b", Email: "bounce@example.com"}
	meera := teams.Member{UserID: "u-meera", Username: "meera", Email: "meera@example.com"}
	failed, err := m.SendMentions(t.Context(), []teammail.MentionEmail{mention(ravi), mention(bounce), mention(meera)})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed["bounce@example.com"] == nil {
		t.Errorf("failed: %v", failed)
	}
	got := srv.Received()
	if len(got["ravi@example.com"]) != 1 || len(got["meera@example.com"]) != 1 || len(got) != 2 {
		t.Errorf("received: %d addresses", len(got))
	}
	if !strings.Contains(string(got["ravi@example.com"][0]), "Message-ID: <mention-comment-1-u-ravi@regpulse.example>") {
		t.Errorf("message: %s", got["ravi@example.com"][0])
	}
}
