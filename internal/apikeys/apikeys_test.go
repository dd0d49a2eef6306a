package apikeys

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestNew(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		token, hash, prefix := New()
		if !WellFormed(token) || !IsKey(token) {
			t.Fatalf("%q is not well formed", token)
		}
		if len(token) != 47 || !strings.HasPrefix(token, prefix) || len(prefix) != 12 {
			t.Errorf("token %q, prefix %q", token, prefix)
		}
		if hash != Hash(token) || len(hash) != 64 || strings.Contains(hash, token) {
			t.Errorf("hash %q of %q", hash, token)
		}
		if seen[token] {
			t.Fatalf("%q twice", token)
		}
		seen[token] = true
	}
}

func TestHash(t *testing.T) {
	// SHA-256 of "rpk_test", checked with sha256sum.
	if got, want := Hash("rpk_test"), "9bddbc87cad095b9e576179a6d36939d0b2e07bda5f7193a15a60210cf09b486"; got != want {
		t.Errorf("Hash = %q", got)
	}
	if Hash("rpk_a") == Hash("rpk_b") {
		t.Error("two tokens, one hash")
	}
}

func TestWellFormed(t *testing.T) {
	token, _, _ := New()
	cases := []struct {
		token string
		want  bool
	}{
		{token, true},
		{"", false},
		{"rpk_", false},
		{token[:len(token)-1], false},
		{token + "A", false},
		{"rpx_" + token[4:], false},
		{"rpk_" + strings.Repeat("+", 43), false},       // not base64url
		{"rpk_" + strings.Repeat("A", 42) + "B", false}, // non-zero padding bits
		{"eyJhbGciOiJIUzI1NiJ9.e30.x", false},
	}
	for _, tc := range cases {
		if got := WellFormed(tc.token); got != tc.want {
			t.Errorf("WellFormed(%q) = %v, want %v", tc.token, got, tc.want)
		}
	}
}

func TestScope_Allows(t *testing.T) {
	permissions := []string{"read", "decide", "review", "manage", ""}
	cases := []struct {
		scope Scope
		want  []string
	}{
		{Read, []string{"read"}},
		{ReadWrite, []string{"read", "decide"}},
		{"admin", nil},
		{"", nil},
	}
	for _, tc := range cases {
		var got []string
		for _, p := range permissions {
			if tc.scope.Allows(p) {
				got = append(got, p)
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q allows (-want +got):\n%s", tc.scope, diff)
		}
	}
	if diff := cmp.Diff([]string{"read", "read-write"}, ScopesFor("read")); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"read-write"}, ScopesFor("decide")); diff != "" {
		t.Error(diff)
	}
	if got := ScopesFor("manage"); got != nil {
		t.Errorf("manage: %v", got)
	}
	if !Read.Valid() || !ReadWrite.Valid() || Scope("write").Valid() {
		t.Error("Valid")
	}
}

func TestKey_Check(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	cases := []struct {
		name   string
		key    Key
		want   error
		status string
	}{
		{"active", Key{ExpiresAt: now.Add(time.Hour)}, nil, "active"},
		{"expires now", Key{ExpiresAt: now}, ErrExpired, "expired"},
		{"expired", Key{ExpiresAt: now.Add(-time.Second)}, ErrExpired, "expired"},
		{"revoked", Key{ExpiresAt: now.Add(time.Hour), RevokedAt: at(-time.Minute)}, ErrRevoked, "revoked"},
		{"revoked and expired", Key{ExpiresAt: now.Add(-time.Hour), RevokedAt: at(-2 * time.Hour)}, ErrRevoked, "revoked"},
		{"revoked later", Key{ExpiresAt: now.Add(time.Hour), RevokedAt: at(time.Minute)}, nil, "active"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.key.Check(now); got != tc.want {
				t.Errorf("Check = %v, want %v", got, tc.want)
			}
			if got := tc.key.StatusAt(now); got != tc.status {
				t.Errorf("StatusAt = %q, want %q", got, tc.status)
			}
		})
	}
}

func TestKey_NeedsTouch(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	cases := []struct {
		last *time.Time
		want bool
	}{
		{nil, true},
		{at(-59 * time.Second), false},
		{at(-time.Minute), true},
		{at(-time.Hour), true},
	}
	for _, tc := range cases {
		if got := (Key{LastUsedAt: tc.last}).NeedsTouch(now); got != tc.want {
			t.Errorf("last used %v: %v, want %v", tc.last, got, tc.want)
		}
	}
	if got := (Key{ID: "k1"}).ActorID(); got != "apikey:k1" {
		t.Errorf("ActorID = %q", got)
	}
}

func TestCheckExpiry(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { t := now.Add(d); return &t }
	cases := []struct {
		expires *time.Time
		want    string
	}{
		{nil, "is required: a time in the future, at most 366 days away"},
		{at(0), "must be in the future"},
		{at(-time.Hour), "must be in the future"},
		{at(time.Minute), ""},
		{at(MaxLifetime), ""},
		{at(MaxLifetime + time.Second), "must be at most 366 days away"},
	}
	for _, tc := range cases {
		if got := CheckExpiry(tc.expires, now); got != tc.want {
			t.Errorf("CheckExpiry(%v) = %q, want %q", tc.expires, got, tc.want)
		}
	}
}
