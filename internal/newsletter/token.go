package newsletter

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"

	"regpulse/internal/auth"
)

// Tokens signs and checks unsubscribe tokens. A token is the subscriber's
// id and an HMAC-SHA256 of it: it needs no sign-in and no stored state,
// cannot be made for another id without the key, and stays valid for as
// long as the key does (links in old e-mails keep working).
type Tokens struct{ key []byte }

// ErrBadToken is any token that was not made with this key.
var ErrBadToken = errors.New("this unsubscribe link is not valid")

const tokenInfo = "regpulse newsletter unsubscribe v1"

// NewTokens derives the unsubscribe key from secret (the server's signing
// secret) with HKDF, so one kept secret serves sign-in tokens and
// unsubscribe links without either key revealing the other.
func NewTokens(secret []byte) (*Tokens, error) { return NewTokensFor(secret, tokenInfo) }

// NewTokensFor derives a key of its own for purpose (HKDF's info), so
// links signed for one purpose (the alerts') are never valid for another.
func NewTokensFor(secret []byte, purpose string) (*Tokens, error) {
	if len(secret) < 16 {
		return nil, errors.New("newsletter: the secret is too short")
	}
	key, err := hkdf.Key(sha256.New, secret, nil, purpose, 32)
	if err != nil {
		return nil, err
	}
	return &Tokens{key: key}, nil
}

func (t *Tokens) mac(id string) []byte {
	m := hmac.New(sha256.New, t.key)
	m.Write([]byte(id))
	return m.Sum(nil)
}

// Token is the unsubscribe token of the subscriber with id.
func (t *Tokens) Token(id string) string {
	return id + "." + base64.RawURLEncoding.EncodeToString(t.mac(id))
}

// Parse returns the subscriber id a token was made for, or ErrBadToken.
// The signature is compared in constant time.
func (t *Tokens) Parse(token string) (string, error) {
	id, sig, ok := strings.Cut(token, ".")
	if !ok || id == "" || len(id) > 128 {
		return "", ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, t.mac(id)) {
		return "", ErrBadToken
	}
	return id, nil
}

// LoadTokens derives the unsubscribe key from the server's kept signing
// secret (auth.LoadSecret: $REGPULSE_JWT_SECRET or the data folder's
// file), so the digest command and the API agree on every link.
func LoadTokens(dataDir string, getenv func(string) string) (*Tokens, error) {
	secret, err := auth.LoadSecret(dataDir, getenv)
	if err != nil {
		return nil, err
	}
	return NewTokens(secret)
}
