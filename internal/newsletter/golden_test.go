package newsletter_test

import (
	"bytes"
	"testing"

	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/newsletter"
	"regpulse/internal/store/storetest"
)

// TestDigest_Golden: the digest's bytes, HTML, text and the whole
// message (its boundary aside), do not change unnoticed; in English, and
// in Hindi for a subscriber who subscribed on a Hindi page (digest-hi).
func TestDigest_Golden(t *testing.T) {
	for _, lang := range []string{"", "hi"} {
		t.Run("lang="+lang, func(t *testing.T) { testDigestGolden(t, lang) })
	}
}

func testDigestGolden(t *testing.T, lang string) {
	name := "digest"
	if lang != "" {
		name += "-" + lang
	}
	tokens, err := newsletter.NewTokens([]byte("digest-test-secret-digest-test-secret"))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := newsletter.ParseMonth("2025-06")
	rd, err := newsletter.NewRenderer(newsletter.NewIssue(storetest.Catalog(), m), "https://regpulse.example/", tokens)
	if err != nil {
		t.Fatal(err)
	}
	sub := newsletter.Subscriber{ID: "00000000-0000-4000-8000-000000000001", Email: "asha@example.com", FirstName: "Asha", LastName: "Rao",
		Preferences: newsletter.Topics, Language: lang}
	r, err := rd.Render(sub)
	if err != nil {
		t.Fatal(err)
	}
	mailtest.Golden(t, name+".html.golden", []byte(r.HTML))
	mailtest.Golden(t, name+".txt.golden", []byte(r.Text))
	snd, err := mail.NewSender("RegPulse <newsletter@regpulse.example>", "")
	if err != nil {
		t.Fatal(err)
	}
	msg, err := snd.Build(mail.Message{ToName: "Asha Rao", To: sub.Email, Subject: r.Subject,
		MessageID: "digest-2025-06-" + sub.ID + "@regpulse.example", Date: storetest.Now,
		ListID: "RegPulse monthly update <monthly.regpulse.example>", UnsubscribeURL: r.UnsubscribeURL, Text: r.Text, HTML: r.HTML})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := msg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	mailtest.Golden(t, name+".eml.golden", mailtest.Stable(t, b.Bytes()))
}
