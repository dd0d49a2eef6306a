package api

import (
	"flag"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"regpulse/internal/auth"
)

// AuthFlags are the command-line settings of the accounts calls, shared
// by regpulse serve and regpulse-api.
type AuthFlags struct {
	LoginLimit, SignupLimit int
	LimitWindow             time.Duration
	TokenTTL                time.Duration
	HashMemoryKiB           uint
	HashIterations          uint
	TrustedProxies          string
}

// Register adds the flags to fs with their defaults.
func (a *AuthFlags) Register(fs *flag.FlagSet) {
	fs.IntVar(&a.LoginLimit, "login-limit", DefaultLoginLimit, "sign-in attempts (and password changes) allowed per client address per --limit-window")
	fs.IntVar(&a.SignupLimit, "signup-limit", DefaultSignupLimit, "sign-ups allowed per client address per --limit-window")
	fs.DurationVar(&a.LimitWindow, "limit-window", DefaultLimitWindow, "the window of --login-limit and --signup-limit")
	fs.DurationVar(&a.TokenTTL, "token-ttl", auth.DefaultTokenTTL, "how long a sign-in token is valid")
	fs.UintVar(&a.HashMemoryKiB, "hash-memory", uint(auth.DefaultHasher.MemoryKiB), "argon2id memory per password hash, in KiB (new hashes; stored ones keep theirs)")
	fs.UintVar(&a.HashIterations, "hash-iterations", uint(auth.DefaultHasher.Iterations), "argon2id passes per password hash")
	fs.StringVar(&a.TrustedProxies, "trusted-proxies", "", "comma-separated CIDR prefixes of reverse proxies whose X-Forwarded-For names the client (rate limits); empty: the peer address is the client")
}

// Config checks the flags and returns the accounts' configuration, with
// the token secret from $REGPULSE_JWT_SECRET or dataDir (auth.LoadSecret).
func (a *AuthFlags) Config(dataDir string, getenv func(string) string) (AuthConfig, error) {
	if a.LoginLimit < 1 || a.SignupLimit < 1 {
		return AuthConfig{}, fmt.Errorf("--login-limit and --signup-limit must be at least 1")
	}
	if a.LimitWindow < time.Second {
		return AuthConfig{}, fmt.Errorf("--limit-window %s is too short", a.LimitWindow)
	}
	if a.TokenTTL < time.Minute {
		return AuthConfig{}, fmt.Errorf("--token-ttl %s is too short", a.TokenTTL)
	}
	h := auth.Hasher{MemoryKiB: uint32(min(a.HashMemoryKiB, 1<<31)), Iterations: uint32(min(a.HashIterations, 1<<31)), Threads: auth.DefaultHasher.Threads}
	if err := h.Check(); err != nil {
		return AuthConfig{}, fmt.Errorf("--hash-memory/--hash-iterations: %w", err)
	}
	var proxies []string
	for _, p := range strings.Split(a.TrustedProxies, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := netip.ParsePrefix(p); err != nil {
			return AuthConfig{}, fmt.Errorf("--trusted-proxies: %q is not a CIDR prefix (e.g. 10.0.0.0/8)", p)
		}
		proxies = append(proxies, p)
	}
	secret, err := auth.LoadSecret(dataDir, getenv)
	if err != nil {
		return AuthConfig{}, err
	}
	tokens, err := auth.NewTokens(secret, a.TokenTTL, nil)
	if err != nil {
		return AuthConfig{}, err
	}
	return AuthConfig{Tokens: tokens, Hasher: h, LoginLimit: a.LoginLimit, SignupLimit: a.SignupLimit,
		LimitWindow: a.LimitWindow, TrustedProxies: proxies}, nil
}
