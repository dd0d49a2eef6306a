// Package ssotest is an OpenID Connect provider for tests, served on
// loopback: a discovery document, its RSA key as a JWKS (go-jose), an
// /authorize that signs in whoever User says at once and redirects
// back with a code, and a /token that checks the code, the client and
// the PKCE verifier and issues a signed ID token. Tests change what the
// next token says (User, Tamper) to make it wrong.
package ssotest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// User is who the provider signs in.
type User struct {
	Subject, Email        string
	EmailVerified         bool
	GivenName, FamilyName string
}

// Provider is the test provider.
type Provider struct {
	ClientID, ClientSecret string

	mu sync.Mutex
	// User is signed in by the next /authorize.
	user User
	// tamper changes the next ID tokens' claims (nil: none).
	tamper func(claims map[string]any)
	codes  map[string]grant
	key    *rsa.PrivateKey
	issuer string
	now    func() time.Time
	// Authorized counts the /authorize requests.
	authorized int
	// hint: /authorize signs in the address login_hint names.
	hint bool
}

type grant struct {
	user                               User
	clientID, redirectURI, nonce, pkce string
}

// New is a provider for clientID and clientSecret whose issuer will be
// set by Serve.
func New(clientID, clientSecret string) *Provider {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return &Provider{ClientID: clientID, ClientSecret: clientSecret, key: key, codes: map[string]grant{}, now: time.Now,
		user: User{Subject: "sub-1", Email: "asha@example.co.in", EmailVerified: true, GivenName: "Asha", FamilyName: "Rao"}}
}

// Start serves a new provider on loopback until t ends.
func Start(t testing.TB, clientID, clientSecret string) *Provider {
	t.Helper()
	p := New(clientID, clientSecret)
	srv := httptest.NewServer(nil)
	p.issuer = srv.URL
	srv.Config.Handler = p.Handler()
	t.Cleanup(srv.Close)
	return p
}

// SetIssuer sets the issuer URL (where Handler is served).
func (p *Provider) SetIssuer(issuer string) { p.issuer = issuer }

// Issuer is the provider's issuer URL.
func (p *Provider) Issuer() string { return p.issuer }

// SetUser makes the next sign-ins user's.
func (p *Provider) SetUser(u User) { p.mu.Lock(); p.user = u; p.mu.Unlock() }

// Tamper changes the claims of the ID tokens of the next sign-ins (nil:
// none).
func (p *Provider) Tamper(f func(claims map[string]any)) { p.mu.Lock(); p.tamper = f; p.mu.Unlock() }

// SignInHinted makes /authorize sign in the address its login_hint
// names (verified, named after its local part) rather than the User:
// what a browser test needs, which cannot reach SetUser.
func (p *Provider) SignInHinted() { p.mu.Lock(); p.hint = true; p.mu.Unlock() }

// SetNow sets the provider's clock.
func (p *Provider) SetNow(now func() time.Time) { p.mu.Lock(); p.now = now; p.mu.Unlock() }

// Authorized is how many /authorize requests came.
func (p *Provider) Authorized() int { p.mu.Lock(); defer p.mu.Unlock(); return p.authorized }

// Handler serves the provider's endpoints.
func (p *Provider) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{
			"issuer": p.issuer, "authorization_endpoint": p.issuer + "/authorize", "token_endpoint": p.issuer + "/token",
			"jwks_uri": p.issuer + "/jwks", "response_types_supported": []string{"code"}, "subject_types_supported": []string{"public"},
			"id_token_signing_alg_values_supported": []string{"RS256"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "client_secret_post"},
			"scopes_supported":                      []string{"openid", "email", "profile"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &p.key.PublicKey, KeyID: "test-key", Algorithm: "RS256", Use: "sig"}}})
	})
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	return mux
}

func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Host == "" {
		http.Error(w, "bad redirect_uri", http.StatusBadRequest)
		return
	}
	if q.Get("client_id") != p.ClientID || q.Get("response_type") != "code" || q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	code := randomText()
	p.mu.Lock()
	p.authorized++
	user := p.user
	if hint := q.Get("login_hint"); p.hint && hint != "" {
		local, _, _ := strings.Cut(hint, "@")
		user = User{Subject: "sub-" + hint, Email: hint, EmailVerified: true, GivenName: local, FamilyName: "Test"}
	}
	p.codes[code] = grant{user: user, clientID: p.ClientID, redirectURI: redirect.String(), nonce: q.Get("nonce"), pkce: q.Get("code_challenge")}
	p.mu.Unlock()
	back := redirect.Query()
	back.Set("code", code)
	back.Set("state", q.Get("state"))
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if ok { // the form's values are URL-encoded in basic auth (RFC 6749 2.3.1)
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != p.ClientID || subtle.ConstantTimeCompare([]byte(secret), []byte(p.ClientSecret)) != 1 {
		tokenError(w, "invalid_client")
		return
	}
	code := r.PostForm.Get("code")
	p.mu.Lock()
	g, ok := p.codes[code]
	delete(p.codes, code) // a code works once
	tamper, now := p.tamper, p.now()
	p.mu.Unlock()
	sum := sha256.Sum256([]byte(r.PostForm.Get("code_verifier")))
	switch {
	case r.PostForm.Get("grant_type") != "authorization_code" || !ok:
		tokenError(w, "invalid_grant")
		return
	case r.PostForm.Get("redirect_uri") != g.redirectURI:
		tokenError(w, "invalid_grant")
		return
	case base64.RawURLEncoding.EncodeToString(sum[:]) != g.pkce:
		tokenError(w, "invalid_grant")
		return
	}
	claims := map[string]any{"iss": p.issuer, "sub": g.user.Subject, "aud": g.clientID, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
		"nonce": g.nonce, "email": g.user.Email, "email_verified": g.user.EmailVerified, "given_name": g.user.GivenName, "family_name": g.user.FamilyName}
	if tamper != nil {
		tamper(claims)
	}
	idToken, err := p.Sign(claims)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": randomText(), "token_type": "Bearer", "expires_in": 300, "id_token": idToken})
}

// Sign is claims as a JWT signed with the provider's key (RS256).
func (p *Provider) Sign(claims map[string]any) (string, error) {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: p.key, KeyID: "test-key"}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	return jwt.Signed(signer).Claims(claims).Serialize()
}

func tokenError(w http.ResponseWriter, code string) {
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func randomText() string {
	b := make([]byte, 18)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
