package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Where an endpoint may point. In production an endpoint is https and
// every address its host resolves to is public: not loopback, private
// (RFC 1918, unique local), link-local (cloud metadata at 169.254.169.254
// among them), unspecified, multicast, shared (100.64/10), or any other
// range meant to stay inside a network. The check runs twice: on the URL
// an admin gives (CheckURL, for a clear error at once), and on the
// address actually dialled (Dialer's Control, after DNS), so a name that
// later resolves to an inner address, or a redirect, reaches nothing
// inside. AllowLoopback (tests, local development) also allows http and
// loopback addresses; private ranges stay refused.

// AllowLoopbackEnv, when true, allows loopback endpoints (tests, local
// development): the default of serve's and regpulse-api's
// --webhooks-allow-loopback, and regpulse-jobs' setting.
const AllowLoopbackEnv = "REGPULSE_WEBHOOKS_ALLOW_LOOPBACK"

// AddressPolicy says which endpoints are allowed.
type AddressPolicy struct {
	// AllowLoopback allows http and 127.0.0.0/8, ::1.
	AllowLoopback bool
}

// ErrAddress is an endpoint's address the policy refuses.
var ErrAddress = errors.New("webhooks: address not allowed")

// Ranges no endpoint reaches besides what netip's predicates name.
var innerPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // this network
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (carrier NAT)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use IPv4/IPv6 translation
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
}

// CheckIP says whether an endpoint may be reached at ip.
func (p AddressPolicy) CheckIP(ip netip.Addr) error {
	ip = ip.Unmap()
	if ip.Is4In6() || !ip.IsValid() {
		return fmt.Errorf("%w: %s", ErrAddress, ip)
	}
	if ip.IsLoopback() {
		if p.AllowLoopback {
			return nil
		}
		return fmt.Errorf("%w: %s is a loopback address", ErrAddress, ip)
	}
	switch {
	case ip.IsPrivate():
		return fmt.Errorf("%w: %s is a private address", ErrAddress, ip)
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return fmt.Errorf("%w: %s is a link-local address", ErrAddress, ip)
	case ip.IsUnspecified(), ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return fmt.Errorf("%w: %s is not a unicast address", ErrAddress, ip)
	}
	for _, pre := range innerPrefixes {
		if pre.Contains(ip) {
			return fmt.Errorf("%w: %s is in the reserved range %s", ErrAddress, ip, pre)
		}
	}
	return nil
}

// CheckURL checks an endpoint's URL as given, before any DNS: https (http
// too for a loopback host when loopback is allowed), a host, no user information, and a host
// that is an IP address only when CheckIP allows it. The resolved
// addresses are checked when dialled (Dialer).
func (p AddressPolicy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return errors.New("give an absolute URL, such as https://example.com/hooks/regpulse")
	}
	host := u.Hostname()
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.AllowLoopback && isLoopbackHost(host):
	default:
		return errors.New("use an https:// URL")
	}
	if u.User != nil {
		return errors.New("a URL with a user name or password is not taken: put credentials in the path or query")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.CheckIP(ip)
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		if p.AllowLoopback {
			return nil
		}
		return fmt.Errorf("%w: %s is a loopback name", ErrAddress, host)
	}
	if !strings.Contains(host, ".") {
		return fmt.Errorf("%w: %s is not a public host name", ErrAddress, host)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().IsLoopback()
	}
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// Dialer is a net.Dialer that refuses to connect to an address the
// policy refuses: the check runs on the address about to be connected
// to, after DNS, so it holds for every name, redirect and rebinding.
func (p AddressPolicy) Dialer(timeout time.Duration) *net.Dialer {
	return &net.Dialer{
		Timeout: timeout,
		Control: func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("%w: %s", ErrAddress, address)
			}
			return p.CheckIP(ap.Addr())
		},
	}
}

// DialContext is the Dialer's DialContext, for an http.Transport.
func (p AddressPolicy) DialContext(timeout time.Duration) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return p.Dialer(timeout).DialContext
}
