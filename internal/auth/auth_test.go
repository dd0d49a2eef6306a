package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

var (
	testSecret = []byte("0123456789abcdef0123456789abcdef")
	testNow    = time.Date(2025, 6, 30, 12, 0, 0, 0, time.UTC)
	cheap      = Hasher{MemoryKiB: 64, Iterations: 1, Threads: 1}
)

func testTokens(t *testing.T, now time.Time) *Tokens {
	t.Helper()
	tk, err := NewTokens(testSecret, time.Hour, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func TestPassword(t *testing.T) {
	h, err := cheap.Hash("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h, "correct horse") || !strings.HasPrefix(h, "$argon2id$v=19$m=64,t=1,p=1$") {
		t.Fatalf("hash %q", h)
	}
	if h2, _ := cheap.Hash("correct horse"); h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		name, pw string
		want     bool
	}{{"Right", "correct horse", true}, {"Wrong", "correct horsE", false}, {"Empty", "", false}} {
		t.Run(tc.name, func(t *testing.T) {
			ok, err := Verify(h, tc.pw)
			if err != nil || ok != tc.want {
				t.Errorf("Verify = %v, %v; want %v", ok, err, tc.want)
			}
		})
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=64,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", "$argon2id$v=19$m=99999999,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5"} {
		if _, err := Verify(bad, "x"); err == nil {
			t.Errorf("Verify(%q) accepted a malformed hash", bad)
		}
	}
	if err := (Hasher{MemoryKiB: 1, Iterations: 1, Threads: 1}).Check(); err == nil {
		t.Error("a 1 KiB cost passed Check")
	}
	if err := DefaultHasher.Check(); err != nil {
		t.Error(err)
	}
}

func TestTokens(t *testing.T) {
	tk := testTokens(t, testNow)
	u := User{ID: "user-1", TokenVersion: 3}
	good, err := tk.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Valid", func(t *testing.T) {
		id, ver, err := tk.Parse(good)
		if err != nil || id != "user-1" || ver != 3 {
			t.Errorf("Parse = %q, %d, %v", id, ver, err)
		}
	})
	sign := func(t *testing.T, m jwt.SigningMethod, key any, c jwt.Claims) string {
		t.Helper()
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := func() claims {
		return claims{RegisteredClaims: jwt.RegisteredClaims{Issuer: TokenIssuer, Subject: "user-1", Audience: jwt.ClaimStrings{TokenAudience},
			IssuedAt: jwt.NewNumericDate(testNow), ExpiresAt: jwt.NewNumericDate(testNow.Add(time.Hour))}}
	}
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	parts := strings.Split(good, ".")
	for _, tc := range []struct {
		name  string
		token func(t *testing.T) string
	}{
		{"ErrTampered", func(*testing.T) string {
			c := base()
			c.Subject = "admin-1"
			other := strings.Split(sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-00"), c), ".")
			return parts[0] + "." + other[1] + "." + parts[2] // payload swapped, signature kept
		}},
		{"ErrBadSignature", func(*testing.T) string { return parts[0] + "." + parts[1] + "." + strings.Repeat("A", len(parts[2])) }},
		{"ErrOtherSecret", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodHS256, []byte("another-secret-another-secret-00"), base())
		}},
		{"ErrExpired", func(*testing.T) string { return mustIssue(t, testTokens(t, testNow.Add(-2*time.Hour)), u) }},
		{"ErrIssuedInFuture", func(*testing.T) string { return mustIssue(t, testTokens(t, testNow.Add(2*time.Hour)), u) }},
		{"ErrAlgNone", func(t *testing.T) string {
			return sign(t, jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, base())
		}},
		{"ErrAlgHS512", func(t *testing.T) string { return sign(t, jwt.SigningMethodHS512, testSecret, base()) }},
		{"ErrAlgES256", func(t *testing.T) string { return sign(t, jwt.SigningMethodES256, ec, base()) }},
		{"ErrWrongIssuer", func(t *testing.T) string {
			c := base()
			c.Issuer = "someone"
			return sign(t, jwt.SigningMethodHS256, testSecret, c)
		}},
		{"ErrWrongAudience", func(t *testing.T) string {
			c := base()
			c.Audience = nil
			return sign(t, jwt.SigningMethodHS256, testSecret, c)
		}},
		{"ErrNoExpiry", func(t *testing.T) string {
			c := base()
			c.ExpiresAt = nil
			return sign(t, jwt.SigningMethodHS256, testSecret, c)
		}},
		{"ErrNoSubject", func(t *testing.T) string {
			c := base()
			c.Subject = ""
			return sign(t, jwt.SigningMethodHS256, testSecret, c)
		}},
		{"ErrGarbage", func(*testing.T) string { return "not.a.token" }},
		{"ErrEmpty", func(*testing.T) string { return "" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if id, _, err := tk.Parse(tc.token(t)); err != ErrBadToken {
				t.Errorf("Parse = %q, %v; want ErrBadToken", id, err)
			}
		})
	}
	if _, err := NewTokens([]byte("short"), 0, nil); err == nil {
		t.Error("NewTokens accepted a 5-byte secret")
	}
}

func mustIssue(t *testing.T, tk *Tokens, u User) string {
	t.Helper()
	s, err := tk.Issue(u)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLoadSecret(t *testing.T) {
	noEnv := func(string) string { return "" }
	t.Run("GeneratedOnceWithMode0600", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "data")
		a, err := LoadSecret(dir, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(filepath.Join(dir, SecretFile))
		if err != nil || info.Mode().Perm() != 0o600 {
			t.Fatalf("secret file: %v, %v", info, err)
		}
		b, err := LoadSecret(dir, noEnv)
		if err != nil || string(a) != string(b) || len(a) < MinSecretLen {
			t.Errorf("second load = %q, %v; first %q", b, err, a)
		}
	})
	t.Run("FromEnvironment", func(t *testing.T) {
		dir := t.TempDir()
		s, err := LoadSecret(dir, func(k string) string { return map[string]string{SecretEnv: string(testSecret)}[k] })
		if err != nil || string(s) != string(testSecret) {
			t.Errorf("= %q, %v", s, err)
		}
		if _, err := os.Stat(filepath.Join(dir, SecretFile)); err == nil {
			t.Error("a secret file was written although the environment gives one")
		}
	})
	t.Run("ErrShortEnvironment", func(t *testing.T) {
		if _, err := LoadSecret(t.TempDir(), func(string) string { return "short" }); err == nil {
			t.Error("accepted a short secret")
		}
	})
	t.Run("ErrReadableByOthers", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, SecretFile), []byte(string(testSecret)), 0o644)
		os.Chmod(filepath.Join(dir, SecretFile), 0o644)
		if _, err := LoadSecret(dir, noEnv); err == nil {
			t.Error("accepted a world-readable secret file")
		}
	})
}
