// Package apikeys is an organisation's API keys (issue 47): the token's
// form, its hash (all the store keeps), the scopes and what each may do,
// the expiry and the check of a key at a time. It holds no SQL
// (internal/store/api_keys.go) and no HTTP (api/apikeys.go).
//
// A token is "rpk_" followed by 32 random bytes in unpadded base64url
// (43 characters): 256 bits, so a fast hash (SHA-256) is enough to store
// it (no password-style stretching: nothing can be guessed). The first
// characters (Prefix) are kept in clear so the list tells keys apart.
package apikeys

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"time"
)

// TokenPrefix starts every token: a scanner (or the API) tells a key
// from a signed-in person's token by it.
const TokenPrefix = "rpk_"

// tokenBytes is the randomness of a token.
const tokenBytes = 32

// tokenLen is a token's length: the prefix and 32 bytes in base64url.
var tokenLen = len(TokenPrefix) + base64.RawURLEncoding.EncodedLen(tokenBytes)

// shownLen is how much of a token the list shows: the prefix and 8
// characters (48 bits: enough to tell keys apart, nothing to guess with).
var shownLen = len(TokenPrefix) + 8

// Scope is what a key may do in its organisation.
type Scope string

const (
	// Read calls the organisation's reads (Permission "read") and the
	// public calls.
	Read Scope = "read"
	// ReadWrite also records decisions, comments and evidence
	// (Permission "decide"); every request it makes is audited.
	ReadWrite Scope = "read-write"
)

// Scopes are every scope, the narrowest first.
var Scopes = []string{string(Read), string(ReadWrite)}

// Valid reports whether s is a scope.
func (s Scope) Valid() bool { return slices.Contains(Scopes, string(s)) }

// Allows reports whether a key of scope s may call an operation of its
// organisation that asks permission ("read", "decide", "review",
// "manage"). Never "manage" nor "review": managing members, keys, single
// sign-on and webhooks, and accepting evidence, are a person's, signed
// in.
func (s Scope) Allows(permission string) bool {
	switch permission {
	case "read":
		return s == Read || s == ReadWrite
	case "decide":
		return s == ReadWrite
	}
	return false
}

// ScopesFor are the scopes that allow permission, narrowest first.
func ScopesFor(permission string) []string {
	var out []string
	for _, s := range Scopes {
		if Scope(s).Allows(permission) {
			out = append(out, s)
		}
	}
	return out
}

// The lifetime of a key: its expiry is required, at most MaxLifetime
// after its creation. A key that never expires is a credential forgotten
// in some system's configuration; a year is the longest rotation period
// common policies allow (and what the largest providers default to for
// long-lived keys), so a key is looked at again at least once a year.
const (
	MaxLifetime     = 366 * 24 * time.Hour
	DefaultLifetime = 90 * 24 * time.Hour
)

// TouchEvery is how stale a key's last use may be before a request
// records it again: its last-used time is never a write per request.
const TouchEvery = time.Minute

// Key is an organisation's API key, as stored (never its token).
type Key struct {
	ID             string `json:"id"`
	OrganisationID string `json:"organisationId"`
	Name           string `json:"name"`
	// Prefix is the token's first characters ("rpk_" and 8 more).
	Prefix    string    `json:"prefix"`
	Scope     Scope     `json:"scope" enum:"APIKeyScope"`
	ExpiresAt time.Time `json:"expiresAt"`
	// CreatedBy is the admin's user id ("" once they are deleted);
	// CreatedByName their name or username.
	CreatedBy     string     `json:"createdBy"`
	CreatedByName string     `json:"createdByName"`
	CreatedAt     time.Time  `json:"createdAt"`
	LastUsedAt    *time.Time `json:"lastUsedAt"`
	RevokedAt     *time.Time `json:"revokedAt"`
	// Status is Status at the time it was read (WithStatus).
	Status string `json:"status" enum:"APIKeyStatus"`
}

// Statuses are a key's states.
var Statuses = []string{"active", "revoked", "expired"}

// WithStatus is k with its Status at now.
func (k Key) WithStatus(now time.Time) Key {
	k.Status = k.StatusAt(now)
	return k
}

// Errors of Check, and of a key looked up.
var (
	// ErrNoKey: no key of the organisation has that id (or no key has
	// that token).
	ErrNoKey   = errors.New("no API key of this organisation has that id")
	ErrRevoked = errors.New("this API key was revoked")
	ErrExpired = errors.New("this API key has expired")
)

// Check is nil while k works at now: not revoked, not expired (a key
// expires at ExpiresAt exactly).
func (k Key) Check(now time.Time) error {
	switch {
	case k.RevokedAt != nil && !now.Before(*k.RevokedAt):
		return ErrRevoked
	case !now.Before(k.ExpiresAt):
		return ErrExpired
	}
	return nil
}

// StatusAt is "active", "revoked" or "expired" at now, for the list.
func (k Key) StatusAt(now time.Time) string {
	switch k.Check(now) {
	case ErrRevoked:
		return "revoked"
	case ErrExpired:
		return "expired"
	}
	return "active"
}

// NeedsTouch reports whether a use at now should be recorded: never
// used, or last used TouchEvery or more before.
func (k Key) NeedsTouch(now time.Time) bool {
	return k.LastUsedAt == nil || now.Sub(*k.LastUsedAt) >= TouchEvery
}

// ActorPrefix starts the audit trail's actor id of a key's action.
const ActorPrefix = "apikey:"

// ActorID is the audit trail's actor of k's actions: "apikey:" and its
// id, never a user's id (a person's actor id is a UUID).
func (k Key) ActorID() string { return ActorPrefix + k.ID }

// New makes a token: what the admin is shown once, its hash (what is
// stored and looked up) and its prefix (what the list shows).
func New() (token, hash, prefix string) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	token = TokenPrefix + base64.RawURLEncoding.EncodeToString(b)
	return token, Hash(token), token[:shownLen]
}

// Hash is a token's SHA-256, lower-case hex.
func Hash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// IsKey reports whether a bearer token is meant as an API key (it
// starts with TokenPrefix), well formed or not.
func IsKey(token string) bool { return strings.HasPrefix(token, TokenPrefix) }

// WellFormed reports whether token has a key's form: the prefix and 43
// base64url characters that decode to 32 bytes. One that has not is
// refused without a look-up.
func WellFormed(token string) bool {
	if len(token) != tokenLen || !IsKey(token) {
		return false
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(token[len(TokenPrefix):])
	return err == nil && len(b) == tokenBytes
}

// Name bounds.
const MaxNameLength = 100

// CheckExpiry says what is wrong with an expiry asked for at now ("" for
// nothing): it is required, in the future and at most MaxLifetime away.
func CheckExpiry(expires *time.Time, now time.Time) string {
	switch {
	case expires == nil:
		return "is required: a time in the future, at most 366 days away"
	case !expires.After(now):
		return "must be in the future"
	case expires.Sub(now) > MaxLifetime:
		return "must be at most 366 days away"
	}
	return ""
}
