package sso

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"regpulse/internal/auth"
)

// FlowFor is how long a started sign-in may take to come back.
const FlowFor = 10 * time.Minute

// CookieName is the cookie that carries the sealed Flow between the
// start and the callback.
const CookieName = "regpulse_sso"

// Flow is one sign-in under way: what the callback checks the
// provider's answer against. It travels sealed (Seal) in a cookie of
// the browser that started it, so the callback works on any instance.
type Flow struct {
	OrganisationID string    `json:"o"`
	State          string    `json:"s"`
	Nonce          string    `json:"n"`
	Verifier       string    `json:"v"` // PKCE (RFC 7636)
	Next           string    `json:"x"` // a same-site path (SafeNext)
	Expires        time.Time `json:"e"`
}

// StateHash is what the store keeps of a used flow's state, so the
// callback accepts each flow once (replays are refused).
func (f Flow) StateHash() string {
	sum := sha256.Sum256([]byte(f.State))
	return hex.EncodeToString(sum[:])
}

// Flows makes, seals and opens flows with a key derived from the
// server's signing secret.
type Flows struct {
	key []byte
	now func() time.Time
}

// NewFlows derives the flows' key from secret; now is the clock (nil:
// time.Now).
func NewFlows(secret []byte, now func() time.Time) (*Flows, error) {
	if len(secret) < 16 {
		return nil, errors.New("sso: the signing secret is too short")
	}
	if now == nil {
		now = time.Now
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("regpulse sso flow v1"))
	return &Flows{key: m.Sum(nil), now: now}, nil
}

func random() string {
	b := make([]byte, 24)
	rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// LoadFlows derives the key from the server's kept signing secret
// (auth.LoadSecret), so a sign-in started on one instance finishes on
// another.
func LoadFlows(dataDir string, getenv func(string) string) (*Flows, error) {
	secret, err := auth.LoadSecret(dataDir, getenv)
	if err != nil {
		return nil, err
	}
	return NewFlows(secret, nil)
}

// Begin starts a flow for organisation orgID returning to next (made
// safe by SafeNext).
func (fs *Flows) Begin(orgID, next string) Flow {
	return Flow{OrganisationID: orgID, State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier(),
		Next: SafeNext(next), Expires: fs.now().Add(FlowFor).UTC().Truncate(time.Second)}
}

func (fs *Flows) mac(payload string) string {
	m := hmac.New(sha256.New, fs.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// Seal is f as a cookie value: its JSON and an HMAC-SHA256 of it. It is
// signed, not encrypted: the state, nonce and verifier are worthless
// without the browser's session at the provider, and expire with it.
func (fs *Flows) Seal(f Flow) string {
	b, _ := json.Marshal(f)
	payload := base64.RawURLEncoding.EncodeToString(b)
	return payload + "." + fs.mac(payload)
}

// Open is the flow sealed in value when it was sealed with this key,
// has not expired and its state is state (the callback's): else
// ErrBadFlow.
func (fs *Flows) Open(value, state string) (Flow, error) {
	payload, sig, ok := strings.Cut(value, ".")
	if !ok || len(value) > 4096 || !hmac.Equal([]byte(sig), []byte(fs.mac(payload))) {
		return Flow{}, ErrBadFlow
	}
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return Flow{}, ErrBadFlow
	}
	var f Flow
	if err := json.Unmarshal(b, &f); err != nil || f.State == "" || f.Nonce == "" || f.Verifier == "" {
		return Flow{}, ErrBadFlow
	}
	if !fs.now().Before(f.Expires) || !hmac.Equal([]byte(f.State), []byte(state)) {
		return Flow{}, ErrBadFlow
	}
	f.Next = SafeNext(f.Next)
	return f, nil
}

// SafeNext is next when it is a path on this site, else "/": never
// another origin ("//host", "/\host", "https://..."), so the sign-in
// cannot be used to send someone elsewhere (no open redirect).
func SafeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") || len(next) > 2000 {
		return "/"
	}
	for _, c := range next {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return "/"
		}
	}
	return next
}
