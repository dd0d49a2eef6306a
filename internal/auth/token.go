package auth

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Issuer and audience of RegPulse's tokens; a token naming others is refused.
const (
	TokenIssuer   = "regpulse"
	TokenAudience = "regpulse-api"
)

// DefaultTokenTTL is how long a token is valid.
const DefaultTokenTTL = 7 * 24 * time.Hour

// MinSecretLen is the shortest signing secret accepted: HS256 needs at
// least the hash's 32 bytes.
const MinSecretLen = 32

// leeway absorbs clock differences between servers.
const leeway = 30 * time.Second

// ErrBadToken is any token that does not identify a user: malformed,
// tampered, expired, of another algorithm, issuer or audience.
var ErrBadToken = errors.New("auth: invalid token")

// Tokens issues and checks the JWTs that identify signed-in users. The
// algorithm is pinned to HS256: a token signed otherwise (none, RS256, …)
// is refused whatever its header says.
type Tokens struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewTokens returns Tokens signing with secret (at least MinSecretLen
// bytes), valid for ttl (DefaultTokenTTL when 0); now is the clock (nil:
// time.Now).
func NewTokens(secret []byte, ttl time.Duration, now func() time.Time) (*Tokens, error) {
	if len(secret) < MinSecretLen {
		return nil, fmt.Errorf("auth: the token secret is %d bytes; use at least %d", len(secret), MinSecretLen)
	}
	if ttl <= 0 {
		ttl = DefaultTokenTTL
	}
	if now == nil {
		now = time.Now
	}
	return &Tokens{secret: secret, ttl: ttl, now: now}, nil
}

// claims are a token's: the registered ones, with the user id as subject,
// and the user's token version.
type claims struct {
	jwt.RegisteredClaims
	Version int `json:"ver"`
}

// Issue returns a token for u, carrying u.TokenVersion.
func (t *Tokens) Issue(u User) (string, error) {
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", err
	}
	now := t.now()
	c := claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    TokenIssuer,
			Subject:   u.ID,
			Audience:  jwt.ClaimStrings{TokenAudience},
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(t.ttl)),
			ID:        base64.RawURLEncoding.EncodeToString(jti),
		},
		Version: u.TokenVersion,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(t.secret)
}

// Parse checks a token's signature (HS256 only), issuer, audience, expiry
// and times, and returns the user id and token version it carries.
func (t *Tokens) Parse(token string) (userID string, version int, err error) {
	var c claims
	p := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(TokenIssuer),
		jwt.WithAudience(TokenAudience),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(leeway),
		jwt.WithTimeFunc(t.now),
		jwt.WithStrictDecoding(),
	)
	_, err = p.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return t.secret, nil })
	if err != nil || c.Subject == "" {
		return "", 0, ErrBadToken
	}
	return c.Subject, c.Version, nil
}
