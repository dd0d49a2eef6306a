package sso

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// Client talks to organisations' identity providers. Their discovery
// documents are kept for an hour (keys are refreshed by go-oidc when an
// unknown one signs).
type Client struct {
	http *http.Client
	now  func() time.Time

	mu        sync.Mutex
	providers map[string]cachedProvider
}

type cachedProvider struct {
	p   *oidc.Provider
	got time.Time
}

// providerFor is how long a discovered provider is kept.
const providerFor = time.Hour

// NewClient is a Client using hc (nil: HTTPClient(false), public
// addresses only) on the clock now (nil: time.Now).
func NewClient(hc *http.Client, now func() time.Time) *Client {
	if hc == nil {
		hc = HTTPClient(false)
	}
	if now == nil {
		now = time.Now
	}
	return &Client{http: hc, now: now, providers: map[string]cachedProvider{}}
}

func (c *Client) ctx(ctx context.Context) context.Context { return oidc.ClientContext(ctx, c.http) }

func (c *Client) provider(ctx context.Context, issuer string) (*oidc.Provider, error) {
	c.mu.Lock()
	cp, ok := c.providers[issuer]
	c.mu.Unlock()
	if ok && c.now().Sub(cp.got) < providerFor {
		return cp.p, nil
	}
	p, err := oidc.NewProvider(c.ctx(ctx), issuer)
	if err != nil {
		return nil, fmt.Errorf("%w (discovery: %v)", ErrProvider, err)
	}
	c.mu.Lock()
	c.providers[issuer] = cachedProvider{p: p, got: c.now()}
	c.mu.Unlock()
	return p, nil
}

func config(p *oidc.Provider, s Settings, redirectURI string) *oauth2.Config {
	return &oauth2.Config{ClientID: s.ClientID, ClientSecret: s.ClientSecret, Endpoint: p.Endpoint(), RedirectURL: redirectURI,
		Scopes: []string{oidc.ScopeOpenID, "email", "profile"}}
}

// AuthURL is the provider's authorization address for f: the
// authorization code flow with PKCE (S256), f's state and nonce.
func (c *Client) AuthURL(ctx context.Context, s Settings, redirectURI string, f Flow, loginHint string) (string, error) {
	p, err := c.provider(ctx, s.Issuer)
	if err != nil {
		return "", err
	}
	opts := []oauth2.AuthCodeOption{oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier)}
	if loginHint != "" {
		opts = append(opts, oauth2.SetAuthURLParam("login_hint", loginHint))
	}
	return config(p, s, redirectURI).AuthCodeURL(f.State, opts...), nil
}

// Identity is who the provider says signed in.
type Identity struct {
	Issuer, Subject string
	Email           string
	GivenName       string
	FamilyName      string
}

// idClaims are the ID token's claims RegPulse reads. email_verified is
// a boolean, which some providers send as a string.
type idClaims struct {
	Email         string `json:"email"`
	EmailVerified any    `json:"email_verified"`
	GivenName     string `json:"given_name"`
	FamilyName    string `json:"family_name"`
	Name          string `json:"name"`
}

func (cl idClaims) verified() bool {
	switch v := cl.EmailVerified.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// Finish exchanges the callback's code (with f's PKCE verifier) and
// verifies the ID token: signature by the provider's keys, issuer,
// audience (the client id), expiry, f's nonce; then that the e-mail is
// verified and in one of s's domains.
func (c *Client) Finish(ctx context.Context, s Settings, redirectURI string, f Flow, code string) (Identity, error) {
	p, err := c.provider(ctx, s.Issuer)
	if err != nil {
		return Identity{}, err
	}
	tok, err := config(p, s, redirectURI).Exchange(c.ctx(ctx), code, oauth2.VerifierOption(f.Verifier))
	if err != nil {
		return Identity{}, fmt.Errorf("%w (token: %v)", ErrProvider, err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, fmt.Errorf("%w (no id_token)", ErrBadIDToken)
	}
	idt, err := p.Verifier(&oidc.Config{ClientID: s.ClientID, Now: c.now}).Verify(c.ctx(ctx), raw)
	if err != nil {
		return Identity{}, fmt.Errorf("%w (%v)", ErrBadIDToken, err)
	}
	if idt.Nonce != f.Nonce {
		return Identity{}, fmt.Errorf("%w (nonce differs)", ErrBadIDToken)
	}
	var cl idClaims
	if err := idt.Claims(&cl); err != nil {
		return Identity{}, fmt.Errorf("%w (claims: %v)", ErrBadIDToken, err)
	}
	cl.Email = strings.TrimSpace(cl.Email)
	switch {
	case cl.Email == "":
		return Identity{}, fmt.Errorf("%w (no email claim)", ErrBadIDToken)
	case !cl.verified():
		return Identity{}, ErrUnverified
	case !s.Covers(cl.Email):
		return Identity{}, ErrOtherDomain
	}
	given, family := cl.GivenName, cl.FamilyName
	if given == "" && family == "" && cl.Name != "" {
		given, family, _ = strings.Cut(cl.Name, " ")
	}
	return Identity{Issuer: idt.Issuer, Subject: idt.Subject, Email: cl.Email, GivenName: given, FamilyName: family}, nil
}

// Public is err's message for the person signing in: the sentinel's own
// words, without the details logged for the operator.
func Public(err error) (string, bool) {
	for _, e := range []error{ErrNotConfigured, ErrNoOrganisation, ErrDisabled, ErrDomainTaken, ErrBadFlow, ErrProvider, ErrBadIDToken,
		ErrUnverified, ErrOtherDomain, ErrNotMember} {
		if errors.Is(err, e) {
			return e.Error(), true
		}
	}
	return "", false
}

// HTTPClient is the client a server reaches providers with: a 10 s
// timeout and, unless allowPrivate, connections only to public
// addresses. An organisation's admin names the issuer, and its
// discovery document names the other endpoints, so without the guard
// anyone who creates an organisation could make the server call its
// own network (loopback, private ranges, link-local metadata services).
// allowPrivate is for tests and a provider on the operator's own
// network.
func HTTPClient(allowPrivate bool) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip, err := netip.ParseAddr(host)
			if err != nil {
				return err
			}
			if !public(ip.Unmap()) {
				return fmt.Errorf("%w: %s is not a public address", ErrPrivateAddress, ip)
			}
			return nil
		}
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = d.DialContext
	t.Proxy = nil // a proxy would dial for us, past the guard
	return &http.Client{Timeout: 10 * time.Second, Transport: t}
}

// ErrPrivateAddress is a provider endpoint on a non-public address.
var ErrPrivateAddress = errors.New("sso: provider address refused")

func public(ip netip.Addr) bool {
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !ip.IsLoopback() && !ip.IsLinkLocalUnicast() &&
		!cgnat.Contains(ip) && !ip.IsUnspecified()
}

// cgnat is the shared address space (RFC 6598), private in practice.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")
