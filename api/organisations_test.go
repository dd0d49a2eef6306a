package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/auth"
	imail "regpulse/internal/mail"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// teamsFixture is the API over a real store, its invitations e-mailed
// through the loopback SMTP server, with sign-in tokens that outlive an
// invitation (the tests move the clock past one).
type teamsFixture struct {
	*authFixture
	smtp *smtptest.Server
	// txt are the DNS TXT records single sign-on's domain proof reads.
	txt sync.Map // name → []string
}

func newTeamsFixture(t testing.TB) *teamsFixture { return newTeamsFixtureLimit(t, 1000) }

// newTeamsFixtureLimit is newTeamsFixture allowing limit invitations a
// minute; its SMTP server refuses bounce@example.com.
func newTeamsFixtureLimit(t testing.TB, limit int) *teamsFixture {
	t.Helper()
	f := newAuthFixture(t, AuthConfig{})
	srv := smtptest.Start(t, "bounce@example.com")
	authTokens, err := auth.NewTokens(testSecret, 60*24*time.Hour, f.clock)
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := teams.NewTokens([]byte("teams-test-secret-0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	snd, err := imail.NewSender("RegPulse <team@regpulse.example>", "")
	if err != nil {
		t.Fatal(err)
	}
	mailer := &teams.Mailer{Sender: snd, Now: f.clock, Transport: func() (imail.Transport, error) { return imail.NewSMTP(srv.URL()) }}
	tf := &teamsFixture{authFixture: f, smtp: srv}
	f.api = New(f.db, slog.New(slog.NewTextHandler(f.logs, nil)), WithNow(f.clock),
		WithAuth(AuthConfig{Tokens: authTokens, Hasher: cheapHash, LoginLimit: 1000, SignupLimit: 1000}),
		WithTeams(TeamsConfig{Tokens: tokens, Mailer: mailer, Site: "https://regpulse.example/", InviteLimit: limit,
			Mentions: &teammail.Mailer{Sender: snd, Now: f.clock, Transport: func() (imail.Transport, error) { return imail.NewSMTP(srv.URL()) }}}),
		WithSSO(SSOConfig{LookupTXT: func(_ context.Context, name string) ([]string, error) {
			if v, ok := tf.txt.Load(name); ok {
				return v.([]string), nil
			}
			return nil, &net.DNSError{Err: "no such host", Name: name, IsNotFound: true}
		}}))
	return tf
}

// person is a signed-up user: its id and bearer header.
type person struct {
	id, email string
	auth      []string
}

func (f *teamsFixture) person(t *testing.T, name string) person {
	t.Helper()
	h := bearer(f.signup(t, name))
	u, err := f.db.UserByUsername(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	return person{id: u.ID, email: u.Email, auth: h}
}

func jsonOf[T any](t *testing.T, res response) T {
	t.Helper()
	var out T
	if err := json.Unmarshal(res.body, &out); err != nil {
		t.Fatalf("%d %s: %v", res.status, res.body, err)
	}
	return out
}

func (f *teamsFixture) createOrg(t *testing.T, p person, name string) teams.Organisation {
	t.Helper()
	res := f.call(t, "POST", "/organisations", `{"name":"`+name+`","entityTypes":["PSP"]}`, p.auth...)
	if res.status != 201 {
		t.Fatalf("create %s: %d %s", name, res.status, res.body)
	}
	return jsonOf[teams.Organisation](t, res)
}

var tokenInLink = regexp.MustCompile(`/join/\?token=([A-Za-z0-9_.~%-]+)`)

// inviteToken is the token of the last invitation e-mailed to email, from
// the message's plain-text part as the loopback server received it.
func (f *teamsFixture) inviteToken(t *testing.T, email string) string {
	t.Helper()
	got := f.smtp.Received()[email]
	if len(got) == 0 {
		t.Fatalf("no e-mail to %s", email)
	}
	text := plainPart(t, got[len(got)-1])
	m := tokenInLink.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no invitation link in\n%s", text)
	}
	token, err := url.QueryUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// plainPart is a multipart message's text/plain part, decoded.
func plainPart(t *testing.T, raw []byte) string {
	t.Helper()
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextRawPart()
		if err != nil {
			t.Fatalf("no text part: %v", err)
		}
		if !strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain") {
			continue
		}
		var r io.Reader = p
		if strings.EqualFold(p.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
			r = quotedprintable.NewReader(p)
		}
		b, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

// invite has by invite email to org as role (end: an auditor's access end)
// and answers the e-mailed token.
func (f *teamsFixture) invite(t *testing.T, by person, orgID, email, role string, end *time.Time) string {
	t.Helper()
	body := map[string]any{"email": email, "role": role}
	if end != nil {
		body["accessEndsAt"] = end
	}
	b, _ := json.Marshal(body)
	if res := f.call(t, "POST", "/organisations/"+orgID+"/invites", string(b), by.auth...); res.status != 201 {
		t.Fatalf("invite %s: %d %s", email, res.status, res.body)
	}
	return f.inviteToken(t, email)
}

func (f *teamsFixture) accept(t *testing.T, p person, token string) response {
	t.Helper()
	b, _ := json.Marshal(InviteAcceptRequest{Token: token})
	return f.call(t, "POST", "/invites/accept", string(b), p.auth...)
}

// roleCallers are admin and, for each other role, a new member of
// organisation orgID whom admin adds: "member", "viewer", "auditor" (access
// for 30 days) and "ended", an auditor whose access ends in an hour, for
// the role tables: advance the clock past it before calling.
func (f *teamsFixture) roleCallers(t *testing.T, admin person, orgID string) map[string]person {
	t.Helper()
	callers := map[string]person{teams.RoleAdmin: admin}
	for _, role := range []string{teams.RoleMember, teams.RoleViewer, teams.RoleAuditor, "ended"} {
		p := f.person(t, role+"-user")
		switch role {
		case teams.RoleAuditor:
			end := f.clock().Add(30 * 24 * time.Hour)
			f.join(t, admin, p, orgID, teams.RoleAuditor, &end)
		case "ended":
			end := f.clock().Add(time.Hour)
			f.join(t, admin, p, orgID, teams.RoleAuditor, &end)
		default:
			f.join(t, admin, p, orgID, role, nil)
		}
		callers[role] = p
	}
	return callers
}

// join makes p a member of org as role, invited by admin.
func (f *teamsFixture) join(t *testing.T, admin, p person, orgID, role string, end *time.Time) {
	t.Helper()
	if res := f.accept(t, p, f.invite(t, admin, orgID, p.email, role, end)); res.status != 200 {
		t.Fatalf("%s joins as %s: %d %s", p.email, role, res.status, res.body)
	}
}

// TestOrganisations_Roles is the authorization table: each organisation
// call by each role (admin, member, viewer, auditor, an auditor whose
// access ended) on its own organisation and on another, each cell's
// status asserted. Another organisation's items are a 404, never a 403.
func TestOrganisations_Roles(t *testing.T) {
	f := newTeamsFixture(t)
	admin, ravi := f.person(t, "asha"), f.person(t, "ravi")
	own, other := f.createOrg(t, admin, "Asha Payments"), f.createOrg(t, ravi, "Ravi Cards")
	callers := f.roleCallers(t, admin, own.ID)
	f.advance(2 * time.Hour) // the "ended" auditor's access is over
	// target is a fresh member of org (of role member) for each change.
	n := 0
	target := func(t *testing.T, orgAdmin person, orgID string) string {
		n++
		p := f.person(t, fmt.Sprintf("target%d", n))
		f.join(t, orgAdmin, p, orgID, teams.RoleMember, nil)
		return p.id
	}
	type cell struct{ own, other int }
	routes := []struct {
		name   string
		call   func(t *testing.T, p person, org teams.Organisation, orgAdmin person) response
		byRole map[string]cell
	}{
		{"GET /organisations/{id}", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "GET", "/organisations/"+org.ID, "", p.auth...)
		}, map[string]cell{"admin": {200, 404}, "member": {200, 404}, "viewer": {200, 404}, "auditor": {200, 404}, "ended": {404, 404}}},
		{"GET /organisations/{id}/members", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "GET", "/organisations/"+org.ID+"/members", "", p.auth...)
		}, map[string]cell{"admin": {200, 404}, "member": {200, 404}, "viewer": {200, 404}, "auditor": {200, 404}, "ended": {404, 404}}},
		{"PUT /organisations/{id}/members/{userId}", func(t *testing.T, p person, org teams.Organisation, orgAdmin person) response {
			return f.call(t, "PUT", "/organisations/"+org.ID+"/members/"+target(t, orgAdmin, org.ID), `{"role":"viewer"}`, p.auth...)
		}, map[string]cell{"admin": {200, 404}, "member": {403, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
		{"DELETE /organisations/{id}/members/{userId}", func(t *testing.T, p person, org teams.Organisation, orgAdmin person) response {
			return f.call(t, "DELETE", "/organisations/"+org.ID+"/members/"+target(t, orgAdmin, org.ID), "", p.auth...)
		}, map[string]cell{"admin": {204, 404}, "member": {403, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
		{"POST /organisations/{id}/invites", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			n++
			return f.call(t, "POST", "/organisations/"+org.ID+"/invites", fmt.Sprintf(`{"email":"new%d@example.com","role":"viewer"}`, n), p.auth...)
		}, map[string]cell{"admin": {201, 404}, "member": {403, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
	}
	for _, rt := range routes {
		for _, role := range []string{"admin", "member", "viewer", "auditor", "ended"} {
			want := rt.byRole[role]
			t.Run(rt.name+"/"+role+"/own", func(t *testing.T) {
				if res := rt.call(t, callers[role], own, admin); res.status != want.own {
					t.Errorf("%d %s, want %d", res.status, res.body, want.own)
				}
			})
			t.Run(rt.name+"/"+role+"/other", func(t *testing.T) {
				res := rt.call(t, callers[role], other, ravi)
				if res.status != want.other {
					t.Errorf("%d %s, want %d", res.status, res.body, want.other)
				}
				if res.status == 404 && !strings.Contains(string(res.body), "No organisation of yours") {
					t.Errorf("another organisation's answer names it: %s", res.body)
				}
			})
		}
		t.Run(rt.name+"/signed-out", func(t *testing.T) {
			if res := rt.call(t, person{}, own, admin); res.status != 401 {
				t.Errorf("%d %s, want 401", res.status, res.body)
			}
		})
	}
	// The lists: every caller sees its own organisations only, the ended
	// auditor none.
	for role, p := range callers {
		list := jsonOf[[]teams.Organisation](t, f.call(t, "GET", "/organisations", "", p.auth...))
		want := 1
		if role == "ended" {
			want = 0
		}
		if len(list) != want || want == 1 && (list[0].ID != own.ID || list[0].Role != map[string]string{"admin": "admin", "member": "member", "viewer": "viewer", "auditor": "auditor"}[role]) {
			t.Errorf("%s's organisations: %+v", role, list)
		}
		// What the role may do is the API's to say (teams.CanManageMembers).
		if want == 1 && list[0].CanManageMembers != (role == "admin") {
			t.Errorf("%s's organisation says canManageMembers %t", role, list[0].CanManageMembers)
		}
		if res := f.call(t, "GET", "/organisations/"+own.ID, "", p.auth...); want == 1 && jsonOf[teams.Organisation](t, res).CanManageMembers != (role == "admin") {
			t.Errorf("%s: GET /organisations/{id} says %s", role, res.body)
		}
	}
	if res := f.call(t, "GET", "/organisations", ""); res.status != 401 {
		t.Errorf("signed out: %d", res.status)
	}
	// Anyone signed in may create one, and leave one (but its last admin).
	if res := f.call(t, "DELETE", "/organisations/"+own.ID+"/members/"+callers["viewer"].id, "", callers["viewer"].auth...); res.status != 204 {
		t.Errorf("a viewer leaving: %d %s", res.status, res.body)
	}
	wantError(t, f.call(t, "DELETE", "/organisations/"+own.ID+"/members/"+admin.id, "", admin.auth...), 409, nil)
	wantError(t, f.call(t, "PUT", "/organisations/"+own.ID+"/members/"+admin.id, `{"role":"member"}`, admin.auth...), 409, nil)
	wantError(t, f.call(t, "PUT", "/organisations/"+own.ID+"/members/no-such-user", `{"role":"member"}`, admin.auth...), 404, nil)
}

// TestOrganisations_Bodies: what the calls refuse in their bodies.
func TestOrganisations_Bodies(t *testing.T) {
	f := newTeamsFixture(t)
	asha := f.person(t, "asha")
	wantError(t, f.call(t, "POST", "/organisations", `{"name":" "}`, asha.auth...), 400, map[string]string{"name": "Name is required"})
	wantError(t, f.call(t, "POST", "/organisations", `{"name":"X","entityTypes":["Bank"]}`, asha.auth...), 400, nil)
	org := f.createOrg(t, asha, "Org")
	if org.Role != teams.RoleAdmin || len(org.EntityTypes) != 1 {
		t.Errorf("created: %+v", org)
	}
	inv := "/organisations/" + org.ID + "/invites"
	wantError(t, f.call(t, "POST", inv, `{"email":"not-an-address","role":"viewer"}`, asha.auth...), 400, map[string]string{"email": "Invalid email address"})
	wantError(t, f.call(t, "POST", inv, `{"email":"a@example.com","role":"owner"}`, asha.auth...), 400, nil)
	wantError(t, f.call(t, "POST", inv, `{"email":"a@example.com","role":"auditor"}`, asha.auth...), 400, nil)
	past := f.clock().Add(-time.Hour).Format(time.RFC3339)
	wantError(t, f.call(t, "POST", inv, `{"email":"a@example.com","role":"auditor","accessEndsAt":"`+past+`"}`, asha.auth...), 400, map[string]string{"accessEndsAt": "must be in the future"})
	future := f.clock().Add(time.Hour).Format(time.RFC3339)
	wantError(t, f.call(t, "POST", inv, `{"email":"a@example.com","role":"viewer","accessEndsAt":"`+future+`"}`, asha.auth...), 400, nil)
	wantError(t, f.call(t, "POST", inv, `{"email":"asha@example.com","role":"viewer"}`, asha.auth...), 409, nil)
	wantError(t, f.call(t, "POST", "/invites/accept", `{"token":""}`, asha.auth...), 400, nil)
	wantError(t, f.call(t, "POST", "/invites/accept", `{"token":"forged.token"}`, asha.auth...), 400, nil)
}

// TestInvites_Flow: an invitation end to end: made, e-mailed through the
// loopback server, accepted with the link's token by the invited
// address only, the member listed; the token refused a second time,
// after its expiry, and once a newer invitation replaced it.
func TestInvites_Flow(t *testing.T) {
	f := newTeamsFixture(t)
	asha, ravi, meera := f.person(t, "asha"), f.person(t, "ravi"), f.person(t, "meera")
	org := f.createOrg(t, asha, "Asha Payments")
	end := f.clock().Add(90 * 24 * time.Hour)
	token := f.invite(t, asha, org.ID, "Ravi@Example.com", teams.RoleAuditor, &end)
	msg := f.smtp.Received()["Ravi@Example.com"]
	if len(msg) != 1 || !strings.Contains(string(msg[0]), "Subject: Asha Rao invites you to Asha Payments on RegPulse") {
		t.Fatalf("the e-mail: %q", msg)
	}
	wantError(t, f.accept(t, meera, token), 403, nil) // another address
	res := f.accept(t, ravi, token)
	if got := jsonOf[teams.Organisation](t, res); res.status != 200 || got.ID != org.ID || got.Role != teams.RoleAuditor {
		t.Fatalf("accepted: %d %s", res.status, res.body)
	}
	members := jsonOf[[]teams.Member](t, f.call(t, "GET", "/organisations/"+org.ID+"/members", "", ravi.auth...))
	if len(members) != 2 || members[1].UserID != ravi.id || members[1].Role != teams.RoleAuditor || members[1].ExpiresAt == nil || !members[1].ExpiresAt.Equal(end) {
		t.Errorf("members: %+v", members)
	}
	wantError(t, f.accept(t, ravi, token), 409, nil) // used
	// Replaced: the first link no longer works.
	first := f.invite(t, asha, org.ID, meera.email, teams.RoleMember, nil)
	second := f.invite(t, asha, org.ID, meera.email, teams.RoleViewer, nil)
	wantError(t, f.accept(t, meera, first), 404, nil)
	// Expired: 7 days later the link is refused.
	f.advance(teams.InviteFor)
	wantError(t, f.accept(t, meera, second), 410, nil)
	if list := jsonOf[[]teams.Organisation](t, f.call(t, "GET", "/organisations", "", meera.auth...)); len(list) != 0 {
		t.Errorf("meera joined: %+v", list)
	}
}

// TestInvites_Language: the invitation is written in the language of
// the page the admin invites from (Accept-Language), else the admin's
// stored language, and its link opens the accept page in it.
func TestInvites_Language(t *testing.T) {
	f := newTeamsFixture(t)
	asha := f.person(t, "asha") // reads English
	org := f.createOrg(t, asha, "Asha Payments")
	res := f.call(t, "POST", "/auth/signup", signupBody("meera", "meera@example.com"), "Accept-Language", "hi-IN")
	if res.status != 201 {
		t.Fatalf("signup: %d %s", res.status, res.body)
	}
	meera := person{email: "meera@example.com", auth: bearer(tokenOf(t, res))} // reads Hindi
	meerasOrg := f.createOrg(t, meera, "Meera Payments")
	for _, tc := range []struct {
		by                 person
		orgID, to, header  string
		subject, link, say string
	}{
		{asha, org.ID, "ravi@example.com", "hi-IN,hi;q=0.9,en;q=0.8", "Asha Rao ने आपको RegPulse पर Asha Payments से जुड़ने के लिए आमंत्रित किया है",
			"https://regpulse.example/hi/join/?token=", "आमंत्रण स्वीकार करें: "},
		{asha, org.ID, "kiran@example.com", "", "Asha Rao invites you to Asha Payments on RegPulse", "https://regpulse.example/join/?token=", "Accept the invitation: "},
		{meera, meerasOrg.ID, "dev@example.com", "", "Asha Rao ने आपको RegPulse पर Meera Payments से जुड़ने के लिए आमंत्रित किया है",
			"https://regpulse.example/hi/join/?token=", "सदस्य के रूप में"},
		{meera, meerasOrg.ID, "sam@example.com", "en-IN", "Asha Rao invites you to Meera Payments on RegPulse", "https://regpulse.example/join/?token=", "as a member: "},
	} {
		headers := tc.by.auth
		if tc.header != "" {
			headers = append(slices.Clone(headers), "Accept-Language", tc.header)
		}
		if res := f.call(t, "POST", "/organisations/"+tc.orgID+"/invites", `{"email":"`+tc.to+`","role":"member"}`, headers...); res.status != 201 {
			t.Fatalf("invite %s: %d %s", tc.to, res.status, res.body)
		}
		got := f.smtp.Received()[tc.to]
		if len(got) != 1 {
			t.Fatalf("%s received %d e-mails", tc.to, len(got))
		}
		msg, err := mail.ReadMessage(bytes.NewReader(got[0]))
		if err != nil {
			t.Fatal(err)
		}
		if s, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil || s != tc.subject {
			t.Errorf("%s: subject %q (%v), want %q", tc.to, s, err, tc.subject)
		}
		text := plainPart(t, got[0])
		if !strings.Contains(text, tc.link) || !strings.Contains(text, tc.say) {
			t.Errorf("%s: the e-mail lacks %q or %q:\n%s", tc.to, tc.link, tc.say, text)
		}
	}
}

// TestInvites_NoMailer: a server that sends no e-mail invites no one.
func TestInvites_NoMailer(t *testing.T) {
	f := newAuthFixture(t, AuthConfig{})
	asha := bearer(f.signup(t, "asha"))
	res := f.call(t, "POST", "/organisations", `{"name":"Org"}`, asha...)
	org := jsonOf[teams.Organisation](t, res)
	wantError(t, f.call(t, "POST", "/organisations/"+org.ID+"/invites", `{"email":"a@example.com","role":"viewer"}`, asha...), 503, nil)
}

// TestOrganisations_Statuses: the statuses the calls document that the
// other tests do not reach.
func TestOrganisations_Statuses(t *testing.T) {
	f := newTeamsFixtureLimit(t, 3)
	asha := f.person(t, "asha")
	org := f.createOrg(t, asha, "Org")
	base := "/organisations/" + org.ID
	member := base + "/members/" + asha.id
	for _, c := range []struct{ method, target string }{
		{"GET", "/organisations?x=1"}, {"GET", base + "?x=1"}, {"GET", base + "/members?x=1"}, {"DELETE", member + "?x=1"},
	} {
		wantError(t, f.call(t, c.method, c.target, "", asha.auth...), 400, map[string]string{"x": "unknown parameter; this call takes: none"})
	}
	wantError(t, f.call(t, "PUT", member, `{"role":"owner"}`, asha.auth...), 400, nil)
	big := `{"name":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	for _, c := range []struct{ method, target string }{
		{"POST", "/organisations"}, {"PUT", member}, {"POST", base + "/invites"}, {"POST", "/invites/accept"},
	} {
		wantError(t, f.call(t, c.method, c.target, "{}", append([]string{"Content-Type", "text/plain"}, asha.auth...)...), 415, nil)
		wantError(t, f.call(t, c.method, c.target, big, asha.auth...), 413, nil)
	}
	wantError(t, f.call(t, "POST", "/organisations", `{"name":"Org"}`), 401, nil)
	wantError(t, f.call(t, "POST", "/invites/accept", `{"token":"x.y"}`), 401, nil)
	// The SMTP server refuses the address: the invitation is not kept as sent.
	wantError(t, f.call(t, "POST", base+"/invites", `{"email":"bounce@example.com","role":"viewer"}`, asha.auth...), 502, nil)
	// Three a minute, the 415, 413 and 502 above counted: the limit is reached.
	wantError(t, f.call(t, "POST", base+"/invites", `{"email":"ravi@example.com","role":"viewer"}`, asha.auth...), 429, nil)
}
