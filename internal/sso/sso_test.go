package sso

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestNormaliseDomain(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Example.CO.in", "example.co.in"}, {" example.com. ", "example.com"}, {"a-b.example", "a-b.example"},
		{"", ""}, {"localhost", ""}, {"*.example.com", ""}, {"127.0.0.1", ""}, {"-a.example", ""}, {"a..example", ""},
		{"exa mple.com", ""}, {"ex@mple.com", ""}, {strings.Repeat("a", 64) + ".com", ""},
	} {
		got, err := NormaliseDomain(tc.in)
		if got != tc.want || (err == nil) != (tc.want != "") {
			t.Errorf("NormaliseDomain(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCovers(t *testing.T) {
	s := Settings{Domains: []string{"example.co.in", "named.example"}, VerifiedDomains: []string{"example.co.in"}}
	for email, want := range map[string]bool{
		"asha@example.co.in": true, "Asha@EXAMPLE.co.in": true, "a@sub.example.co.in": false, "a@example.com": false,
		"example.co.in": false, "@example.co.in": false, "a@b@example.co.in": true, "a@named.example": false,
	} {
		if got := s.Covers(email); got != want {
			t.Errorf("Covers(%q) = %v", email, got)
		}
	}
}

func TestCheck(t *testing.T) {
	old := Settings{OrganisationID: "o", ClientSecret: "kept-secret-value", Verification: "tok", VerifiedDomains: []string{"b.example", "gone.example"}}
	good := Input{Issuer: "https://idp.example/realms/x", ClientID: " c ", Domains: []string{"B.example", "a.example", "b.example"}, Enabled: true}
	s, bad := Check(old, good)
	if bad != nil || s.ClientSecret != "kept-secret-value" || s.ClientID != "c" || strings.Join(s.Domains, ",") != "a.example,b.example" || s.OrganisationID != "o" ||
		s.Verification != "tok" || strings.Join(s.VerifiedDomains, ",") != "b.example" {
		t.Errorf("good: %+v %v", s, bad)
	}
	if s, _ := Check(Settings{}, good); len(s.Verification) < 20 || len(s.VerifiedDomains) != 0 {
		t.Errorf("first settings: %+v", s)
	}
	in := good
	in.ClientSecret = "new"
	if s, _ := Check(old, in); s.ClientSecret != "new" {
		t.Errorf("new secret: %q", s.ClientSecret)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Input)
	}{
		{"issuer", func(i *Input) { i.Issuer = "" }},
		{"issuer", func(i *Input) { i.Issuer = "http://idp.example" }},
		{"issuer", func(i *Input) { i.Issuer = "ftp://idp.example" }},
		{"issuer", func(i *Input) { i.Issuer = "https://u:p@idp.example" }},
		{"issuer", func(i *Input) { i.Issuer = "https://idp.example#x" }},
		{"clientId", func(i *Input) { i.ClientID = " " }},
		{"clientSecret", func(i *Input) { i.ClientSecret = strings.Repeat("x", 1025) }},
		{"domains", func(i *Input) { i.Domains = nil }},
		{"domains", func(i *Input) { i.Domains = []string{"example"} }},
		{"domains", func(i *Input) { i.Domains = make([]string, 21) }},
	} {
		in := good
		tc.edit(&in)
		if _, bad := Check(old, in); bad[tc.field] == "" {
			t.Errorf("%+v: no problem on %s (%v)", in, tc.field, bad)
		}
	}
	for _, issuer := range []string{"http://127.0.0.1:5556", "http://localhost:5556/dex", "http://[::1]:80"} {
		in := good
		in.Issuer = issuer
		if _, bad := Check(old, in); bad != nil {
			t.Errorf("loopback issuer %s: %v", issuer, bad)
		}
	}
}

func TestShown(t *testing.T) {
	for secret, want := range map[string]string{"": "", "short": "••••", "a-long-enough-secret-WXYZ": "••••WXYZ"} {
		if got := (Settings{ClientSecret: secret}).Shown().ClientSecretHint; got != want {
			t.Errorf("hint of %q = %q", secret, got)
		}
	}
	if got := (Settings{Verification: "tok"}).Shown().RecordValue; got != "regpulse-sso=tok" {
		t.Errorf("record value %q", got)
	}
}

func TestVerify(t *testing.T) {
	s := Settings{Domains: []string{"a.example", "b.example", "c.example", "d.example"}, VerifiedDomains: []string{"d.example"}, Verification: "tok"}
	records := map[string][]string{
		"_regpulse-sso.a.example": {"v=spf1 -all", "regpulse-sso=tok"},
		"_regpulse-sso.b.example": {"regpulse-sso=other"},
	}
	lookup := func(_ context.Context, name string) ([]string, error) {
		if name == "_regpulse-sso.d.example" {
			t.Error("a verified domain was looked up again")
		}
		if r, ok := records[name]; ok {
			return r, nil
		}
		return nil, errors.New("no such host")
	}
	proven, why := Verify(t.Context(), s, lookup)
	if strings.Join(proven, ",") != "a.example" || len(why) != 2 || !strings.Contains(why["b.example"], "do not hold regpulse-sso=tok") ||
		!strings.Contains(why["c.example"], "no TXT record at _regpulse-sso.c.example") {
		t.Errorf("Verify = %v, %v", proven, why)
	}
}

func TestSafeNext(t *testing.T) {
	for in, want := range map[string]string{
		"/circulars/?source=RBI": "/circulars/?source=RBI", "/": "/", "": "/", "//evil.example": "/", "/\\evil.example": "/",
		"https://evil.example/": "/", "javascript:alert(1)": "/", "/a\r\nb": "/", "/a\\b": "/", "evil.example": "/",
	} {
		if got := SafeNext(in); got != want {
			t.Errorf("SafeNext(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestFlows(t *testing.T) {
	now := time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	fs, err := NewFlows([]byte("0123456789abcdef0123456789abcdef"), clock)
	if err != nil {
		t.Fatal(err)
	}
	f := fs.Begin("org-1", "//evil.example")
	if f.Next != "/" || f.State == "" || f.Nonce == "" || len(f.Verifier) < 43 || !f.Expires.Equal(now.Add(FlowFor)) {
		t.Errorf("begun: %+v", f)
	}
	if g := fs.Begin("org-1", "/"); g.State == f.State || g.Nonce == f.Nonce || g.Verifier == f.Verifier {
		t.Error("two flows share a random value")
	}
	sealed := fs.Seal(f)
	got, err := fs.Open(sealed, f.State)
	if err != nil || got != f {
		t.Errorf("Open = %+v, %v", got, err)
	}
	other, _ := NewFlows([]byte("another-secret-another-secret-00"), clock)
	payload, _, _ := strings.Cut(sealed, ".")
	for name, open := range map[string]func() error{
		"OtherState": func() error { _, err := fs.Open(sealed, "other"); return err },
		"OtherKey":   func() error { _, err := other.Open(sealed, f.State); return err },
		"Tampered":   func() error { _, err := fs.Open(payload+"x."+strings.SplitN(sealed, ".", 2)[1], f.State); return err },
		"NoMAC":      func() error { _, err := fs.Open(payload, f.State); return err },
		"Garbage":    func() error { _, err := fs.Open("a.b", f.State); return err },
		"Expired": func() error {
			late, _ := NewFlows([]byte("0123456789abcdef0123456789abcdef"), func() time.Time { return now.Add(FlowFor) })
			_, err := late.Open(sealed, f.State)
			return err
		},
	} {
		if err := open(); !errors.Is(err, ErrBadFlow) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestHTTPClient: without allowPrivate, a provider on loopback (or any
// non-public address) is never connected to.
func TestHTTPClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }))
	defer srv.Close()
	if _, err := HTTPClient(false).Get(srv.URL); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("loopback reached: %v", err)
	}
	res, err := HTTPClient(true).Get(srv.URL)
	if err != nil || res.StatusCode != 204 {
		t.Fatalf("allowed: %v, %v", res, err)
	}
	res.Body.Close()
	for addr, want := range map[string]bool{
		"8.8.8.8": true, "2001:4860:4860::8888": true, "10.1.2.3": false, "192.168.1.1": false, "172.16.0.1": false, "127.0.0.1": false,
		"169.254.169.254": false, "100.64.0.1": false, "::1": false, "fe80::1": false, "fd00::1": false, "0.0.0.0": false, "::ffff:10.0.0.1": false,
	} {
		if got := public(netip.MustParseAddr(addr).Unmap()); got != want {
			t.Errorf("public(%s) = %v", addr, got)
		}
	}
}
