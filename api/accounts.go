package api

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"regpulse/api/apispec"
	"regpulse/internal/auth"
	"regpulse/internal/i18n"
)

// accountRoutes: signing up and in, and the signed-in user's own
// account, each behind its rate limit or sign-in.
func accountRoutes() []*route {
	return []*route{
		limited(accountsLimit("signup", func(c AuthConfig) int { return c.SignupLimit }),
			handle(opSignup, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.signup(w, r) })),
		limited(accountsLimit("login", func(c AuthConfig) int { return c.LoginLimit }),
			handle(opLogin, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.login(w, r) })),
		signedIn(handle(opMe, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.me(w, r) })),
		signedIn(handle(opLogoutAll, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.logoutAll(w, r) })),
		signedIn(handle(opPreferences, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.getPreferences(w, r) })),
		signedIn(handle(opSavePreferences, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putPreferences(w, r) })),
		signedIn(handle(opSaveProfile, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putProfile(w, r) })),
		// Password changes count against the sign-in limit's number.
		limited(accountsLimit("password", func(c AuthConfig) int { return c.LoginLimit }),
			signedIn(handle(opChangePassword, func(h *Handler, w http.ResponseWriter, r *http.Request, _ none) { h.putPassword(w, r) }))),
	}
}

// accountsLimit is an accounts call's rate limit, of n(AuthConfig) tries
// per the configured window.
func accountsLimit(name string, n func(AuthConfig) int) func(*Handler) func(http.Handler) http.Handler {
	return func(h *Handler) func(http.Handler) http.Handler {
		return h.rateLimit(name, n(h.authCfg), h.authCfg.LimitWindow, "Too many attempts; try again later")
	}
}

var rConflict = &apispec.Response{Component: "Conflict", Description: "The username or e-mail (in any case) belongs to another account; fields names which.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

var opSignup = &apispec.Operation{ID: "signup", Method: "POST", Path: "/auth/signup",
	Summary:     "Create an account and sign in.",
	Description: "Username 3 to 50 characters, a valid e-mail, a password of 6 to 128 characters, first and last name. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SignupRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 201, Description: "Created; the token signs the new user in.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		rConflict.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opLogin = &apispec.Operation{ID: "login", Method: "POST", Path: "/auth/login",
	Summary:     "Sign in.",
	Description: "An unknown username and a wrong password get the same 401. Rate-limited per client address.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[LoginRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Signed in.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		{Status: 401, Description: "Invalid username or password.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

var opMe = &apispec.Operation{ID: "me", Method: "GET", Path: "/auth/me",
	Summary: "The signed-in user.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The user.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[MeResponse]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opLogoutAll = &apispec.Operation{ID: "logoutAll", Method: "POST", Path: "/auth/logout-all",
	Summary: "Log out everywhere: every token of the user, this one included, is refused from now on.",
	Responses: []*apispec.Response{
		{Status: 204, Description: "Done; no body."},
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opPreferences = &apispec.Operation{ID: "preferences", Method: "GET", Path: "/user/preferences",
	Summary: "The signed-in user's preferences.",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The preferences.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[auth.Preferences]()}}},
		rBadRequest.At(400),
		rUnauthorized.At(401),
		rInternalError.At(500)},
}

var opSavePreferences = &apispec.Operation{ID: "savePreferences", Method: "PUT", Path: "/user/preferences",
	Summary:     "Replace the signed-in user's preferences.",
	Description: "Every field is required but entityTypes, mentionEmails (an e-mail when a colleague @mentions you) and reminderEmails (the daily reminder of your decisions due within 7 days or overdue): absent, the stored choice is kept. circularSources from RBI, NPCI, SEBI, IRDAI, PFRDA, PRB, IDRBT; impactLevels from high, medium, low; categories from the search's categories; entityTypes from PSP, Issuer, Aggregator; each at most once.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[PreferencesRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[auth.Preferences]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opSaveProfile = &apispec.Operation{ID: "saveProfile", Method: "PUT", Path: "/user/profile",
	Summary: "Change the signed-in user's names and e-mail.",
	Body:    &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ProfileRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Saved; the user as now stored.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[MeResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rConflict.At(409),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rInternalError.At(500)},
}

var opChangePassword = &apispec.Operation{ID: "changePassword", Method: "PUT", Path: "/user/password",
	Summary:     "Change the signed-in user's password.",
	Description: "The current password is required. Every token issued before is revoked; the answer carries a new one. Rate-limited per client address like sign-in.",
	Body:        &apispec.Body{Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[PasswordRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "Changed; use the new token.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[TokenResponse]()}}},
		rBadBody.At(400),
		rUnauthorized.At(401),
		rPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rTooManyRequests.At(429),
		rInternalError.At(500)},
}

// Users is what the accounts calls need from persistence (auth's types).
type Users interface {
	// CreateUser stores a new user with the default preferences;
	// auth.ErrUsernameTaken or auth.ErrEmailTaken (in any case).
	CreateUser(ctx context.Context, u auth.NewUser) (auth.User, error)
	// UserByUsername and UserByID answer auth.ErrNoUser when there is none.
	UserByUsername(ctx context.Context, username string) (auth.User, error)
	UserByID(ctx context.Context, id string) (auth.User, error)
	RecordLogin(ctx context.Context, id string, at time.Time) error
	UpdateProfile(ctx context.Context, id string, p auth.Profile) (auth.User, error)
	// SetPassword and RevokeTokens raise the token version.
	SetPassword(ctx context.Context, id, hash string) (auth.User, error)
	RevokeTokens(ctx context.Context, id string) (auth.User, error)
	Preferences(ctx context.Context, userID string) (auth.Preferences, error)
	SavePreferences(ctx context.Context, userID string, c auth.Choices) (auth.Preferences, error)
}

// Default rate limits of sign-in and sign-up, per client address.
const (
	DefaultLoginLimit  = 10
	DefaultSignupLimit = 5
	DefaultLimitWindow = time.Minute
)

// AuthConfig configures the accounts calls; zero fields take defaults.
type AuthConfig struct {
	// Tokens signs and checks tokens; nil: a random secret for this
	// process (tokens do not survive a restart).
	Tokens *auth.Tokens
	// Hasher hashes new passwords; zero: auth.DefaultHasher.
	Hasher auth.Hasher
	// LoginLimit and SignupLimit are the attempts a client address may make
	// per LimitWindow (sign-in also bounds password changes).
	LoginLimit, SignupLimit int
	LimitWindow             time.Duration
	// TrustedProxies are the address prefixes (CIDR) of reverse proxies
	// whose X-Forwarded-For names the client; none: the peer address is
	// the client.
	TrustedProxies []string
}

// WithAuth configures the accounts calls.
func WithAuth(c AuthConfig) Option {
	return func(h *Handler) { h.authCfg = c }
}

// accounts holds the accounts calls' state.
type accounts struct {
	users  Users
	tokens *auth.Tokens
	hasher auth.Hasher
	// dummyHash is verified for unknown usernames, so they take as long.
	// Made at first need: a hash costs tens of milliseconds, too much for
	// a function's cold start.
	dummyHash func() string
}

func newAccounts(users Users, c *AuthConfig, now func() time.Time) (*accounts, error) {
	if c.Tokens == nil {
		secret := make([]byte, 32)
		rand.Read(secret)
		t, err := auth.NewTokens(secret, 0, now)
		if err != nil {
			return nil, err
		}
		c.Tokens = t
	}
	if c.Hasher == (auth.Hasher{}) {
		c.Hasher = auth.DefaultHasher
	}
	if c.LoginLimit <= 0 {
		c.LoginLimit = DefaultLoginLimit
	}
	if c.SignupLimit <= 0 {
		c.SignupLimit = DefaultSignupLimit
	}
	if c.LimitWindow <= 0 {
		c.LimitWindow = DefaultLimitWindow
	}
	if err := c.Hasher.Check(); err != nil {
		return nil, err
	}
	hasher := c.Hasher
	dummy := sync.OnceValue(func() string {
		h, _ := hasher.Hash("not a password anyone has: " + time.Now().String()) // Check passed: no error
		return h
	})
	return &accounts{users: users, tokens: c.Tokens, hasher: c.Hasher, dummyHash: dummy}, nil
}

// clientIP sets the client address the rate limits key on.
func clientIP(trusted []string) func(http.Handler) http.Handler {
	if len(trusted) > 0 {
		return middleware.ClientIPFromXFF(trusted...)
	}
	return middleware.ClientIPFromRemoteAddr
}

// clientKey is the rate limits' key: the client address (an IPv6 client
// by its /64, which one host usually has whole).
func clientKey(r *http.Request) (string, error) {
	ip := middleware.GetClientIP(r.Context())
	if ip == "" {
		ip, _, _ = net.SplitHostPort(r.RemoteAddr)
	}
	return httprate.CanonicalizeIP(ip), nil
}

// Request and response bodies of the accounts calls.
type (
	// SignupRequest is POST /auth/signup's body.
	SignupRequest struct {
		Username  string `json:"username" check:"username"`
		Email     string `json:"email" check:"email"`
		Password  string `json:"password" check:"password"`
		FirstName string `json:"firstName" check:"firstName"`
		LastName  string `json:"lastName" check:"lastName"`
	}
	// LoginRequest is POST /auth/login's body.
	LoginRequest struct {
		Username string `json:"username" check:"loginUsername"`
		Password string `json:"password" check:"loginPassword"`
	}
	// TokenResponse carries a token for the Authorization header.
	TokenResponse struct {
		Token string `json:"token"`
	}
	// MeResponse is the signed-in user.
	MeResponse struct {
		User auth.User `json:"user"`
	}
	// ProfileRequest is PUT /user/profile's body.
	ProfileRequest struct {
		FirstName string `json:"firstName" check:"firstName"`
		LastName  string `json:"lastName" check:"lastName"`
		Email     string `json:"email" check:"email"`
		// Language is the language of the user's e-mails; none keeps it.
		Language string `json:"language,omitempty" enum:"Language"`
	}
	// PasswordRequest is PUT /user/password's body.
	PasswordRequest struct {
		CurrentPassword string `json:"currentPassword" check:"currentPassword"`
		NewPassword     string `json:"newPassword" check:"password"`
	}
	// PreferencesRequest is PUT /user/preferences's body: every field but
	// entityTypes, mentionEmails and reminderEmails, which came later (a
	// client that does not send one keeps the stored choice).
	PreferencesRequest struct {
		CircularSources        []string `json:"circularSources"`
		ImpactLevels           []string `json:"impactLevels"`
		Categories             []string `json:"categories"`
		EntityTypes            []string `json:"entityTypes,omitempty"`
		EmailNotifications     *bool    `json:"emailNotifications"`
		NewsletterSubscription *bool    `json:"newsletterSubscription"`
		MentionEmails          *bool    `json:"mentionEmails,omitempty"`
		ReminderEmails         *bool    `json:"reminderEmails,omitempty"`
	}
)

var (
	errInvalidCredentials = errorStatus(http.StatusUnauthorized, "Invalid username or password")
	errSignInRequired     = errorStatus(http.StatusUnauthorized, "Sign in required: send a valid token as Authorization: Bearer")
)

// takenError is a 409 naming the field taken, or nil.
func takenError(err error) *Error {
	switch {
	case errors.Is(err, auth.ErrUsernameTaken):
		return &Error{Status: http.StatusConflict, Message: "Username already taken", Fields: map[string]string{"username": "Username already taken"}}
	case errors.Is(err, auth.ErrEmailTaken):
		return &Error{Status: http.StatusConflict, Message: "Email already registered", Fields: map[string]string{"email": "Email already registered"}}
	}
	return nil
}

// signIn records the sign-in and answers status with a new token.
func (h *Handler) signIn(w http.ResponseWriter, r *http.Request, status int, u auth.User) {
	if err := h.acc.users.RecordLogin(r.Context(), u.ID, h.now()); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeToken(w, r, status, u)
}

func (h *Handler) writeToken(w http.ResponseWriter, r *http.Request, status int, u auth.User) {
	token, err := h.acc.tokens.Issue(u)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, status, TokenResponse{Token: token})
}

// signup is POST /auth/signup: 201 with a token.
func (h *Handler) signup(w http.ResponseWriter, r *http.Request) {
	var req SignupRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	hash, err := h.acc.hasher.Hash(req.Password)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	u, err := h.acc.users.CreateUser(r.Context(), auth.NewUser{Username: req.Username, Email: req.Email, PasswordHash: hash,
		FirstName: req.FirstName, LastName: req.LastName, Language: requestLanguage(r).Code})
	if e := takenError(err); e != nil {
		h.writeError(w, r, e)
		return
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.signIn(w, r, http.StatusCreated, u)
}

// login is POST /auth/login. An unknown username and a wrong password get
// the same answer, after the same work (a dummy hash is verified).
func (h *Handler) login(w http.ResponseWriter, r *http.Request) {
	var req LoginRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	u, err := h.acc.users.UserByUsername(r.Context(), req.Username)
	hash := u.PasswordHash
	if errors.Is(err, auth.ErrNoUser) {
		hash = h.acc.dummyHash()
	} else if err != nil {
		h.writeError(w, r, err)
		return
	}
	ok, verr := auth.Verify(hash, req.Password)
	if verr != nil {
		h.log.Error("api: login: stored password hash unreadable", "user", u.ID, "err", verr)
	}
	if err != nil || !ok {
		h.writeError(w, r, errInvalidCredentials)
		return
	}
	h.signIn(w, r, http.StatusOK, u)
}

type userKey struct{}

// requireUser lets a request through only with a valid token of an
// existing user whose tokens it issued since the last revocation, or
// with an API key keyAuth let through (the principal is then the key:
// keyOf; only an organisation's calls are reached so).
func (h *Handler) requireUser(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := keyOf(r); ok { // an API key, let through by keyAuth
			next.ServeHTTP(w, r)
			return
		}
		u, err := h.currentUser(r)
		if err != nil {
			var e *Error
			if errors.As(err, &e) && e.Status == http.StatusUnauthorized {
				w.Header().Set("WWW-Authenticate", `Bearer realm="regpulse"`)
			}
			h.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), userKey{}, u)))
	})
}

func (h *Handler) currentUser(r *http.Request) (auth.User, error) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return auth.User{}, errSignInRequired
	}
	id, version, err := h.acc.tokens.Parse(strings.TrimSpace(token))
	if err != nil {
		return auth.User{}, errSignInRequired
	}
	u, err := h.acc.users.UserByID(r.Context(), id)
	if errors.Is(err, auth.ErrNoUser) || (err == nil && u.TokenVersion != version) {
		return auth.User{}, errSignInRequired
	}
	return u, err
}

func userOf(r *http.Request) auth.User { return r.Context().Value(userKey{}).(auth.User) }

// me is GET /auth/me.
func (h *Handler) me(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, MeResponse{User: userOf(r)})
}

// logoutAll is POST /auth/logout-all: every token of the user, this one
// included, is refused from now on.
func (h *Handler) logoutAll(w http.ResponseWriter, r *http.Request) {
	if _, err := h.acc.users.RevokeTokens(r.Context(), userOf(r).ID); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// getPreferences is GET /user/preferences.
func (h *Handler) getPreferences(w http.ResponseWriter, r *http.Request) {
	p, err := h.acc.users.Preferences(r.Context(), userOf(r).ID)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// putPreferences is PUT /user/preferences: replaces every preference.
func (h *Handler) putPreferences(w http.ResponseWriter, r *http.Request) {
	var req PreferencesRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkChoices(f, "circularSources", req.CircularSources, auth.PreferenceSources)
	checkChoices(f, "impactLevels", req.ImpactLevels, auth.PreferenceImpactLevels)
	checkChoices(f, "categories", req.Categories, auth.PreferenceCategories)
	if req.EntityTypes != nil {
		checkChoices(f, "entityTypes", req.EntityTypes, auth.PreferenceEntityTypes)
	}
	if req.EmailNotifications == nil {
		f.add("emailNotifications", "is required (true or false)")
	}
	if req.NewsletterSubscription == nil {
		f.add("newsletterSubscription", "is required (true or false)")
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	c := auth.Choices{CircularSources: req.CircularSources, ImpactLevels: req.ImpactLevels, Categories: req.Categories,
		EntityTypes: req.EntityTypes, EmailNotifications: *req.EmailNotifications, NewsletterSubscription: *req.NewsletterSubscription}
	// What the request leaves out stays as stored.
	if req.EntityTypes == nil || req.MentionEmails == nil || req.ReminderEmails == nil {
		old, err := h.acc.users.Preferences(r.Context(), userOf(r).ID)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		if c.EntityTypes == nil {
			c.EntityTypes = old.EntityTypes
		}
		c.MentionEmails, c.ReminderEmails = old.MentionEmails, old.ReminderEmails
	}
	if req.MentionEmails != nil {
		c.MentionEmails = *req.MentionEmails
	}
	if req.ReminderEmails != nil {
		c.ReminderEmails = *req.ReminderEmails
	}
	p, err := h.acc.users.SavePreferences(r.Context(), userOf(r).ID, c)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// languageCodes are the site's languages' codes.
func languageCodes() []string {
	var out []string
	for _, l := range i18n.Languages {
		out = append(out, l.Code)
	}
	return out
}

// putProfile is PUT /user/profile: names, e-mail and the e-mails' language.
func (h *Handler) putProfile(w http.ResponseWriter, r *http.Request) {
	var req ProfileRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	p := auth.Profile{FirstName: req.FirstName, LastName: req.LastName, Email: req.Email, Language: req.Language}
	if _, ok := i18n.Lookup(req.Language); !ok && req.Language != "" {
		f.add("language", "unknown language "+strconv.Quote(req.Language)+"; use one of: "+strings.Join(languageCodes(), ", "))
	}
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	u, err := h.acc.users.UpdateProfile(r.Context(), userOf(r).ID, p)
	if e := takenError(err); e != nil {
		h.writeError(w, r, e)
		return
	}
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, MeResponse{User: u})
}

// putPassword is PUT /user/password: the current password is required;
// every older token is revoked and the answer carries a new one.
func (h *Handler) putPassword(w http.ResponseWriter, r *http.Request) {
	var req PasswordRequest
	if err := decodeBody(w, r, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	f := fieldErrors{}
	checkFields(f, &req)
	if err := f.err(); err != nil {
		h.writeError(w, r, err)
		return
	}
	u := userOf(r)
	if ok, err := auth.Verify(u.PasswordHash, req.CurrentPassword); err != nil || !ok {
		h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: "invalid currentPassword",
			Fields: map[string]string{"currentPassword": "Current password is incorrect"}})
		return
	}
	hash, err := h.acc.hasher.Hash(req.NewPassword)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	u, err = h.acc.users.SetPassword(r.Context(), u.ID, hash)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.writeToken(w, r, http.StatusOK, u)
}
