package webhooks

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"
)

func TestCheckIP(t *testing.T) {
	for _, tc := range []struct {
		ip            string
		production    bool // allowed in production
		localhostDevs bool // allowed with AllowLoopback
	}{
		{"93.184.215.14", true, true},
		{"2606:4700::6810:85e5", true, true},
		{"127.0.0.1", false, true},
		{"127.8.9.10", false, true},
		{"::1", false, true},
		{"::ffff:127.0.0.1", false, true},
		{"10.0.0.1", false, false},
		{"172.16.5.4", false, false},
		{"192.168.1.1", false, false},
		{"fd00::1", false, false},
		{"169.254.169.254", false, false},
		{"fe80::1", false, false},
		{"0.0.0.0", false, false},
		{"::", false, false},
		{"100.64.0.1", false, false},
		{"224.0.0.1", false, false},
		{"255.255.255.255", false, false},
		{"198.18.0.1", false, false},
		{"::ffff:10.0.0.1", false, false},
	} {
		ip := netip.MustParseAddr(tc.ip)
		if got := (AddressPolicy{}).CheckIP(ip) == nil; got != tc.production {
			t.Errorf("production CheckIP(%s) allowed = %v, want %v", tc.ip, got, tc.production)
		}
		if got := (AddressPolicy{AllowLoopback: true}).CheckIP(ip) == nil; got != tc.localhostDevs {
			t.Errorf("AllowLoopback CheckIP(%s) allowed = %v, want %v", tc.ip, got, tc.localhostDevs)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		url                 string
		production, locally bool
	}{
		{"https://hooks.example.com/regpulse", true, true},
		{"https://hooks.slack.com/services/T000/B000/XXXX", true, true},
		{"http://hooks.example.com/regpulse", false, false},
		{"http://127.0.0.1:8080/hook", false, true},
		{"https://localhost/hook", false, true},
		{"https://10.1.2.3/hook", false, false},
		{"https://[fd00::1]/hook", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://user:pass@hooks.example.com/", false, false},
		{"https://intranet/hook", false, false},
		{"ftp://hooks.example.com/", false, false},
		{"hooks.example.com/regpulse", false, false},
		{"", false, false},
	} {
		if got := (AddressPolicy{}).CheckURL(tc.url) == nil; got != tc.production {
			t.Errorf("production CheckURL(%q) allowed = %v, want %v", tc.url, got, tc.production)
		}
		if got := (AddressPolicy{AllowLoopback: true}).CheckURL(tc.url) == nil; got != tc.locally {
			t.Errorf("AllowLoopback CheckURL(%q) allowed = %v, want %v", tc.url, got, tc.locally)
		}
	}
}

// TestDialer: the check holds on the address dialled, whatever the URL
// said: a loopback server is unreachable in production.
func TestDialer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	client := func(p AddressPolicy) *http.Client {
		return &http.Client{Transport: &http.Transport{DialContext: p.DialContext(time.Second)}}
	}
	_, err := client(AddressPolicy{}).Get(srv.URL)
	if !errors.Is(err, ErrAddress) {
		t.Fatalf("production dial of %s: %v, want ErrAddress", srv.URL, err)
	}
	res, err := client(AddressPolicy{AllowLoopback: true}).Get(srv.URL)
	if err != nil {
		t.Fatalf("AllowLoopback dial: %v", err)
	}
	res.Body.Close()
	// A name resolving to loopback is refused after DNS.
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	conn, err := AddressPolicy{}.Dialer(time.Second).DialContext(context.Background(), "tcp", net.JoinHostPort("localhost", port))
	if err == nil {
		conn.Close()
		t.Fatal("production dial of localhost succeeded")
	}
}
