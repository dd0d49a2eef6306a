package alerts_test

import (
	"bytes"
	"strings"
	"testing"

	"regpulse/internal/alerts"
	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/store/storetest"
)

// TestRender_Golden: an alert e-mail's bytes (HTML, text and the whole
// message, its boundary aside) do not change unnoticed.
func TestRender_Golden(t *testing.T) {
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	links, err := alerts.NewLinks("https://regpulse.example/", tokens)
	if err != nil {
		t.Fatal(err)
	}
	cat := storetest.Catalog()
	draft := cat.Circulars[1]
	draft.DocumentType, draft.OfficialURL = "draft", ""
	// A consultation paper whose comments are due in 7 days (a fixture).
	paper := cat.Circulars[0]
	paper.ID, paper.DocumentType = "paper-1", "consultation-paper" // its own id: Links renders a circular's part once
	due := catalog.Date{Time: storetest.Now.AddDate(0, 0, 7)}
	due.Time = catalog.Day(due.Time)
	paper.CommentsDue = &due
	a := alerts.Alert{ID: "alert-1", Name: "UPI <fraud>", Frequency: alerts.Immediately, Email: "asha@example.com", Business: []string{"PSP"}}
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	for _, tc := range []struct {
		name  string
		email alerts.Email
	}{
		{"immediate", alerts.Email{Alert: a, Kind: alerts.Immediately, Circulars: cat.Circulars[:1]}},
		{"fold", alerts.Email{Alert: a, Kind: alerts.KindFold, FoldAfter: 10, Circulars: []catalog.Circular{cat.Circulars[0], draft}}},
		{"reminder", alerts.Email{Alert: a, Kind: alerts.KindReminder, Reminder: alerts.ReminderWeek, Now: storetest.Now, Circulars: []catalog.Circular{paper}}},
		{"confirm", alerts.Email{Alert: a, Kind: alerts.Daily, ConfirmURL: links.Confirm(a.ID, storetest.Now)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := links.Render(tc.email)
			if err != nil {
				t.Fatal(err)
			}
			goldenEmail(t, tc.name, snd, r, mail.Message{To: a.Email, MessageID: "alert-" + a.ID + "@regpulse.example",
				ListID: "RegPulse alert <alert-" + a.ID + ".regpulse.example>"})
		})
		// The same e-mail to a user who reads Hindi: its words, dates
		// and links in Hindi; titles, names and regulators as written.
		t.Run(tc.name+"-hi", func(t *testing.T) {
			e := tc.email
			e.Alert.Language = "hi"
			r, err := links.Render(e)
			if err != nil {
				t.Fatal(err)
			}
			goldenEmail(t, tc.name+"-hi", snd, r, mail.Message{To: a.Email, MessageID: "alert-" + a.ID + "@regpulse.example",
				ListID: "RegPulse alert <alert-" + a.ID + ".regpulse.example>"})
		})
	}
}

// TestRender_Hindi: the Hindi e-mails' subjects, and what they say and
// link to in Hindi.
func TestRender_Hindi(t *testing.T) {
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	links, err := alerts.NewLinks("https://regpulse.example/", tokens)
	if err != nil {
		t.Fatal(err)
	}
	cat := storetest.Catalog()
	a := alerts.Alert{ID: "alert-1", Name: "UPI <fraud>", Frequency: alerts.Daily, Email: "asha@example.com", Business: []string{"PSP"}, Language: "hi"}
	for _, tc := range []struct {
		email   alerts.Email
		subject string
		want    []string
	}{
		{alerts.Email{Alert: a, Kind: alerts.Daily, Circulars: cat.Circulars[:2]}, `RegPulse दैनिक सारांश "UPI <fraud>": 2 नए परिपत्र`,
			[]string{"REGPULSE अलर्ट · दैनिक सारांश", "2 नए परिपत्र आपके अलर्ट से मेल खाते हैं।", "https://regpulse.example/hi/circulars/" + cat.Circulars[0].Slug,
				"https://regpulse.example/hi/profile#alerts", "https://regpulse.example/api/alerts/unsubscribe?token=", "PSP के लिए उच्च प्रभाव",
				`आपको यह ई-मेल इसलिए मिला है क्योंकि asha@example.com ने RegPulse अलर्ट "UPI <fraud>" बनाया है।`, "इस अलर्ट की सदस्यता समाप्त करें: ", "जून 2025"}},
		{alerts.Email{Alert: a, Kind: alerts.Immediately, Circulars: cat.Circulars[:1]}, "RegPulse अलर्ट: " + cat.Circulars[0].Title,
			[]string{"एक नया परिपत्र आपके अलर्ट से मेल खाता है।", "RegPulse पर पढ़ें: "}},
		{alerts.Email{Alert: a, Kind: alerts.Daily, ConfirmURL: "https://regpulse.example/api/alerts/confirm?token=x"}, `अपने RegPulse अलर्ट "UPI <fraud>" की पुष्टि करें`,
			[]string{"(दैनिक सारांश)।", "इस अलर्ट की पुष्टि करें: https://regpulse.example/api/alerts/confirm?token=x"}},
	} {
		r, err := links.Render(tc.email)
		if err != nil {
			t.Fatal(err)
		}
		if r.Subject != tc.subject {
			t.Errorf("subject %q, want %q", r.Subject, tc.subject)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%s: the text lacks %q\n%s", tc.subject, w, r.Text)
			}
		}
		if strings.Contains(r.HTML, `href="https://regpulse.example/circulars/`) || !strings.Contains(r.HTML, `<html lang="hi">`) {
			t.Errorf("%s: the HTML links to English pages or is not lang=hi", tc.subject)
		}
	}
}

// goldenEmail compares a rendered e-mail's HTML, text and whole message
// (m with r's parts, sent at storetest.Now, its boundary aside) with the
// golden files name.html|txt|eml.golden.
func goldenEmail(t *testing.T, name string, snd mail.Sender, r alerts.Rendered, m mail.Message) {
	t.Helper()
	mailtest.Golden(t, name+".html.golden", []byte(r.HTML))
	mailtest.Golden(t, name+".txt.golden", []byte(r.Text))
	m.Subject, m.Date, m.UnsubscribeURL, m.Text, m.HTML = r.Subject, storetest.Now, r.UnsubscribeURL, r.Text, r.HTML
	msg, err := snd.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	mailtest.Golden(t, name+".eml.golden", mailtest.Stable(t, b.Bytes()))
}
