package teams_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

func invitation(role string, end *time.Time) teams.InviteEmail {
	inv := teams.NewInvite(teams.Actor{UserID: "u1", OrganisationID: "o1"}, "ravi@example.com", role, end, storetest.Now)
	inv.ID = "invite-1"
	return teams.InviteEmail{Invite: inv, Organisation: "Asha <Payments>", InvitedBy: "Asha Rao",
		AcceptURL: "https://regpulse.example/join/?token=invite-1~1751889600.c2lnbmF0dXJl"}
}

// inHindi is e written in Hindi, linking to the Hindi accept page.
func inHindi(e teams.InviteEmail) teams.InviteEmail {
	e.Language = "hi"
	e.AcceptURL = teams.AcceptLink("https://regpulse.example/", "hi", "invite-1~1751889600.c2lnbmF0dXJl")
	return e
}

// TestInviteEmail_Hindi: the Hindi invitation's subject, role, dates and
// link; names as written.
func TestInviteEmail_Hindi(t *testing.T) {
	end := storetest.Now.Add(90 * 24 * time.Hour)
	r, err := inHindi(invitation(teams.RoleAuditor, &end)).Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.Subject != "Asha Rao ने आपको RegPulse पर Asha <Payments> से जुड़ने के लिए आमंत्रित किया है" {
		t.Errorf("subject %q", r.Subject)
	}
	for _, want := range []string{"Asha <Payments> से लेखा परीक्षक के रूप में जुड़ने", "आमंत्रण स्वीकार करें: https://regpulse.example/hi/join/?token=invite-1~1751889600.c2lnbmF0dXJl",
		"जुलाई 2025", "28 सितंबर 2025, 12:00 UTC को स्वतः समाप्त"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("the text lacks %q:\n%s", want, r.Text)
		}
	}
	if !strings.Contains(r.HTML, `<html lang="hi">`) || !strings.Contains(r.HTML, `href="https://regpulse.example/hi/join/?token=`) {
		t.Errorf("html: %s", r.HTML)
	}
	if en := teams.AcceptLink("https://regpulse.example", "en", "a b"); en != "https://regpulse.example/join/?token=a+b" {
		t.Errorf("the English link: %s", en)
	}
}

// TestInviteEmail_Golden: the invitation's bytes (HTML, text and the
// whole message, its boundary aside) do not change unnoticed; a one-off
// message carries no list headers.
func TestInviteEmail_Golden(t *testing.T) {
	end := storetest.Now.Add(90 * 24 * time.Hour)
	snd, _ := mail.NewSender("RegPulse <team@regpulse.example>", "")
	for _, tc := range []struct {
		name  string
		email teams.InviteEmail
	}{
		{"invite-member", invitation(teams.RoleMember, nil)},
		{"invite-auditor", invitation(teams.RoleAuditor, &end)},
		// In Hindi: the words and the dates, the link to the Hindi page.
		{"invite-member-hi", inHindi(invitation(teams.RoleMember, nil))},
		{"invite-auditor-hi", inHindi(invitation(teams.RoleAuditor, &end))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := tc.email.Render()
			if err != nil {
				t.Fatal(err)
			}
			mailtest.Golden(t, tc.name+".html.golden", []byte(r.HTML))
			mailtest.Golden(t, tc.name+".txt.golden", []byte(r.Text))
			m, err := tc.email.Message(snd, storetest.Now)
			if err != nil {
				t.Fatal(err)
			}
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
					t.Errorf("an invitation carries %s", h)
				}
			}
			mailtest.Golden(t, tc.name+".eml.golden", mailtest.Stable(t, b.Bytes()))
		})
	}
}

// TestMailer_SMTP: an invitation goes through the loopback SMTP server
// to the invited address; a refused address is the send's error.
func TestMailer_SMTP(t *testing.T) {
	srv := smtptest.Start(t, "bounce@example.com")
	snd, _ := mail.NewSender("RegPulse <team@regpulse.example>", "")
	m := &teams.Mailer{Sender: snd, Now: storetest.Clock, Transport: func() (mail.Transport, error) { return mail.NewSMTP(srv.URL()) }}
	e := invitation(teams.RoleViewer, nil)
	if err := m.SendInvite(t.Context(), e); err != nil {
		t.Fatal(err)
	}
	got := srv.Received()["ravi@example.com"]
	if len(got) != 1 || !strings.Contains(string(got[0]), "Subject: Asha Rao invites you to Asha <Payments> on RegPulse") {
		t.Errorf("received: %q", got)
	}
	e.Invite.Email = "bounce@example.com"
	if err := m.SendInvite(t.Context(), e); err == nil {
		t.Error("a refused address: no error")
	}
}
