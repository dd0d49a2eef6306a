package api

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/logtest"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

var (
	testSecret = []byte("test-secret-test-secret-test-secret!")
	cheapHash  = auth.Hasher{MemoryKiB: 64, Iterations: 1, Threads: 1}
)

// authFixture is the API over a real SQLite store in a temporary folder
// (so tests can read its files), on a clock tests move, logging to logs.
type authFixture struct {
	db   *store.DB
	dir  string
	api  http.Handler
	logs *logtest.Buffer

	mu  sync.Mutex
	now time.Time
}

func (f *authFixture) clock() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *authFixture) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// opts are added to the API's (a backend of the CMS).
func newAuthFixture(t testing.TB, cfg AuthConfig, opts ...Option) *authFixture {
	t.Helper()
	f := &authFixture{dir: t.TempDir(), logs: &logtest.Buffer{}, now: storetest.Now}
	db, err := store.Open(t.Context(), filepath.Join(f.dir, "regpulse.db"), store.WithNow(f.clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	if cfg.Tokens == nil {
		if cfg.Tokens, err = auth.NewTokens(testSecret, time.Hour, f.clock); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Hasher == (auth.Hasher{}) {
		cfg.Hasher = cheapHash
	}
	if cfg.LoginLimit == 0 {
		cfg.LoginLimit = 1000
	}
	if cfg.SignupLimit == 0 {
		cfg.SignupLimit = 1000
	}
	log := slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	f.api = New(db, log, append([]Option{WithNow(f.clock), WithAuth(cfg)}, opts...)...)
	return f
}

// call serves method target with body (sent as JSON unless headers set
// another Content-Type); headers are name, value pairs.
func (f *authFixture) call(t testing.TB, method, target, body string, headers ...string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	f.api.ServeHTTP(rec, req.Clone(req.Context()))
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	recordResponse(method, target, req.Header, body, res)
	return res
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

const goodPassword = "S3cret-Pa55word!"

func signupBody(username, email string) string {
	b, _ := json.Marshal(SignupRequest{Username: username, Email: email, Password: goodPassword, FirstName: "Asha", LastName: "Rao"})
	return string(b)
}

// signup creates a user and returns its token.
func (f *authFixture) signup(t testing.TB, username string) string {
	t.Helper()
	res := f.call(t, "POST", "/auth/signup", signupBody(username, username+"@example.com"))
	if res.status != http.StatusCreated {
		t.Fatalf("signup %s = %d %s", username, res.status, res.body)
	}
	return tokenOf(t, res)
}

func tokenOf(t testing.TB, res response) string {
	t.Helper()
	var tr TokenResponse
	if err := json.Unmarshal(res.body, &tr); err != nil || tr.Token == "" {
		t.Fatalf("no token in %d %s", res.status, res.body)
	}
	return tr.Token
}

// wantError checks status and that the JSON error has exactly these field messages.
func wantError(t *testing.T, res response, status int, fields map[string]string) Error {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d %s, want %d", res.status, res.body, status)
	}
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want JSON", ct)
	}
	var e Error
	if err := json.Unmarshal(res.body, &e); err != nil || e.Message == "" {
		t.Fatalf("body %s is not a JSON error (%v)", res.body, err)
	}
	if id := res.header.Get("X-Request-Id"); e.RequestID == "" || e.RequestID != id {
		t.Errorf("error's requestId %q, X-Request-Id %q: want the same id in both", e.RequestID, id)
	}
	if fields != nil {
		if diff := cmp.Diff(fields, e.Fields); diff != "" {
			t.Errorf("fields (-want +got):\n%s", diff)
		}
	}
	return e
}

func TestAuth_Signup(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	res := f.call(t, "POST", "/auth/signup", signupBody("asha", "Asha@Example.com"))
	if res.status != http.StatusCreated {
		t.Fatalf("signup = %d %s", res.status, res.body)
	}
	token := tokenOf(t, res)
	u, err := f.db.UserByUsername(t.Context(), "asha")
	if err != nil {
		t.Fatal(err)
	}
	if u.Role != auth.RoleUser || u.IsVerified || u.Email != "Asha@Example.com" || !u.LastLoginAt.Equal(storetest.Now) {
		t.Errorf("stored user %+v", u)
	}
	if ok, _ := auth.Verify(u.PasswordHash, goodPassword); !ok || strings.Contains(u.PasswordHash, goodPassword) {
		t.Errorf("stored hash %q", u.PasswordHash)
	}
	me := f.call(t, "GET", "/auth/me", "", bearer(token)...)
	var got MeResponse
	if err := json.Unmarshal(me.body, &got); me.status != 200 || err != nil {
		t.Fatalf("me = %d %s", me.status, me.body)
	}
	want := auth.User{ID: u.ID, Username: "asha", Email: "Asha@Example.com", FirstName: "Asha", LastName: "Rao", Role: "user", CreatedAt: storetest.Now, Language: "en"}
	if diff := cmp.Diff(want, got.User); diff != "" {
		t.Errorf("me (-want +got):\n%s", diff)
	}

	valid := map[string]any{"username": "ravi", "email": "ravi@example.com", "password": "secret", "firstName": "Ravi", "lastName": "K"}
	with := func(kv ...any) string {
		m := map[string]any{}
		for k, v := range valid {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == nil {
				delete(m, kv[i].(string))
			} else {
				m[kv[i].(string)] = kv[i+1]
			}
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		fields     map[string]string
	}{
		{"ErrUsernameMissing", with("username", nil), 400, map[string]string{"username": "Username must be at least 3 characters"}},
		{"ErrUsernameShort", with("username", "ab"), 400, map[string]string{"username": "Username must be at least 3 characters"}},
		{"ErrUsernameLong", with("username", strings.Repeat("a", 51)), 400, map[string]string{"username": "Username too long"}},
		{"ErrUsernameSpaces", with("username", " ravi "), 400, map[string]string{"username": "Username must not start or end with spaces or contain control characters"}},
		{"ErrEmailInvalid", with("email", "ravi@example"), 400, map[string]string{"email": "Invalid email address"}},
		{"ErrEmailMissing", with("email", nil), 400, map[string]string{"email": "Invalid email address"}},
		{"ErrPasswordShort", with("password", "12345"), 400, map[string]string{"password": "Password must be at least 6 characters"}},
		{"ErrPasswordLong", with("password", strings.Repeat("p", 129)), 400, map[string]string{"password": "Password too long"}},
		{"ErrFirstNameMissing", with("firstName", nil), 400, map[string]string{"firstName": "First name is required"}},
		{"ErrFirstNameBlank", with("firstName", "   "), 400, map[string]string{"firstName": "First name is required"}},
		{"ErrLastNameMissing", with("lastName", ""), 400, map[string]string{"lastName": "Last name is required"}},
		{"ErrEverything", "{}", 400, map[string]string{"username": "Username must be at least 3 characters", "email": "Invalid email address",
			"password": "Password must be at least 6 characters", "firstName": "First name is required", "lastName": "Last name is required"}},
		{"ErrUsernameTaken", with("username", "asha"), 409, map[string]string{"username": "Username already taken"}},
		{"ErrUsernameTakenOtherCase", with("username", "ASHA"), 409, map[string]string{"username": "Username already taken"}},
		{"ErrEmailTakenOtherCase", with("email", "asha@EXAMPLE.com"), 409, map[string]string{"email": "Email already registered"}},
		{"ErrUnknownField", with("role", "admin"), 400, map[string]string{"role": "unknown field"}},
		{"ErrWrongType", with("username", 42), 400, map[string]string{"username": "must be a string"}},
		{"ErrMalformed", `{"username": "ravi",`, 400, nil},
		{"ErrNotJSON", `username=ravi`, 400, nil},
		{"ErrTrailingData", with() + `{}`, 400, nil},
		{"ErrNotAnObject", `["ravi"]`, 400, nil},
		{"ErrEmptyBody", ``, 415, nil},
		{"ErrTooLarge", with("firstName", strings.Repeat("x", maxBodyBytes)), 413, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, f.call(t, "POST", "/auth/signup", tc.body), tc.status, tc.fields)
		})
	}
	for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/json; charset=latin1", "nonsense/"} {
		t.Run("ErrContentType/"+ct, func(t *testing.T) {
			wantError(t, f.call(t, "POST", "/auth/signup", with(), "Content-Type", ct), 415, nil)
		})
	}
	t.Run("ContentTypeWithCharset", func(t *testing.T) {
		res := f.call(t, "POST", "/auth/signup", with(), "Content-Type", "application/json; charset=UTF-8")
		if res.status != http.StatusCreated {
			t.Errorf("= %d %s", res.status, res.body)
		}
	})
	t.Run("ErrGet", func(t *testing.T) {
		wantError(t, f.call(t, "GET", "/auth/signup", ""), 405, nil)
	})
}

func TestAuth_Login(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	f.signup(t, "asha")
	f.advance(time.Hour)
	login := func(username, password string) response {
		b, _ := json.Marshal(LoginRequest{Username: username, Password: password})
		return f.call(t, "POST", "/auth/login", string(b))
	}
	t.Run("OK", func(t *testing.T) {
		res := login("asha", goodPassword)
		if res.status != 200 {
			t.Fatalf("= %d %s", res.status, res.body)
		}
		if me := f.call(t, "GET", "/auth/me", "", bearer(tokenOf(t, res))...); me.status != 200 {
			t.Errorf("me with the new token = %d %s", me.status, me.body)
		}
		if u, _ := f.db.UserByUsername(t.Context(), "asha"); !u.LastLoginAt.Equal(storetest.Now.Add(time.Hour)) {
			t.Errorf("lastLoginAt = %v, want the sign-in's time", u.LastLoginAt)
		}
	})
	t.Run("UsernameAnyCase", func(t *testing.T) {
		if res := login("ASHA", goodPassword); res.status != 200 {
			t.Errorf("= %d %s", res.status, res.body)
		}
	})
	t.Run("ErrUsernameRequired", func(t *testing.T) {
		wantError(t, login("", goodPassword), 400, map[string]string{"username": "Username is required"})
	})
	t.Run("ErrPasswordRequired", func(t *testing.T) {
		wantError(t, login("asha", ""), 400, map[string]string{"password": "Password is required"})
	})
	t.Run("ErrBoth", func(t *testing.T) {
		wantError(t, f.call(t, "POST", "/auth/login", "{}"), 400, map[string]string{"username": "Username is required", "password": "Password is required"})
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		wantError(t, f.call(t, "POST", "/auth/login", `{"username":"asha","password":"x","remember":true}`), 400, map[string]string{"remember": "unknown field"})
	})
	t.Run("SameAnswerForUnknownUserAndWrongPassword", func(t *testing.T) {
		wrong, unknown := login("asha", "not-the-password"), login("nobody", "not-the-password")
		wantError(t, wrong, 401, nil)
		// the same answer but for the request's own id
		same := func(res response) Error {
			var e Error
			if err := json.Unmarshal(res.body, &e); err != nil || e.RequestID == "" {
				t.Errorf("body %s: %v, want an error with its request id", res.body, err)
			}
			e.RequestID = ""
			return e
		}
		if wrong.status != unknown.status || same(wrong).Message != same(unknown).Message || len(same(wrong).Fields) != 0 {
			t.Errorf("wrong password %d %s, unknown user %d %s", wrong.status, wrong.body, unknown.status, unknown.body)
		}
		for _, h := range []string{"Content-Type", "Cache-Control", "WWW-Authenticate"} {
			if wrong.header.Get(h) != unknown.header.Get(h) {
				t.Errorf("%s differs: %q vs %q", h, wrong.header.Get(h), unknown.header.Get(h))
			}
		}
	})
}

// TestAuth_Login_ComparableTime checks, with the real hashing cost, that an
// unknown username costs a hash verification as a wrong password does.
// TestAuth_Login_ComparableTime holds an unknown username to the work of
// a wrong password: both verify an argon2id hash of the configured cost,
// whose memory (19 MiB) each login must allocate. Bytes allocated, unlike
// elapsed time, do not depend on how busy the machine is.
func TestAuth_Login_ComparableTime(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{Hasher: auth.DefaultHasher})
	f.signup(t, "asha")
	allocated := func(username string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res := f.call(t, "POST", "/auth/login", `{"username":"`+username+`","password":"wrong-password"}`)
		runtime.ReadMemStats(&after)
		if res.status != 401 {
			t.Fatalf("%s: %d %s", username, res.status, res.body)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	allocated("nobody") // the dummy hash is made once, at the first unknown name
	hashMemory := uint64(auth.DefaultHasher.MemoryKiB) << 10
	for _, name := range []string{"asha", "nobody", "Nobody2"} {
		if got := allocated(name); got < hashMemory {
			t.Errorf("login as %q allocated %d bytes, less than one hash's %d: it did not verify a hash", name, got, hashMemory)
		}
	}
}

func TestAuth_RateLimit(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{LoginLimit: 3, SignupLimit: 2, LimitWindow: time.Hour})
	for _, tc := range []struct {
		name, path string
		limit      int
		body       func(i int) string
	}{
		{"Login", "/auth/login", 3, func(int) string { return `{"username":"nobody","password":"whatever"}` }},
		{"Signup", "/auth/signup", 2, func(i int) string {
			return signupBody("user"+string(rune('a'+i)), "u"+string(rune('a'+i))+"@example.com")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			from := func(addr string, i int) response {
				req := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body(i)))
				req.Header.Set("Content-Type", "application/json")
				req.RemoteAddr = addr
				rec := httptest.NewRecorder()
				f.api.ServeHTTP(rec, req)
				res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
				recordResponse("POST", tc.path, req.Header, tc.body(i), res)
				return res
			}
			for i := range tc.limit {
				if res := from("192.0.2.1:1000", i); res.status == 429 {
					t.Fatalf("attempt %d limited already", i+1)
				}
			}
			res := from("192.0.2.1:2000", tc.limit) // another port, the same client
			wantError(t, res, 429, nil)
			if ra := res.header.Get("Retry-After"); ra == "" || ra == "0" {
				t.Errorf("Retry-After = %q", ra)
			}
			// An X-Forwarded-For from an untrusted peer changes nothing.
			req := httptest.NewRequest("POST", tc.path, strings.NewReader(tc.body(tc.limit+1)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", "198.51.100.7")
			req.RemoteAddr = "192.0.2.1:3000"
			rec := httptest.NewRecorder()
			f.api.ServeHTTP(rec, req)
			if rec.Code != 429 {
				t.Errorf("spoofed X-Forwarded-For escaped the limit: %d", rec.Code)
			}
			if res := from("192.0.2.2:1000", tc.limit+2); res.status == 429 {
				t.Errorf("another client was limited: %s", res.body)
			}
		})
	}
	t.Run("PasswordChange", func(t *testing.T) {
		f := newAuthFixture(t, AuthConfig{LoginLimit: 3, LimitWindow: time.Hour})
		tok := f.signup(t, "limited")
		var res response
		for range 4 {
			res = f.call(t, "PUT", "/user/password", `{"currentPassword":"wrong-guess","newPassword":"whatever"}`, bearer(tok)...)
		}
		wantError(t, res, 429, nil)
	})
	t.Run("TrustedProxy", func(t *testing.T) {
		f := newAuthFixture(t, AuthConfig{LoginLimit: 1, LimitWindow: time.Hour, TrustedProxies: []string{"10.0.0.0/8"}})
		try := func(xff string) int {
			req := httptest.NewRequest("POST", "/auth/login", strings.NewReader(`{"username":"x","password":"y"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", xff)
			req.RemoteAddr = "10.1.2.3:5000"
			rec := httptest.NewRecorder()
			f.api.ServeHTTP(rec, req)
			return rec.Code
		}
		if a, b, c := try("198.51.100.1"), try("198.51.100.2"), try("198.51.100.1"); a != 401 || b != 401 || c != 429 {
			t.Errorf("behind the proxy: %d %d %d, want 401 401 429", a, b, c)
		}
	})
}

func TestAuth_Me(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	token := f.signup(t, "asha")
	u, _ := f.db.UserByUsername(t.Context(), "asha")
	sign := func(m jwt.SigningMethod, key any, mutate func(*jwt.MapClaims)) string {
		c := jwt.MapClaims{"iss": auth.TokenIssuer, "aud": []string{auth.TokenAudience}, "sub": u.ID, "ver": 0,
			"iat": storetest.Now.Unix(), "exp": storetest.Now.Add(time.Hour).Unix()}
		if mutate != nil {
			mutate(&c)
		}
		s, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if res := f.call(t, "GET", "/auth/me", "", bearer(sign(jwt.SigningMethodHS256, testSecret, nil))...); res.status != 200 {
		t.Fatalf("a well-signed token was refused: %d %s", res.status, res.body)
	}
	parts := strings.Split(token, ".")
	for _, tc := range []struct {
		name   string
		header []string
	}{
		{"ErrNoToken", nil},
		{"ErrNotBearer", []string{"Authorization", "Basic " + token}},
		{"ErrEmptyBearer", []string{"Authorization", "Bearer "}},
		{"ErrTampered", bearer(parts[0] + "." + strings.Split(sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-0000"), func(c *jwt.MapClaims) { (*c)["sub"] = "someone-else" }), ".")[1] + "." + parts[2])},
		{"ErrOtherSecret", bearer(sign(jwt.SigningMethodHS256, []byte("another-secret-another-secret-0000"), nil))},
		{"ErrExpired", bearer(sign(jwt.SigningMethodHS256, testSecret, func(c *jwt.MapClaims) { (*c)["exp"] = storetest.Now.Add(-time.Minute).Unix() }))},
		{"ErrAlgNone", bearer(sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, nil))},
		{"ErrAlgHS384", bearer(sign(jwt.SigningMethodHS384, testSecret, nil))},
		{"ErrWrongIssuer", bearer(sign(jwt.SigningMethodHS256, testSecret, func(c *jwt.MapClaims) { (*c)["iss"] = "elsewhere" }))},
		{"ErrUnknownUser", bearer(sign(jwt.SigningMethodHS256, testSecret, func(c *jwt.MapClaims) { (*c)["sub"] = "00000000-0000-4000-8000-000000000000" }))},
		{"ErrOldVersion", bearer(sign(jwt.SigningMethodHS256, testSecret, func(c *jwt.MapClaims) { (*c)["ver"] = -1 }))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.call(t, "GET", "/auth/me", "", tc.header...)
			wantError(t, res, 401, nil)
			if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q", res.header.Get("WWW-Authenticate"))
			}
		})
	}
	t.Run("ErrExpiredByClock", func(t *testing.T) {
		g := newAuthFixture(t, AuthConfig{})
		tok := g.signup(t, "ravi")
		g.advance(2 * time.Hour) // the fixture's tokens last an hour
		wantError(t, g.call(t, "GET", "/auth/me", "", bearer(tok)...), 401, nil)
	})
	t.Run("ErrDeletedUser", func(t *testing.T) {
		tok := f.signup(t, "gone")
		g, _ := f.db.UserByUsername(t.Context(), "gone")
		if err := f.db.DeleteUser(t.Context(), g.ID); err != nil {
			t.Fatal(err)
		}
		wantError(t, f.call(t, "GET", "/auth/me", "", bearer(tok)...), 401, nil)
	})
	t.Run("ErrRevokedByLogoutAll", func(t *testing.T) {
		a, b := f.signup(t, "many"), ""
		res := f.call(t, "POST", "/auth/login", `{"username":"many","password":"`+goodPassword+`"}`)
		b = tokenOf(t, res)
		// a body it does not take is refused, and logs out no one
		wantError(t, f.call(t, "POST", "/auth/logout-all", `{"all":"`+strings.Repeat("x", 2000)+`"}`, append(bearer(a), "Content-Type", "application/json")...), 413, nil)
		if me := f.call(t, "GET", "/auth/me", "", bearer(a)...); me.status != 200 {
			t.Fatalf("after a refused logout-all: /auth/me = %d", me.status)
		}
		// with the JSON type and no body, as fetch wrappers send it
		if res := f.call(t, "POST", "/auth/logout-all", "", append(bearer(a), "Content-Type", "application/json")...); res.status != 204 {
			t.Fatalf("logout-all = %d %s", res.status, res.body)
		}
		for _, tok := range []string{a, b} {
			wantError(t, f.call(t, "GET", "/auth/me", "", bearer(tok)...), 401, nil)
		}
		res = f.call(t, "POST", "/auth/login", `{"username":"many","password":"`+goodPassword+`"}`)
		if me := f.call(t, "GET", "/auth/me", "", bearer(tokenOf(t, res))...); me.status != 200 {
			t.Errorf("a token issued after logout-all = %d", me.status)
		}
	})
}

func TestAuth_Password(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	old := f.signup(t, "asha")
	other := tokenOf(t, f.call(t, "POST", "/auth/login", `{"username":"asha","password":"`+goodPassword+`"}`))
	for _, tc := range []struct {
		name, body string
		fields     map[string]string
	}{
		{"ErrCurrentMissing", `{"currentPassword":"","newPassword":"new-secret"}`, map[string]string{"currentPassword": "Current password is required"}},
		{"ErrCurrentWrong", `{"currentPassword":"wrong-one","newPassword":"new-secret"}`, map[string]string{"currentPassword": "Current password is incorrect"}},
		{"ErrNewShort", `{"currentPassword":"` + goodPassword + `","newPassword":"12345"}`, map[string]string{"newPassword": "Password must be at least 6 characters"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, f.call(t, "PUT", "/user/password", tc.body, bearer(old)...), 400, tc.fields)
		})
	}
	res := f.call(t, "PUT", "/user/password", `{"currentPassword":"`+goodPassword+`","newPassword":"brand-new-secret"}`, bearer(old)...)
	if res.status != 200 {
		t.Fatalf("change = %d %s", res.status, res.body)
	}
	fresh := tokenOf(t, res)
	t.Run("RevokesOlderTokens", func(t *testing.T) {
		for _, tok := range []string{old, other} {
			wantError(t, f.call(t, "GET", "/auth/me", "", bearer(tok)...), 401, nil)
		}
		if me := f.call(t, "GET", "/auth/me", "", bearer(fresh)...); me.status != 200 {
			t.Errorf("the token the change answered = %d", me.status)
		}
	})
	t.Run("NewPasswordSignsIn", func(t *testing.T) {
		if res := f.call(t, "POST", "/auth/login", `{"username":"asha","password":"brand-new-secret"}`); res.status != 200 {
			t.Errorf("= %d", res.status)
		}
		wantError(t, f.call(t, "POST", "/auth/login", `{"username":"asha","password":"`+goodPassword+`"}`), 401, nil)
	})
}

func TestAuth_Profile(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	tok := f.signup(t, "asha")
	f.signup(t, "ravi")
	res := f.call(t, "PUT", "/user/profile", `{"firstName":" Asha ","lastName":"Rao-Iyer","email":"asha.rao@example.com"}`, bearer(tok)...)
	var got MeResponse
	if err := json.Unmarshal(res.body, &got); res.status != 200 || err != nil {
		t.Fatalf("= %d %s", res.status, res.body)
	}
	if got.User.FirstName != "Asha" || got.User.LastName != "Rao-Iyer" || got.User.Email != "asha.rao@example.com" {
		t.Errorf("profile %+v", got.User)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		fields     map[string]string
	}{
		{"ErrEmailTaken", `{"firstName":"A","lastName":"R","email":"RAVI@example.com"}`, 409, map[string]string{"email": "Email already registered"}},
		{"ErrInvalid", `{"firstName":"","lastName":"","email":"no"}`, 400, map[string]string{"firstName": "First name is required", "lastName": "Last name is required", "email": "Invalid email address"}},
		{"ErrUnknownField", `{"firstName":"A","lastName":"R","email":"a@example.com","role":"admin"}`, 400, map[string]string{"role": "unknown field"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, f.call(t, "PUT", "/user/profile", tc.body, bearer(tok)...), tc.status, tc.fields)
		})
	}
	t.Run("ErrSignedOut", func(t *testing.T) {
		wantError(t, f.call(t, "PUT", "/user/profile", `{"firstName":"A","lastName":"R","email":"a@example.com"}`), 401, nil)
	})
}

func TestAuth_Preferences(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	tok := f.signup(t, "asha")
	get := func() auth.Preferences {
		t.Helper()
		res := f.call(t, "GET", "/user/preferences", "", bearer(tok)...)
		var p auth.Preferences
		if err := json.Unmarshal(res.body, &p); res.status != 200 || err != nil {
			t.Fatalf("GET = %d %s", res.status, res.body)
		}
		return p
	}
	p := get()
	if !p.EmailNotifications || p.NewsletterSubscription || len(p.CircularSources) != 0 || p.CircularSources == nil {
		t.Errorf("defaults %+v", p)
	}
	body := `{"circularSources":["RBI","NPCI"],"impactLevels":["high"],"categories":["UPI","Digital Payments"],"emailNotifications":false,"newsletterSubscription":true}`
	res := f.call(t, "PUT", "/user/preferences", body, bearer(tok)...)
	if res.status != 200 {
		t.Fatalf("PUT = %d %s", res.status, res.body)
	}
	p = get()
	if diff := cmp.Diff(auth.Choices{CircularSources: []string{"RBI", "NPCI"}, ImpactLevels: []string{"high"}, Categories: []string{"UPI", "Digital Payments"}, NewsletterSubscription: true},
		auth.Choices{CircularSources: p.CircularSources, ImpactLevels: p.ImpactLevels, Categories: p.Categories, EmailNotifications: p.EmailNotifications, NewsletterSubscription: p.NewsletterSubscription}); diff != "" {
		t.Errorf("saved (-want +got):\n%s", diff)
	}
	if p.EntityTypes == nil || len(p.EntityTypes) != 0 {
		t.Errorf("entityTypes = %#v, want none chosen ([])", p.EntityTypes)
	}
	t.Run("EntityTypes", func(t *testing.T) {
		with := `{"circularSources":[],"impactLevels":[],"categories":[],"entityTypes":["Issuer","PSP"],"emailNotifications":true,"newsletterSubscription":false}`
		if res := f.call(t, "PUT", "/user/preferences", with, bearer(tok)...); res.status != 200 {
			t.Fatalf("PUT = %d %s", res.status, res.body)
		}
		if got := get().EntityTypes; !slices.Equal(got, []string{"Issuer", "PSP"}) {
			t.Errorf("entityTypes = %v after saving Issuer, PSP", got)
		}
		// a client that predates the field keeps the user's choice
		if res := f.call(t, "PUT", "/user/preferences", body, bearer(tok)...); res.status != 200 {
			t.Fatalf("PUT without entityTypes = %d %s", res.status, res.body)
		}
		if got := get().EntityTypes; !slices.Equal(got, []string{"Issuer", "PSP"}) {
			t.Errorf("entityTypes = %v after a PUT without them, want kept", got)
		}
	})
	for _, tc := range []struct {
		name, body, field, mentions string
	}{
		{"ErrUnknownSource", `{"circularSources":["FED"],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "circularSources", `"FED"`},
		{"ErrOtherSource", `{"circularSources":["other"],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "circularSources", `"other"`},
		{"ErrUnknownLevel", `{"circularSources":[],"impactLevels":["critical"],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "impactLevels", `"critical"`},
		{"ErrUnknownCategory", `{"circularSources":[],"impactLevels":[],"categories":["Crypto"],"emailNotifications":true,"newsletterSubscription":false}`, "categories", `"Crypto"`},
		{"ErrTwice", `{"circularSources":["RBI","RBI"],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "circularSources", `"RBI"`},
		{"ErrMissingList", `{"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "circularSources", "required"},
		{"ErrMissingBool", `{"circularSources":[],"impactLevels":[],"categories":[],"newsletterSubscription":false}`, "emailNotifications", "required"},
		{"ErrUnknownEntityType", `{"circularSources":[],"impactLevels":[],"categories":[],"entityTypes":["Bank"],"emailNotifications":true,"newsletterSubscription":false}`, "entityTypes", `"Bank"`},
		{"ErrWrongType", `{"circularSources":"RBI","impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false}`, "circularSources", "list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := wantError(t, f.call(t, "PUT", "/user/preferences", tc.body, bearer(tok)...), 400, nil)
			if len(e.Fields) != 1 || !strings.Contains(e.Fields[tc.field], tc.mentions) {
				t.Errorf("fields %v, want %s naming %s", e.Fields, tc.field, tc.mentions)
			}
		})
	}
	t.Run("ErrSignedOut", func(t *testing.T) {
		wantError(t, f.call(t, "GET", "/user/preferences", ""), 401, nil)
		wantError(t, f.call(t, "PUT", "/user/preferences", body), 401, nil)
	})
}

// TestAuth_StrictBodies sends every call that takes a body a wrong
// content type, an oversized body and malformed JSON, and every signed-in
// GET an unknown parameter.
func TestAuth_StrictBodies(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	tok := f.signup(t, "asha")
	huge := `{"username":"` + strings.Repeat("a", maxBodyBytes) + `"}`
	for _, call := range [][2]string{{"POST", "/auth/signup"}, {"POST", "/auth/login"}, {"PUT", "/user/preferences"}, {"PUT", "/user/profile"}, {"PUT", "/user/password"}} {
		t.Run(call[1]+"/ErrContentType", func(t *testing.T) {
			wantError(t, f.call(t, call[0], call[1], `{}`, append(bearer(tok), "Content-Type", "text/plain")...), 415, nil)
		})
		t.Run(call[1]+"/ErrTooLarge", func(t *testing.T) {
			wantError(t, f.call(t, call[0], call[1], huge, bearer(tok)...), 413, nil)
		})
		t.Run(call[1]+"/ErrMalformed", func(t *testing.T) {
			wantError(t, f.call(t, call[0], call[1], `{"a":`, bearer(tok)...), 400, nil)
		})
	}
	for _, path := range []string{"/auth/me", "/user/preferences"} {
		t.Run(path+"/ErrParameter", func(t *testing.T) {
			wantError(t, f.call(t, "GET", path+"?x=1", "", bearer(tok)...), 400, map[string]string{"x": "unknown parameter; this call takes: none"})
		})
	}
	t.Run("ErrLogoutAllSignedOut", func(t *testing.T) {
		wantError(t, f.call(t, "POST", "/auth/logout-all", ""), 401, nil)
	})
	t.Run("ErrPasswordSignedOut", func(t *testing.T) {
		wantError(t, f.call(t, "PUT", "/user/password", `{"currentPassword":"a","newPassword":"bbbbbb"}`), 401, nil)
	})
}

// TestAuth_StoreFailure: a failing store is a 500 whose details stay in the log.
func TestAuth_StoreFailure(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	tok := f.signup(t, "asha")
	f.db.Close()
	for _, call := range [][3]string{
		{"POST", "/auth/login", `{"username":"asha","password":"whatever"}`},
		{"POST", "/auth/signup", signupBody("ravi", "ravi@example.com")},
		{"GET", "/auth/me", ""},
	} {
		e := wantError(t, f.call(t, call[0], call[1], call[2], bearer(tok)...), 500, nil)
		if e.Message != "internal server error" {
			t.Errorf("%s: message %q", call[1], e.Message)
		}
	}
	if !strings.Contains(f.logs.String(), "database is closed") {
		t.Errorf("the log does not say why: %s", f.logs.String())
	}
}

// TestAuth_PasswordNeverStoredOrShown signs up, signs in, changes the
// password and fails a few times, then looks for the passwords in the
// database files, every response and the log.
func TestAuth_PasswordNeverStoredOrShown(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	const second = "An0ther-Secret-Phrase"
	var bodies [][]byte
	keep := func(res response) response {
		bodies = append(bodies, res.body)
		for _, vs := range res.header {
			for _, v := range vs {
				bodies = append(bodies, []byte(v))
			}
		}
		return res
	}
	res := keep(f.call(t, "POST", "/auth/signup", signupBody("asha", "asha@example.com")))
	tok := tokenOf(t, res)
	keep(f.call(t, "POST", "/auth/signup", signupBody("asha", "asha@example.com")))
	keep(f.call(t, "POST", "/auth/login", `{"username":"asha","password":"`+goodPassword+`"}`))
	keep(f.call(t, "POST", "/auth/login", `{"username":"nobody","password":"`+goodPassword+`"}`))
	keep(f.call(t, "POST", "/auth/login", `{"username":"asha","password":"`+goodPassword+`","x":1}`))
	keep(f.call(t, "GET", "/auth/me", "", bearer(tok)...))
	res = keep(f.call(t, "PUT", "/user/password", `{"currentPassword":"`+goodPassword+`","newPassword":"`+second+`"}`, bearer(tok)...))
	keep(f.call(t, "PUT", "/user/password", `{"currentPassword":"`+goodPassword+`","newPassword":"`+second+`"}`, bearer(tokenOf(t, res))...))
	f.db.Close()
	files, _ := filepath.Glob(filepath.Join(f.dir, "regpulse.db*"))
	if len(files) == 0 {
		t.Fatal("no database files")
	}
	for _, path := range files {
		b, _ := os.ReadFile(path)
		bodies = append(bodies, b)
	}
	bodies = append(bodies, []byte(f.logs.String()))
	for _, pw := range []string{goodPassword, second} {
		for i, b := range bodies {
			if bytes.Contains(b, []byte(pw)) {
				t.Errorf("password %q found in output %d: %.200s", pw, i, b)
			}
		}
	}
}
