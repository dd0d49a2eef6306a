package mail_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"regpulse/internal/mail"
)

// TestOperator: a one-off plain e-mail to the operator's address, as an
// .eml file when the transport is a folder.
func TestOperator(t *testing.T) {
	snd, err := mail.NewSender("RegPulse <alerts@example.org>", "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	op := mail.Operator{Sender: snd, To: "ops@example.org", Open: func() (mail.Transport, error) { return mail.Dir{Path: dir}, nil },
		Now: func() time.Time { return time.Date(2026, 11, 30, 4, 30, 0, 0, time.UTC) }}
	if err := op.Tell(t.Context(), "RegPulse: ingest source x is stale", "No poll of x <answered> for 24h."); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "operator-20261130T043000Z-*.eml"))
	if len(files) != 1 {
		t.Fatalf("files %v, want one .eml", files)
	}
	data, _ := os.ReadFile(files[0])
	for _, want := range []string{"To: <ops@example.org>", "Subject: RegPulse: ingest source x is stale", "No poll of x <answered> for 24h.",
		"No poll of x &lt"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "List-Unsubscribe") {
		t.Error("a one-off e-mail with list headers")
	}
}
