package alerts

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/mail"
)

// Tokens signs the alerts' links: the per-alert unsubscribe link (valid
// as long as the key, as the newsletter's), the anonymous
// subscription's confirmation link (valid for ConfirmFor) and a followed
// Master Direction's unsubscribe link. Each has a
// key of its own (mail.Tokens), derived from the server's signing secret.
type Tokens struct {
	unsubscribe, confirm, follow *mail.Tokens
}

// ConfirmFor is how long a confirmation link works.
const ConfirmFor = 7 * 24 * time.Hour

// Errors of a link.
var (
	ErrBadToken     = errors.New("this link is not valid")
	ErrExpiredToken = errors.New("this confirmation link has expired; subscribe again to get a new one")
)

// NewTokens derives the alerts' keys from secret.
func NewTokens(secret []byte) (*Tokens, error) {
	u, err := mail.NewTokens(secret, "regpulse alert unsubscribe v1")
	if err != nil {
		return nil, err
	}
	c, err := mail.NewTokens(secret, "regpulse alert confirm v1")
	if err != nil {
		return nil, err
	}
	f, err := mail.NewTokens(secret, "regpulse direction follow unsubscribe v1")
	if err != nil {
		return nil, err
	}
	return &Tokens{unsubscribe: u, confirm: c, follow: f}, nil
}

// LoadTokens derives the keys from the server's kept signing secret, so
// the sender and the API agree on every link.
func LoadTokens(dataDir string, getenv func(string) string) (*Tokens, error) {
	secret, err := auth.LoadSecret(dataDir, getenv)
	if err != nil {
		return nil, err
	}
	return NewTokens(secret)
}

// Unsubscribe is the alert's unsubscribe token.
func (t *Tokens) Unsubscribe(alertID string) string { return t.unsubscribe.Token(alertID) }

// ParseUnsubscribe returns the alert id of an unsubscribe token.
func (t *Tokens) ParseUnsubscribe(token string) (string, error) {
	id, err := t.unsubscribe.Parse(token)
	if err != nil {
		return "", ErrBadToken
	}
	return id, nil
}

// Unfollow is a follow's unsubscribe token: a Master Direction's e-mails
// stop without signing in.
func (t *Tokens) Unfollow(followID string) string { return t.follow.Token(followID) }

// ParseUnfollow returns the follow id of an Unfollow token.
func (t *Tokens) ParseUnfollow(token string) (string, error) {
	id, err := t.follow.Parse(token)
	if err != nil {
		return "", ErrBadToken
	}
	return id, nil
}

// Confirm is the subscription's confirmation token, made at now.
func (t *Tokens) Confirm(alertID string, now time.Time) string {
	return t.confirm.Token(alertID + "~" + strconv.FormatInt(now.Add(ConfirmFor).Unix(), 10))
}

// ParseConfirm returns the alert id of a confirmation token still valid
// at now.
func (t *Tokens) ParseConfirm(token string, now time.Time) (string, error) {
	signed, err := t.confirm.Parse(token)
	if err != nil {
		return "", ErrBadToken
	}
	id, exp, ok := strings.Cut(signed, "~")
	until, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil {
		return "", ErrBadToken
	}
	if now.Unix() > until {
		return "", ErrExpiredToken
	}
	return id, nil
}
