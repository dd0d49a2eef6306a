package api

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/sso"
	"regpulse/internal/sso/ssotest"
	"regpulse/internal/teams"
)

// ssoFixture is the teams' fixture with single sign-on, an
// organisation (admin asha) whose provider is the loopback test
// provider, covering example.com (the fixture's sign-ups' domain).
type ssoFixture struct {
	*teamsFixture
	idp   *ssotest.Provider
	admin person
	org   teams.Organisation

	dnsMu sync.Mutex
	dns   map[string][]string // TXT records by name
}

func (f *ssoFixture) lookupTXT(_ context.Context, name string) ([]string, error) {
	f.dnsMu.Lock()
	defer f.dnsMu.Unlock()
	if texts, ok := f.dns[name]; ok {
		return texts, nil
	}
	return nil, errors.New("no such host")
}

// publish sets the TXT records of name.
func (f *ssoFixture) publish(name string, texts ...string) {
	f.dnsMu.Lock()
	defer f.dnsMu.Unlock()
	f.dns[name] = texts
}

// verify publishes the organisation's records of domains and asks the
// API to look them up.
func (f *ssoFixture) verify(t *testing.T, orgID string, p person, domains ...string) SSOSettings {
	t.Helper()
	st := jsonOf[SSOSettings](t, f.call(t, "GET", "/organisations/"+orgID+"/sso", "", p.auth...))
	for _, d := range domains {
		f.publish("_regpulse-sso."+d, "v=spf1 -all", st.RecordValue)
	}
	res := f.call(t, "POST", "/organisations/"+orgID+"/sso/verify", "", p.auth...)
	if res.status != 200 {
		t.Fatalf("verify: %d %s", res.status, res.body)
	}
	return jsonOf[SSOSettings](t, res)
}

const ssoSite = "https://regpulse.example"

func newSSOFixture(t *testing.T) *ssoFixture { return newSSOFixtureLimit(t, 1000) }

// newSSOFixtureLimit is newSSOFixture allowing limit sign-ins (and
// single sign-on starts and callbacks) a minute.
func newSSOFixtureLimit(t *testing.T, limit int) *ssoFixture {
	t.Helper()
	tf := newTeamsFixture(t)
	authTokens, err := auth.NewTokens(testSecret, 60*24*time.Hour, tf.clock)
	if err != nil {
		t.Fatal(err)
	}
	tokens, _ := teams.NewTokens([]byte("teams-test-secret-0123456789abcdef"))
	flows, err := sso.NewFlows([]byte("sso-test-secret-0123456789abcdef"), tf.clock)
	if err != nil {
		t.Fatal(err)
	}
	f := &ssoFixture{teamsFixture: tf, idp: ssotest.Start(t, "regpulse-client", "client-secret-0123456789"), dns: map[string][]string{}}
	tf.api = New(tf.db, slog.New(slog.NewTextHandler(tf.logs, nil)), WithNow(tf.clock),
		WithAuth(AuthConfig{Tokens: authTokens, Hasher: cheapHash, LoginLimit: limit, SignupLimit: 1000}),
		WithTeams(TeamsConfig{Tokens: tokens, Site: ssoSite + "/", InviteLimit: 1000}),
		WithSSO(SSOConfig{Flows: flows, Client: sso.NewClient(sso.HTTPClient(true), tf.clock), Site: ssoSite + "/",
			LookupTXT: func(ctx context.Context, name string) ([]string, error) { return f.lookupTXT(ctx, name) }}))
	f.idp.SetNow(tf.clock)
	f.admin = f.person(t, "asha")
	f.org = f.createOrg(t, f.admin, "Asha Payments")
	f.configure(t, f.org.ID, f.admin, `"domains":["Example.COM"],"enabled":true`, 200)
	if st := f.verify(t, f.org.ID, f.admin, "example.com"); len(st.VerifiedDomains) != 1 {
		t.Fatalf("not verified: %+v", st)
	}
	return f
}

// configure PUTs the organisation's settings with the test provider and
// the extra fields, wanting status.
func (f *ssoFixture) configure(t *testing.T, orgID string, p person, extra string, status int) response {
	t.Helper()
	body := `{"issuer":"` + f.idp.Issuer() + `","clientId":"regpulse-client","clientSecret":"client-secret-0123456789",` + extra + `}`
	res := f.call(t, "PUT", "/organisations/"+orgID+"/sso", body, p.auth...)
	if res.status != status {
		t.Fatalf("PUT sso: %d %s, want %d", res.status, res.body, status)
	}
	return res
}

// start begins a sign-in as an API caller: the provider's address and
// the flow's cookie.
func (f *ssoFixture) start(t *testing.T, query string) (string, string) {
	t.Helper()
	res := f.call(t, "GET", "/auth/sso/start?"+query, "")
	if res.status != 200 {
		t.Fatalf("start %s: %d %s", query, res.status, res.body)
	}
	to := jsonOf[SSOStartResponse](t, res).RedirectURL
	return to, flowCookie(t, res)
}

func flowCookie(t *testing.T, res response) string {
	t.Helper()
	for _, line := range res.header.Values("Set-Cookie") {
		c, err := http.ParseSetCookie(line)
		if err == nil && c.Name == sso.CookieName && c.Value != "" {
			if !c.HttpOnly || !c.Secure || c.SameSite != http.SameSiteLaxMode {
				t.Errorf("cookie %q: want HttpOnly, Secure, SameSite=Lax", line)
			}
			return c.Name + "=" + c.Value
		}
	}
	t.Fatalf("no flow cookie in %v", res.header)
	return ""
}

// authorize follows the provider's sign-in, which answers at once: the
// callback's path and query on the API.
func (f *ssoFixture) authorize(t *testing.T, to string) string {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(to)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(back.String(), ssoSite+"/api/auth/sso/callback?") {
		t.Fatalf("provider answered %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	return "/auth/sso/callback?" + back.RawQuery
}

// signIn runs a whole sign-in as an API caller with the headers.
func (f *ssoFixture) signIn(t *testing.T, query string, headers ...string) response {
	t.Helper()
	to, cookie := f.start(t, query)
	return f.call(t, "GET", f.authorize(t, to), "", append([]string{"Cookie", cookie}, headers...)...)
}

func wantSSOError(t *testing.T, res response, status int, want error) {
	t.Helper()
	var e Error
	if res.status != status || json.Unmarshal(res.body, &e) != nil || !strings.EqualFold(e.Message, want.Error()) {
		t.Errorf("%d %s; want %d %q", res.status, res.body, status, want)
	}
}

func TestSSOSignIn(t *testing.T) {
	t.Parallel()
	f := newSSOFixture(t)
	ctx := t.Context()

	t.Run("NewUserJoinsAsMember", func(t *testing.T) {
		f.idp.SetUser(ssotest.User{Subject: "s-ravi", Email: "Ravi@Example.com", EmailVerified: true, GivenName: "Ravi", FamilyName: "Kumar"})
		res := f.signIn(t, "email=ravi@example.com&next="+url.QueryEscape("/circulars/?source=RBI"))
		got := jsonOf[SSOSignInResponse](t, res)
		if res.status != 200 || got.Next != "/circulars/?source=RBI" {
			t.Fatalf("%d %s", res.status, res.body)
		}
		me := jsonOf[MeResponse](t, f.call(t, "GET", "/auth/me", "", bearer(got.Token)...))
		if me.User.Email != "Ravi@Example.com" || me.User.FirstName != "Ravi" || me.User.Username != "Ravi" {
			t.Errorf("me: %+v", me.User)
		}
		m, err := f.db.Membership(ctx, f.org.ID, me.User.ID)
		if err != nil || m.Role != teams.RoleMember {
			t.Errorf("membership: %+v, %v", m, err)
		}
		rows, err := f.db.AuditSubject(ctx, f.org.ID, "member", me.User.ID)
		if err != nil || len(rows) != 1 || rows[0].Action != "member.sso_join" || rows[0].ActorID != me.User.ID {
			t.Errorf("audit: %+v, %v", rows, err)
		}
		// The second time, the same account, no second join.
		again := jsonOf[SSOSignInResponse](t, f.signIn(t, "org="+f.org.ID))
		me2 := jsonOf[MeResponse](t, f.call(t, "GET", "/auth/me", "", bearer(again.Token)...))
		if me2.User.ID != me.User.ID || again.Next != "/" {
			t.Errorf("again: %+v next %q", me2.User, again.Next)
		}
		if rows, _ := f.db.AuditSubject(ctx, f.org.ID, "member", me.User.ID); len(rows) != 1 {
			t.Errorf("audit after the second sign-in: %d rows", len(rows))
		}
		// The password stays the way in for the others.
		if res := f.call(t, "POST", "/auth/login", `{"username":"asha","password":"`+goodPassword+`"}`); res.status != 200 {
			t.Errorf("password sign-in: %d %s", res.status, res.body)
		}
	})

	t.Run("MemberKeepsRole", func(t *testing.T) {
		f.idp.SetUser(ssotest.User{Subject: "s-asha", Email: f.admin.email, EmailVerified: true})
		// The parameters a provider adds of its own are no matter.
		to, cookie := f.start(t, "email="+url.QueryEscape(f.admin.email))
		back := withQuery(t, withQuery(t, f.authorize(t, to), "session_state", "abc"), "iss", f.idp.Issuer())
		tok := jsonOf[SSOSignInResponse](t, f.call(t, "GET", withQuery(t, back, "scope", "openid email"), "", "Cookie", cookie)).Token
		me := jsonOf[MeResponse](t, f.call(t, "GET", "/auth/me", "", bearer(tok)...))
		m, err := f.db.Membership(ctx, f.org.ID, me.User.ID)
		if me.User.ID != f.admin.id || err != nil || m.Role != teams.RoleAdmin {
			t.Errorf("asha: %+v %+v %v", me.User, m, err)
		}
	})

	t.Run("ErrAccountOutsideOrganisation", func(t *testing.T) {
		meera := f.person(t, "meera")
		f.idp.SetUser(ssotest.User{Subject: "s-meera", Email: meera.email, EmailVerified: true})
		wantSSOError(t, f.signIn(t, "email="+url.QueryEscape(meera.email)), 403, sso.ErrNotMember)
	})

	// Each refusal for its own reason, which the operator's log names.
	for _, tc := range []struct {
		name   string
		tamper func(map[string]any)
		user   ssotest.User
		want   error
		why    string
	}{
		{"ErrWrongAudience", func(c map[string]any) { c["aud"] = "another-client" }, ssotest.User{}, sso.ErrBadIDToken, "audience"},
		{"ErrBadNonce", func(c map[string]any) { c["nonce"] = "not-the-flows" }, ssotest.User{}, sso.ErrBadIDToken, "nonce differs"},
		{"ErrNoNonce", func(c map[string]any) { delete(c, "nonce") }, ssotest.User{}, sso.ErrBadIDToken, "nonce differs"},
		{"ErrExpired", func(c map[string]any) {
			c["iat"], c["exp"] = f.clock().Add(-2*time.Hour).Unix(), f.clock().Add(-time.Hour).Unix()
		}, ssotest.User{}, sso.ErrBadIDToken, "expired"},
		{"ErrOtherIssuer", func(c map[string]any) { c["iss"] = "https://idp.example" }, ssotest.User{}, sso.ErrBadIDToken, "different provider"},
		{"ErrUnverifiedEmail", nil, ssotest.User{Subject: "s-new", Email: "new@example.com", EmailVerified: false}, sso.ErrUnverified, "not verified"},
		{"ErrEmailOutsideDomains", nil, ssotest.User{Subject: "s-x", Email: "x@elsewhere.example", EmailVerified: true}, sso.ErrOtherDomain, "outside"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := tc.user
			if u.Email == "" {
				u = ssotest.User{Subject: "s-new", Email: "new@example.com", EmailVerified: true}
			}
			f.idp.SetUser(u)
			f.idp.Tamper(tc.tamper)
			defer f.idp.Tamper(nil)
			f.logs.Take()
			wantSSOError(t, f.signIn(t, "email=new@example.com"), 401, tc.want)
			if logs := f.logs.Take(); !strings.Contains(logs, tc.why) {
				t.Errorf("the log does not say %q:\n%s", tc.why, logs)
			}
			if _, err := f.db.UserByUsername(ctx, "new"); err == nil {
				t.Error("an account was made")
			}
		})
	}

	t.Run("ErrUnknownDomain", func(t *testing.T) {
		wantSSOError(t, f.call(t, "GET", "/auth/sso/start?email=someone@unknown.example", ""), 404, sso.ErrNoOrganisation)
		wantSSOError(t, f.call(t, "GET", "/auth/sso/start?org=no-such-org", ""), 404, sso.ErrNoOrganisation)
		if res := f.call(t, "GET", "/auth/sso/start?email=not-an-address", ""); res.status != 400 {
			t.Errorf("bad address: %d %s", res.status, res.body)
		}
		if res := f.call(t, "GET", "/auth/sso/start", ""); res.status != 400 {
			t.Errorf("nothing: %d %s", res.status, res.body)
		}
	})

	t.Run("ErrReplayedState", func(t *testing.T) {
		f.idp.SetUser(ssotest.User{Subject: "s-asha", Email: f.admin.email, EmailVerified: true})
		to, cookie := f.start(t, "org="+f.org.ID)
		back := f.authorize(t, to)
		if res := f.call(t, "GET", back, "", "Cookie", cookie); res.status != 200 {
			t.Fatalf("first: %d %s", res.status, res.body)
		}
		wantSSOError(t, f.call(t, "GET", back, "", "Cookie", cookie), 400, sso.ErrBadFlow)
	})

	t.Run("ErrFlowCookie", func(t *testing.T) {
		to, cookie := f.start(t, "org="+f.org.ID)
		back := f.authorize(t, to)
		wantSSOError(t, f.call(t, "GET", back, ""), 400, sso.ErrBadFlow)                                                   // another browser
		wantSSOError(t, f.call(t, "GET", back, "", "Cookie", cookie+"x"), 400, sso.ErrBadFlow)                             // tampered
		wantSSOError(t, f.call(t, "GET", withQuery(t, back, "state", "other"), "", "Cookie", cookie), 400, sso.ErrBadFlow) // another state
		_, other := f.start(t, "org="+f.org.ID)                                                                            // another flow's cookie
		wantSSOError(t, f.call(t, "GET", back, "", "Cookie", other), 400, sso.ErrBadFlow)
		to, cookie = f.start(t, "org="+f.org.ID)
		back = f.authorize(t, to)
		f.advance(sso.FlowFor + time.Second)
		wantSSOError(t, f.call(t, "GET", back, "", "Cookie", cookie), 400, sso.ErrBadFlow) // expired
	})

	t.Run("ErrProviderRefused", func(t *testing.T) {
		to, cookie := f.start(t, "org="+f.org.ID)
		state := mustURL(t, to).Query().Get("state")
		res := f.call(t, "GET", "/auth/sso/callback?error=access_denied&state="+state, "", "Cookie", cookie)
		wantSSOError(t, res, 502, sso.ErrProvider)
	})

	t.Run("NoOpenRedirect", func(t *testing.T) {
		f.idp.SetUser(ssotest.User{Subject: "s-asha", Email: f.admin.email, EmailVerified: true})
		for _, next := range []string{"//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/ok\r\nX: y"} {
			res := f.signIn(t, "org="+f.org.ID+"&next="+url.QueryEscape(next))
			if got := jsonOf[SSOSignInResponse](t, res).Next; got != "/" {
				t.Errorf("next %q came back as %q", next, got)
			}
		}
		// A browser is sent to the sign-in page of this site, the token
		// in the fragment.
		to, cookie := f.start(t, "org="+f.org.ID+"&next=//evil.example")
		res := f.call(t, "GET", f.authorize(t, to), "", "Cookie", cookie, "Accept", "text/html")
		loc := res.header.Get("Location")
		u := mustURL(t, loc)
		frag, _ := url.ParseQuery(u.Fragment)
		if res.status != 303 || u.Host != "" || u.Path != "/login/" || frag.Get("next") != "/" || frag.Get("sso_token") == "" {
			t.Errorf("browser: %d %q", res.status, loc)
		}
	})

	t.Run("BrowserGetsPages", func(t *testing.T) {
		res := f.call(t, "GET", "/auth/sso/start?email=a@unknown.example&next=/circulars/", "", "Accept", "text/html")
		if res.status != 404 || !strings.Contains(string(res.body), "No organisation signs in addresses") ||
			!strings.Contains(string(res.body), `href="/login/?next=%2Fcirculars%2F"`) {
			t.Errorf("start: %d %s", res.status, res.body)
		}
		res = f.call(t, "GET", "/auth/sso/start?org="+f.org.ID, "", "Accept", "text/html")
		if res.status != 303 || !strings.HasPrefix(res.header.Get("Location"), f.idp.Issuer()+"/authorize?") {
			t.Errorf("start: %d %v", res.status, res.header)
		}
		q := mustURL(t, res.header.Get("Location")).Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("nonce") == "" || q.Get("state") == "" || q.Get("redirect_uri") != ssoSite+"/api/auth/sso/callback" {
			t.Errorf("authorization request: %v", q)
		}
		res = f.call(t, "GET", "/auth/sso/callback?code=x&state=y", "", "Accept", "text/html")
		if res.status != 400 || !strings.Contains(string(res.body), "start again") {
			t.Errorf("callback: %d %s", res.status, res.body)
		}
	})

	t.Run("ErrDisabled", func(t *testing.T) {
		to, cookie := f.start(t, "org="+f.org.ID)
		f.configure(t, f.org.ID, f.admin, `"domains":["example.com"],"enabled":false`, 200)
		defer f.configure(t, f.org.ID, f.admin, `"domains":["example.com"],"enabled":true`, 200)
		wantSSOError(t, f.call(t, "GET", "/auth/sso/start?org="+f.org.ID, ""), 403, sso.ErrDisabled)
		wantSSOError(t, f.call(t, "GET", f.authorize(t, to), "", "Cookie", cookie), 403, sso.ErrDisabled)
	})
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestSSOSettings(t *testing.T) {
	t.Parallel()
	f := newSSOFixture(t)
	ctx := t.Context()
	path := "/organisations/" + f.org.ID + "/sso"

	got := jsonOf[SSOSettings](t, f.call(t, "GET", path, "", f.admin.auth...))
	if !got.Configured || got.ClientSecretHint != "••••6789" || got.RedirectURI != ssoSite+"/api/auth/sso/callback" ||
		len(got.Domains) != 1 || got.Domains[0] != "example.com" || !got.Enabled {
		t.Errorf("settings: %+v", got)
	}
	// The secret is kept when left out, and never shown.
	res := f.call(t, "PUT", path, `{"issuer":"`+f.idp.Issuer()+`","clientId":"regpulse-client","domains":["example.com","example.co.in"],"enabled":true}`, f.admin.auth...)
	if res.status != 200 || strings.Contains(string(res.body), "client-secret") {
		t.Fatalf("%d %s", res.status, res.body)
	}
	st, err := f.db.SSOSettings(ctx, f.org.ID)
	if err != nil || st.ClientSecret != "client-secret-0123456789" || len(st.Domains) != 2 {
		t.Errorf("stored: %+v %v", st, err)
	}
	rows, err := f.db.AuditSubject(ctx, f.org.ID, "sso", f.org.ID)
	if err != nil || len(rows) != 3 || rows[1].Action != "sso.verify" || rows[2].Action != "sso.update" ||
		strings.Contains(rows[2].After+rows[2].Before, "client-secret") || !strings.Contains(rows[2].After, "example.co.in") {
		t.Errorf("audit: %+v %v", rows, err)
	}

	t.Run("UnverifiedDomainSignsNoOneIn", func(t *testing.T) {
		// example.co.in is named, not proven: no sign-in through it.
		wantSSOError(t, f.call(t, "GET", "/auth/sso/start?email=a@example.co.in", ""), 404, sso.ErrNoOrganisation)
		f.publish("_regpulse-sso.example.co.in", "regpulse-sso=not-the-value")
		res := f.call(t, "POST", path+"/verify", "", f.admin.auth...)
		got := jsonOf[SSOSettings](t, res)
		if res.status != 200 || strings.Join(got.VerifiedDomains, ",") != "example.com" || !strings.Contains(got.Unverified["example.co.in"], "do not hold "+got.RecordValue) {
			t.Fatalf("wrong record: %d %s", res.status, res.body)
		}
		got = f.verify(t, f.org.ID, f.admin, "example.co.in")
		if strings.Join(got.VerifiedDomains, ",") != "example.co.in,example.com" || len(got.Unverified) != 0 {
			t.Errorf("verified: %+v", got)
		}
		if res := f.call(t, "GET", "/auth/sso/start?email=a@example.co.in", ""); res.status != 200 {
			t.Errorf("a verified domain: %d %s", res.status, res.body)
		}
		// Dropping a domain and naming it again: to prove again.
		f.configure(t, f.org.ID, f.admin, `"domains":["example.com"],"enabled":true`, 200)
		got = jsonOf[SSOSettings](t, f.configure(t, f.org.ID, f.admin, `"domains":["example.com","example.co.in"],"enabled":true`, 200))
		if strings.Join(got.VerifiedDomains, ",") != "example.com" {
			t.Errorf("named again: %+v", got)
		}
	})

	t.Run("ErrFields", func(t *testing.T) {
		for _, tc := range []struct{ body, field string }{
			{`{"issuer":"http://idp.example","clientId":"c","domains":["example.com"]}`, "issuer"},
			{`{"issuer":"https://idp.example?x=1","clientId":"c","domains":["example.com"]}`, "issuer"},
			{`{"issuer":"https://idp.example","clientId":"","domains":["example.com"]}`, "clientId"},
			{`{"issuer":"https://idp.example","clientId":"c","domains":[]}`, "domains"},
			{`{"issuer":"https://idp.example","clientId":"c","domains":["*.example.com"]}`, "domains"},
			{`{"issuer":"https://idp.example","clientId":"c","domains":["localhost"]}`, "domains"},
		} {
			res := f.call(t, "PUT", path, tc.body, f.admin.auth...)
			var e Error
			if res.status != 400 || json.Unmarshal(res.body, &e) != nil || e.Fields[tc.field] == "" {
				t.Errorf("%s: %d %s, want 400 on %s", tc.body, res.status, res.body, tc.field)
			}
		}
	})

	t.Run("ErrNotAdmin", func(t *testing.T) {
		ravi := f.person(t, "ravi")
		if res := f.call(t, "GET", path, "", ravi.auth...); res.status != 404 {
			t.Errorf("a stranger: %d", res.status)
		}
		by := teams.Actor{UserID: f.admin.id, OrganisationID: f.org.ID}
		inv, err := f.db.CreateInvite(ctx, by, teams.NewInvite(by, ravi.email, teams.RoleMember, nil, f.clock()), "hash-of-ravi")
		if err == nil {
			_, err = f.db.AcceptInvite(ctx, teams.Actor{UserID: ravi.id, OrganisationID: f.org.ID}, inv.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
		if res := f.call(t, "GET", path, "", ravi.auth...); res.status != 403 {
			t.Errorf("a member reads: %d", res.status)
		}
		if res := f.call(t, "PUT", path, `{"issuer":"https://idp.example","clientId":"c","domains":["ravi.example"]}`, ravi.auth...); res.status != 403 {
			t.Errorf("a member writes: %d", res.status)
		}
		if res := f.call(t, "POST", path+"/verify", "", ravi.auth...); res.status != 403 {
			t.Errorf("a member verifies: %d", res.status)
		}
	})

	t.Run("ErrDomainTaken", func(t *testing.T) {
		meera := f.person(t, "meera")
		other := f.createOrg(t, meera, "Meera Cards")
		if got := jsonOf[SSOSettings](t, f.call(t, "GET", "/organisations/"+other.ID+"/sso", "", meera.auth...)); got.Configured {
			t.Errorf("unconfigured: %+v", got)
		}
		// Naming a domain another organisation verified blocks no one,
		// and proves nothing: its record is the other's.
		f.configure(t, other.ID, meera, `"domains":["meera.example","EXAMPLE.com"],"enabled":true`, 200)
		got := f.verify(t, other.ID, meera, "meera.example", "example.com")
		if strings.Join(got.VerifiedDomains, ",") != "meera.example" || got.Unverified["example.com"] != sso.ErrDomainTaken.Error() {
			t.Errorf("%+v", got)
		}
		if st, _ := f.db.SSOByDomain(ctx, "example.com"); st.OrganisationID != f.org.ID {
			t.Errorf("example.com is now %s's", st.OrganisationID)
		}
	})
}

// withQuery is target with its parameter name set to value.
func withQuery(t *testing.T, target, name, value string) string {
	t.Helper()
	u := mustURL(t, target)
	q := u.Query()
	q.Set(name, value)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestSSO_Statuses: the statuses the calls document that the other
// tests do not reach.
func TestSSO_Statuses(t *testing.T) {
	f := newSSOFixtureLimit(t, 3)
	authTokens, err := auth.NewTokens(testSecret, 60*24*time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	path := "/organisations/" + f.org.ID + "/sso"
	wantError(t, f.call(t, "GET", path+"?x=1", "", f.admin.auth...), 400, map[string]string{"x": "unknown parameter; this call takes: none"})
	wantError(t, f.call(t, "GET", path, ""), 401, nil)
	wantError(t, f.call(t, "PUT", path, "{}"), 401, nil)
	stranger := f.person(t, "stranger")
	wantError(t, f.call(t, "PUT", path, "{}", stranger.auth...), 404, nil)
	wantError(t, f.call(t, "PUT", path, "{}", append([]string{"Content-Type", "text/plain"}, f.admin.auth...)...), 415, nil)
	wantError(t, f.call(t, "PUT", path, `{"issuer":"`+strings.Repeat("x", maxBodyBytes)+`"}`, f.admin.auth...), 413, nil)

	// A provider that does not answer: 502, as JSON and as a page.
	other := f.createOrg(t, stranger, "Unreachable")
	res := f.call(t, "PUT", "/organisations/"+other.ID+"/sso",
		`{"issuer":"http://127.0.0.1:1","clientId":"c","domains":["unreachable.example"],"enabled":true}`, stranger.auth...)
	if res.status != 200 {
		t.Fatalf("%d %s", res.status, res.body)
	}
	f.verify(t, other.ID, stranger, "unreachable.example")
	wantSSOError(t, f.call(t, "GET", "/auth/sso/start?email=a@unreachable.example", ""), 502, sso.ErrProvider)
	if res := f.call(t, "GET", "/auth/sso/start?email=a@unreachable.example", "", "Accept", "text/html"); res.status != 502 ||
		!strings.Contains(string(res.body), "could not be reached") {
		t.Errorf("page: %d %s", res.status, res.body)
	}
	// Three a minute, the two above and this one counted.
	f.call(t, "GET", "/auth/sso/start?email=a@unreachable.example", "")
	wantError(t, f.call(t, "GET", "/auth/sso/start?org="+f.org.ID, ""), 429, nil)
	for range 3 { // the callback counts apart
		wantSSOError(t, f.call(t, "GET", "/auth/sso/callback?code=x&state=y", ""), 400, sso.ErrBadFlow)
	}
	wantError(t, f.call(t, "GET", "/auth/sso/callback?code=x&state=y", ""), 429, nil)

	wantError(t, f.call(t, "POST", path+"/verify", ""), 401, nil)
	wantError(t, f.call(t, "POST", path+"/verify", "", stranger.auth...), 404, nil)
	wantError(t, f.call(t, "POST", path+"/verify", `{"all":"`+strings.Repeat("x", 2000)+`"}`, f.admin.auth...), 413, nil)
	third := f.createOrg(t, stranger, "Unconfigured")
	wantError(t, f.call(t, "POST", "/organisations/"+third.ID+"/sso/verify", "", stranger.auth...), 404, nil)

	// An operator who trusts the organisations' admins takes what they
	// name as verified, but a domain another verified stays theirs.
	f.api = New(f.db, slog.New(slog.NewTextHandler(f.logs, nil)), WithNow(f.clock),
		WithAuth(AuthConfig{Tokens: authTokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}),
		WithSSO(SSOConfig{Client: sso.NewClient(sso.HTTPClient(true), f.clock), TrustDomains: true}))
	got := jsonOf[SSOSettings](t, f.call(t, "PUT", "/organisations/"+third.ID+"/sso", `{"issuer":"https://idp.example","clientId":"c","domains":["third.example"]}`, stranger.auth...))
	if strings.Join(got.VerifiedDomains, ",") != "third.example" {
		t.Errorf("trusted: %+v", got)
	}
	res = f.call(t, "PUT", "/organisations/"+third.ID+"/sso", `{"issuer":"https://idp.example","clientId":"c","domains":["example.com"]}`, stranger.auth...)
	const want = "Another organisation has already verified this e-mail domain: example.com"
	var e Error
	if res.status != 409 || json.Unmarshal(res.body, &e) != nil || e.Message != want || e.Fields["domains"] != want {
		t.Errorf("trusted, taken: %d %s", res.status, res.body)
	}
}
