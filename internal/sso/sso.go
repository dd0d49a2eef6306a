// Package sso is an organisation's single sign-on through OpenID Connect
// (issue 44): its settings and the rules that check them, which e-mail
// domains it covers, the short-lived signed flow that carries state,
// nonce and PKCE verifier from the start of a sign-in to its callback,
// and the provider calls (discovery, authorization code exchange, ID
// token verification with coreos/go-oidc). It holds no SQL
// (internal/store) and no HTTP handlers (api).
package sso

import (
	"context"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Settings are an organisation's single sign-on settings.
type Settings struct {
	OrganisationID string `json:"organisationId"`
	// Issuer is the provider's issuer URL (its discovery document is
	// Issuer + /.well-known/openid-configuration).
	Issuer   string `json:"issuer"`
	ClientID string `json:"clientId"`
	// ClientSecret never leaves the server; ClientSecretHint shows its
	// last characters (Shown).
	ClientSecret     string `json:"-"`
	ClientSecretHint string `json:"clientSecretHint"`
	// Domains are the e-mail domains the organisation names, lower
	// case; VerifiedDomains those of them whose DNS record (RecordName,
	// RecordValue) was found: only they sign people in, and a domain is
	// verified for one organisation at most. Naming one blocks no one.
	Domains         []string `json:"domains"`
	VerifiedDomains []string `json:"verifiedDomains"`
	// Verification is the token of the domains' records, made at the
	// first save; RecordValue (Shown) carries it.
	Verification string    `json:"-"`
	RecordValue  string    `json:"recordValue"`
	Enabled      bool      `json:"enabled"`
	UpdatedAt    time.Time `json:"updatedAt"`
	// RedirectURI is the callback address to register with the provider
	// (the API sets it; not stored).
	RedirectURI string `json:"redirectUri"`
}

// RecordPrefix begins the DNS name of a domain's record: a TXT record
// at RecordName(domain) whose text is the settings' RecordValue proves
// the organisation holds the domain.
const RecordPrefix = "_regpulse-sso."

// RecordName is the DNS name of domain's record.
func RecordName(domain string) string { return RecordPrefix + domain }

// NewVerification is a new token for the domains' records.
func NewVerification() string { return random() }

// Shown is s as the API shows it: the record's value set, and
// ClientSecretHint: "" when there is no secret, else its last four
// characters after dots (a short secret shows none).
func (s Settings) Shown() Settings {
	s.RecordValue = ""
	if s.Verification != "" {
		s.RecordValue = "regpulse-sso=" + s.Verification
	}
	switch n := len(s.ClientSecret); {
	case n == 0:
		s.ClientSecretHint = ""
	case n < 12:
		s.ClientSecretHint = "••••"
	default:
		s.ClientSecretHint = "••••" + s.ClientSecret[n-4:]
	}
	return s
}

// Covers reports whether s signs in the address email: one of its
// verified domains'.
func (s Settings) Covers(email string) bool {
	d, ok := DomainOf(email)
	return ok && slices.Contains(s.VerifiedDomains, d)
}

// MaxDomains bounds an organisation's domains.
const MaxDomains = 20

// DomainOf is the lower-cased domain of an e-mail address; false when
// email is not one.
func DomainOf(email string) (string, bool) {
	at := strings.LastIndexByte(email, '@')
	if at <= 0 {
		return "", false
	}
	d, err := NormaliseDomain(email[at+1:])
	return d, err == nil
}

// NormaliseDomain is domain in lower case, without spaces or a final
// dot, or an error saying why it is not a domain name: letters, digits
// and hyphens in labels of at most 63, at least two labels, no
// wildcard, no address.
func NormaliseDomain(domain string) (string, error) {
	d := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if d == "" {
		return "", errors.New("is empty")
	}
	if len(d) > 253 {
		return "", errors.New("is longer than 253 characters")
	}
	if net.ParseIP(d) != nil {
		return "", errors.New("is an address, not a domain name")
	}
	labels := strings.Split(d, ".")
	if len(labels) < 2 {
		return "", errors.New("needs at least two labels (e.g. example.co.in)")
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return "", errors.New("has an empty, too long or hyphen-edged label")
		}
		for _, c := range l {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return "", errors.New("may hold only letters, digits, hyphens and dots (no wildcard)")
			}
		}
	}
	return d, nil
}

// Input is what an admin sets. ClientSecret "" keeps the stored one.
type Input struct {
	Issuer, ClientID, ClientSecret string
	Domains                        []string
	Enabled                        bool
}

// Check checks in and merges it over old (the stored settings, zero for
// none): the settings to store, or the problems by field (JSON names).
// The issuer is an https URL without query or fragment (http only on a
// loopback host, for tests and local providers).
func Check(old Settings, in Input) (Settings, map[string]string) {
	bad := map[string]string{}
	// The issuer is kept as written: it must equal the provider's own
	// (its discovery document's and its tokens' iss), trailing slash and all.
	s := Settings{OrganisationID: old.OrganisationID, Issuer: strings.TrimSpace(in.Issuer),
		ClientID: strings.TrimSpace(in.ClientID), ClientSecret: old.ClientSecret, Enabled: in.Enabled, Domains: []string{},
		VerifiedDomains: []string{}, Verification: old.Verification}
	if s.Verification == "" {
		s.Verification = NewVerification()
	}
	if msg := checkIssuer(s.Issuer); msg != "" {
		bad["issuer"] = msg
	}
	switch {
	case s.ClientID == "":
		bad["clientId"] = "is required: the client id the provider gave RegPulse"
	case len(s.ClientID) > 255:
		bad["clientId"] = "is longer than 255 characters"
	}
	if in.ClientSecret != "" {
		if len(in.ClientSecret) > 1024 {
			bad["clientSecret"] = "is longer than 1024 characters"
		}
		s.ClientSecret = in.ClientSecret
	}
	if len(in.Domains) == 0 {
		bad["domains"] = "name at least one e-mail domain (e.g. example.co.in)"
	}
	if len(in.Domains) > MaxDomains {
		bad["domains"] = "at most 20 domains"
	}
	for _, raw := range in.Domains {
		d, err := NormaliseDomain(raw)
		if err != nil {
			bad["domains"] = `"` + raw + `" ` + err.Error()
			break
		}
		if !slices.Contains(s.Domains, d) {
			s.Domains = append(s.Domains, d)
		}
	}
	slices.Sort(s.Domains)
	for _, d := range old.VerifiedDomains { // a domain kept stays verified
		if slices.Contains(s.Domains, d) {
			s.VerifiedDomains = append(s.VerifiedDomains, d)
		}
	}
	if len(bad) > 0 {
		return old, bad
	}
	return s, nil
}

func checkIssuer(issuer string) string {
	if issuer == "" {
		return "is required: the provider's issuer URL (https://...)"
	}
	if len(issuer) > 500 {
		return "is longer than 500 characters"
	}
	u, err := url.Parse(issuer)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "must be an absolute URL without query, fragment or credentials"
	}
	switch u.Scheme {
	case "https":
	case "http":
		if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "must use https (http only on a loopback address)"
		}
	default:
		return "must use https"
	}
	return ""
}

// Errors of single sign-on, each a message for the person signing in.
var (
	ErrNotConfigured  = errors.New("this organisation has no single sign-on settings")
	ErrNoOrganisation = errors.New("no organisation signs in addresses of this e-mail domain through single sign-on: sign in with your password")
	ErrDisabled       = errors.New("single sign-on is turned off for this organisation: sign in with your password")
	ErrDomainTaken    = errors.New("another organisation has already verified this e-mail domain")
	ErrBadFlow        = errors.New("this sign-in has expired, was already used, or was started in another browser: start again")
	ErrProvider       = errors.New("the organisation's identity provider could not be reached or refused the sign-in: try again later or ask your administrator")
	ErrBadIDToken     = errors.New("the identity provider's answer could not be verified: ask your administrator to check the single sign-on settings")
	ErrUnverified     = errors.New("the identity provider has not verified your e-mail address")
	ErrOtherDomain    = errors.New("the identity provider gave an e-mail address outside the organisation's domains")
	ErrNotMember      = errors.New("an account with this e-mail address exists but is not a member of this organisation: sign in with your password, and ask an admin of the organisation for an invitation")
)

// Lookup answers the TXT records of a DNS name (net.Resolver.LookupTXT).
type Lookup func(ctx context.Context, name string) ([]string, error)

// Verify looks up the records of s's domains not verified yet: the
// domains now proven, and why each other one is not (its record missing
// or holding another value, or the lookup failing).
func Verify(ctx context.Context, s Settings, lookup Lookup) (proven []string, why map[string]string) {
	why = map[string]string{}
	want := s.Shown().RecordValue
	for _, d := range s.Domains {
		if slices.Contains(s.VerifiedDomains, d) {
			continue
		}
		texts, err := lookup(ctx, RecordName(d))
		if err != nil {
			why[d] = "no TXT record at " + RecordName(d) + " (" + err.Error() + ")"
			continue
		}
		if !slices.Contains(texts, want) {
			why[d] = "the TXT records at " + RecordName(d) + " do not hold " + want
			continue
		}
		proven = append(proven, d)
	}
	return proven, why
}
