package decisions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func TestSafeFileName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"minutes.pdf", "minutes.pdf"},
		{`C:\Users\asha\minutes.pdf`, "minutes.pdf"},
		{"../../etc/passwd", "passwd"},
		{" März \"final\".docx ", `März "final".docx`},
		{"a\r\nb.txt", "ab.txt"},
		{"a\r\nContent-Type: text/html.txt", "html.txt"}, // a slash is a directory, whatever came before
		{"", "file"},
		{"..", "file"},
		{"dir/", "dir"},
		{"/", "file"},
		{strings.Repeat("é", 200), strings.Repeat("é", 127)}, // 254 bytes: no character cut in two
	} {
		if got := SafeFileName(c.in); got != c.want {
			t.Errorf("SafeFileName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCheckLink(t *testing.T) {
	for link, ok := range map[string]bool{
		"https://intranet.example.com/policy?v=2": true,
		"http://example.com":                      true,
		"":                                        false,
		"ftp://example.com/a":                     false,
		"javascript:alert(1)":                     false,
		"https://":                                false,
		"/relative/path":                          false,
		"https://example.com/a b":                 false,
		"https://example.com/\x00":                false,
		"https://example.com/" + strings.Repeat("a", MaxEvidenceLink): false,
	} {
		if got := CheckLink(link) == ""; got != ok {
			t.Errorf("CheckLink(%q) = %q, want ok %v", link, CheckLink(link), ok)
		}
	}
}

func TestReadFile(t *testing.T) {
	data := []byte("%PDF-1.7\n")
	e, got, err := ReadFile(bytes.NewReader(data), "dir/a.pdf", "application/pdf; name=a.pdf")
	sum := sha256.Sum256(data)
	if err != nil || !bytes.Equal(got, data) || e.Size != int64(len(data)) || string(e.SHA256) != hex.EncodeToString(sum[:]) ||
		e.Name != "a.pdf" || e.MediaType != "application/pdf" || e.ClientType != "application/pdf; name=a.pdf" || e.Kind != EvidenceFile {
		t.Errorf("ReadFile: %#v, %v", e, err)
	}
	if e, _, _ := ReadFile(bytes.NewReader(data), "a", "not a type"); e.ClientType != "" {
		t.Errorf("a bad client type kept: %q", e.ClientType)
	}
	if _, _, err := ReadFile(bytes.NewReader(make([]byte, MaxEvidenceBytes)), "a", ""); err != nil {
		t.Errorf("exactly the limit: %v", err)
	}
	if _, _, err := ReadFile(bytes.NewReader(make([]byte, MaxEvidenceBytes+1)), "a", ""); !errors.Is(err, ErrEvidenceTooLarge) {
		t.Errorf("one byte over: %v", err)
	}
	if _, _, err := ReadFile(bytes.NewReader(nil), "a", ""); !errors.Is(err, ErrEvidenceEmpty) {
		t.Errorf("empty: %v", err)
	}
}

func TestCheckReview(t *testing.T) {
	for _, c := range []struct {
		state, note string
		bad         []string
	}{
		{EvidenceAccepted, "", nil},
		{EvidenceRejected, "Unsigned.", nil},
		{EvidenceRejected, "  ", []string{"note"}},
		{EvidencePending, "", []string{"decision"}},
		{"", "", []string{"decision"}},
	} {
		got := CheckReview(c.state, c.note)
		if len(got) != len(c.bad) {
			t.Errorf("CheckReview(%q, %q) = %v, want %v", c.state, c.note, got, c.bad)
		}
		for _, f := range c.bad {
			if got[f] == "" {
				t.Errorf("CheckReview(%q, %q) = %v, want %s named", c.state, c.note, got, f)
			}
		}
	}
}
