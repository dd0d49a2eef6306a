package mail_test

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/mail"
	"regpulse/internal/mail/mailtest"
	"regpulse/internal/mail/smtptest"
)

var when = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)

func message(t *testing.T, to string) *gomail.Msg {
	t.Helper()
	snd, err := mail.NewSender("RegPulse <news@regpulse.example>", "")
	if err != nil {
		t.Fatal(err)
	}
	m, err := snd.Build(mail.Message{ToName: "Asha Rao", To: to, Subject: "Hello", MessageID: "m-1@regpulse.example", Date: when,
		ListID: "RegPulse test <test.regpulse.example>", UnsubscribeURL: "https://regpulse.example/api/x/unsubscribe?token=t.s",
		Text: "Plain text.\n", HTML: "<p>HTML.</p>\n"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBuild_Golden: a message's headers (one-click unsubscribe, bulk,
// its identity) and parts, as they are written.
func TestBuild_Golden(t *testing.T) {
	var b bytes.Buffer
	if _, err := message(t, "asha@example.com").WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	mailtest.Golden(t, "message.eml.golden", mailtest.Stable(t, b.Bytes()))
}

func TestNewSender(t *testing.T) {
	cases := []struct {
		name, from, mailto string
		want               mail.Sender
		wantErr            bool
	}{
		{"Default", "RegPulse <news@regpulse.example>", "", mail.Sender{Domain: "regpulse.example", Mailto: "mailto:news@regpulse.example?subject=unsubscribe"}, false},
		{"Mailbox", "news@regpulse.example", "mailto:leave@regpulse.example", mail.Sender{Domain: "regpulse.example", Mailto: "mailto:leave@regpulse.example"}, false},
		{"ErrAddress", "RegPulse", "", mail.Sender{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mail.NewSender(tc.from, tc.mailto)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			got.From = nil
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestIsOneClick(t *testing.T) {
	cases := []struct {
		body string
		want bool
	}{
		{mail.OneClick, true},
		{"List-Unsubscribe=One-Click&x=1", true},
		{"", false},
		{"List-Unsubscribe=one-click", false},
		{"submit=Unsubscribe", false},
	}
	for _, tc := range cases {
		form, err := url.ParseQuery(tc.body)
		if err != nil {
			t.Fatal(err)
		}
		if got := mail.IsOneClick(form); got != tc.want {
			t.Errorf("IsOneClick(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

// TestSMTP_Deliver: through a real SMTP server on loopback, a message
// arrives whole; a refused address is that message's error, and the next
// message still goes.
func TestSMTP_Deliver(t *testing.T) {
	ms := smtptest.Start(t, "bounce@example.com")
	tr, err := mail.NewSMTP(ms.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if err := tr.Deliver(t.Context(), message(t, "bounce@example.com"), "b"); err == nil || !strings.Contains(err.Error(), "550") {
		t.Errorf("refused address: err = %v, want the server's 550", err)
	}
	if err := tr.Deliver(t.Context(), message(t, "asha@example.com"), "a"); err != nil {
		t.Fatal(err)
	}
	got := ms.Received()
	if len(got) != 1 || len(got["asha@example.com"]) != 1 {
		t.Fatalf("received %v, want one message to asha@example.com", got)
	}
	for _, want := range []string{"List-Unsubscribe-Post: " + mail.OneClick, "Message-ID: <m-1@regpulse.example>", "Plain text."} {
		if !bytes.Contains(got["asha@example.com"][0], []byte(want)) {
			t.Errorf("the message lacks %q", want)
		}
	}
}

// TestDir_Deliver: a message is written whole as NAME.eml, nothing else
// left in the folder.
func TestDir_Deliver(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := (mail.Dir{Path: dir}).Deliver(t.Context(), message(t, "asha@example.com"), "a"); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) != 1 || entries[0].Name() != "a.eml" {
		t.Fatalf("folder holds %v (%v), want a.eml alone", entries, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "a.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("Subject: Hello")) {
		t.Errorf("a.eml is not the message:\n%s", b)
	}
}

func TestParseSite(t *testing.T) {
	site, err := mail.ParseSite("https://regpulse.example/base/")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := site.Link("/circulars/x", url.Values{"a": {"b c"}}), "https://regpulse.example/base/circulars/x?a=b+c"; got != want {
		t.Errorf("Link = %q, want %q", got, want)
	}
	for _, bad := range []string{"regpulse.example", "ftp://regpulse.example/", "https://", "::"} {
		if _, err := mail.ParseSite(bad); err == nil {
			t.Errorf("ParseSite(%q) accepted", bad)
		}
	}
}
