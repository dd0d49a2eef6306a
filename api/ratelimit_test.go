package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"regpulse/internal/auth"
)

// TestRateLimit_Shared checks that two API instances over one store with
// WithSharedRateLimits count the same sign-in attempts, and that each
// limit counts apart from the others.
func TestRateLimit_Shared(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	tokens, err := auth.NewTokens(testSecret, time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	cfg := AuthConfig{Tokens: tokens, Hasher: cheapHash, LoginLimit: 3, SignupLimit: 3, LimitWindow: time.Hour}
	instances := []http.Handler{
		New(f.db, discardLog, WithAuth(cfg), WithSharedRateLimits(f.db)),
		New(f.db, discardLog, WithAuth(cfg), WithSharedRateLimits(f.db)),
	}
	try := func(i int, path, body string) int {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = "192.0.2.9:1000"
		rec := httptest.NewRecorder()
		instances[i%2].ServeHTTP(rec, req)
		return rec.Code
	}
	login := `{"username":"nobody","password":"whatever"}`
	for i := range 3 {
		if code := try(i, "/auth/login", login); code == http.StatusTooManyRequests {
			t.Fatalf("attempt %d (instance %d) limited already", i+1, i%2)
		}
	}
	if code := try(3, "/auth/login", login); code != http.StatusTooManyRequests {
		t.Errorf("4th sign-in of 3 allowed, across two instances: %d, want 429", code)
	}
	t.Run("LimitsApart", func(t *testing.T) {
		if code := try(0, "/auth/signup", signupBody("apart", "apart@example.com")); code == http.StatusTooManyRequests {
			t.Errorf("sign-up limited by the sign-in attempts")
		}
	})
}
