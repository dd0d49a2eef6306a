package teams

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/mail"
)

// Tokens signs the invitations' links with a key of their own
// (mail.Tokens), derived from the server's signing secret. A token
// carries the invitation's id and expiry; the store keeps only its hash
// (TokenHash), so a leaked database holds no working link.
type Tokens struct{ invite *mail.Tokens }

// ErrBadToken is a link not made with this key.
var ErrBadToken = errors.New("this invitation link is not valid")

// NewTokens derives the invitations' key from secret.
func NewTokens(secret []byte) (*Tokens, error) {
	t, err := mail.NewTokens(secret, "regpulse team invite v1")
	if err != nil {
		return nil, err
	}
	return &Tokens{invite: t}, nil
}

// LoadTokens derives the key from the server's kept signing secret.
func LoadTokens(dataDir string, getenv func(string) string) (*Tokens, error) {
	secret, err := auth.LoadSecret(dataDir, getenv)
	if err != nil {
		return nil, err
	}
	return NewTokens(secret)
}

// Invite is inv's link token.
func (t *Tokens) Invite(inv Invite) string {
	return t.invite.Token(inv.ID + "~" + strconv.FormatInt(inv.ExpiresAt.Unix(), 10))
}

// ParseInvite returns the invitation id of a token still valid at now:
// ErrBadToken for a forged one, ErrInviteExpired past its expiry.
func (t *Tokens) ParseInvite(token string, now time.Time) (string, error) {
	signed, err := t.invite.Parse(token)
	if err != nil {
		return "", ErrBadToken
	}
	id, exp, ok := strings.Cut(signed, "~")
	until, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil {
		return "", ErrBadToken
	}
	if now.Unix() >= until {
		return "", ErrInviteExpired
	}
	return id, nil
}

// TokenHash is what the store keeps of a token: its SHA-256, in hex.
func TokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
