package alerts_test

import (
	"bytes"
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
	a := alerts.Alert{ID: "alert-1", Name: "UPI <fraud>", Frequency: alerts.Immediately, Email: "asha@example.com", Business: []string{"PSP"}}
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	for _, tc := range []struct {
		name  string
		email alerts.Email
	}{
		{"immediate", alerts.Email{Alert: a, Kind: alerts.Immediately, Circulars: cat.Circulars[:1]}},
		{"fold", alerts.Email{Alert: a, Kind: alerts.KindFold, FoldAfter: 10, Circulars: []catalog.Circular{cat.Circulars[0], draft}}},
		{"confirm", alerts.Email{Alert: a, Kind: alerts.Daily, ConfirmURL: links.Confirm(a.ID, storetest.Now)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := links.Render(tc.email)
			if err != nil {
				t.Fatal(err)
			}
			mailtest.Golden(t, tc.name+".html.golden", []byte(r.HTML))
			mailtest.Golden(t, tc.name+".txt.golden", []byte(r.Text))
			m, err := snd.Build(mail.Message{To: a.Email, Subject: r.Subject, MessageID: "alert-" + a.ID + "@regpulse.example",
				Date: storetest.Now, ListID: "RegPulse alert <alert-" + a.ID + ".regpulse.example>", UnsubscribeURL: r.UnsubscribeURL, Text: r.Text, HTML: r.HTML})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if _, err := m.WriteTo(&b); err != nil {
				t.Fatal(err)
			}
			mailtest.Golden(t, tc.name+".eml.golden", mailtest.Stable(t, b.Bytes()))
		})
	}
}
