package mail

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
)

// Tokens signs and checks the tokens of an e-mail's links (unsubscribe,
// confirm). A token is an id and an HMAC-SHA256 of it: it needs no
// sign-in and no stored state, cannot be made for another id without the
// key, and stays valid for as long as the key does (links in old e-mails
// keep working).
type Tokens struct{ key []byte }

// ErrBadToken is any token that was not made with this key.
var ErrBadToken = errors.New("this link is not valid")

// NewTokens derives a key for purpose (HKDF's info) from secret (the
// server's signing secret), so one kept secret serves sign-in tokens and
// every kind of link without one key revealing another, and a link signed
// for one purpose is never valid for another.
func NewTokens(secret []byte, purpose string) (*Tokens, error) {
	if len(secret) < 16 {
		return nil, errors.New("mail: the secret is too short")
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

// Token is the token of id.
func (t *Tokens) Token(id string) string {
	return id + "." + base64.RawURLEncoding.EncodeToString(t.mac(id))
}

// Parse returns the id a token was made for, or ErrBadToken. The
// signature is compared in constant time.
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
