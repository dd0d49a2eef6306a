package newsletter

import (
	"errors"

	"regpulse/internal/auth"
	"regpulse/internal/mail"
)

// Tokens signs and checks the newsletter's unsubscribe tokens: a
// subscriber's id signed with a key of the newsletter's own (mail.Tokens).
type Tokens struct{ t *mail.Tokens }

// ErrBadToken is any token that was not made with this key.
var ErrBadToken = errors.New("this unsubscribe link is not valid")

// NewTokens derives the unsubscribe key from secret (the server's signing
// secret).
func NewTokens(secret []byte) (*Tokens, error) {
	t, err := mail.NewTokens(secret, "regpulse newsletter unsubscribe v1")
	if err != nil {
		return nil, err
	}
	return &Tokens{t}, nil
}

// Token is the unsubscribe token of the subscriber with id.
func (t *Tokens) Token(id string) string { return t.t.Token(id) }

// Parse returns the subscriber id a token was made for, or ErrBadToken.
func (t *Tokens) Parse(token string) (string, error) {
	id, err := t.t.Parse(token)
	if err != nil {
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
