package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/apikeys"
	"regpulse/internal/decisions"
	"regpulse/internal/teams"
)

func timePtr(t time.Time) *time.Time { return &t }

// newKey makes a key of organisation orgID in the store (as admin
// adminID), lasting for; it answers the key and its token.
func (f *teamsFixture) newKey(t *testing.T, orgID, adminID string, scope apikeys.Scope, lasting time.Duration) (apikeys.Key, string) {
	t.Helper()
	token, hash, prefix := apikeys.New()
	k, err := f.db.CreateAPIKey(t.Context(), teams.Actor{UserID: adminID, OrganisationID: orgID},
		apikeys.Key{ID: uuid.NewString(), Name: string(scope) + " key", Prefix: prefix, Scope: scope, ExpiresAt: f.clock().Add(lasting)}, hash)
	if err != nil {
		t.Fatal(err)
	}
	return k, token
}

// orgActions are orgID's audit actions after row seq.
func (f *teamsFixture) orgActions(t *testing.T, orgID string, seq int64) []string {
	t.Helper()
	var out []string
	for r, err := range f.db.AuditRows(t.Context(), orgID) {
		if err != nil {
			t.Fatal(err)
		}
		if r.Seq > seq {
			out = append(out, r.Action)
		}
	}
	return out
}

func (f *teamsFixture) headSeq(t *testing.T, orgID string) int64 {
	t.Helper()
	h, err := f.db.AuditHead(t.Context(), orgID)
	if err != nil {
		t.Fatal(err)
	}
	return h.Seq
}

// TestAPIKeys_Table is the route × key table of issue 47, generated
// from the declarations: every declared operation is called with no
// key, a read key, a read-write key, a revoked key, an expired key and
// a (read-write) key of another organisation, each answer asserted from
// what the route declares: a revoked or expired key is a 401 (with
// WWW-Authenticate) everywhere; a person's call refuses every working
// key (403); a public call answers a key as it answers no one; an
// organisation's call answers another organisation's key with the 404
// of an organisation that does not exist, and its own keys by their
// scope against the call's Permission (its 2xx, or a 403). A read-write
// key's every request appends apikey.use to its organisation's trail
// (and a change its own row); a read key's requests append only the
// rows of what they change.
func TestAPIKeys_Table(t *testing.T) {
	f := &authzFixture{decisionsFixture: newDecisionsFixture(t)}
	asha, ravi := f.person(t, "asha"), f.person(t, "ravi")
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	newOrg := func(admin person, name string) orgCase {
		o := orgCase{org: f.createOrg(t, admin, name), admin: admin, subject: subject}
		if res := f.call(t, "PUT", decisionPath(o.org.ID, subject), `{"applicability":"applicable","version":0}`, admin.auth...); res.status != 200 {
			t.Fatalf("the first decision: %d %s", res.status, res.body)
		}
		res := f.upload(t, admin, o.org.ID, subject, "proof.pdf", "application/pdf", []byte("%PDF-1.4 proof"))
		if res.status != 201 {
			t.Fatalf("the evidence: %d %s", res.status, res.body)
		}
		o.evidence = jsonOf[decisions.Evidence](t, res).ID
		return o
	}
	own, other := newOrg(asha, "Asha Payments"), newOrg(ravi, "Ravi Cards")
	month := 30 * 24 * time.Hour
	type caller struct {
		name  string
		key   apikeys.Key
		token string
	}
	var callers []caller
	add := func(name, orgID, adminID string, scope apikeys.Scope, lasting time.Duration) {
		k, token := f.newKey(t, orgID, adminID, scope, lasting)
		callers = append(callers, caller{name, k, token})
	}
	add("read", own.org.ID, asha.id, apikeys.Read, month)
	add("read-write", own.org.ID, asha.id, apikeys.ReadWrite, month)
	add("revoked", own.org.ID, asha.id, apikeys.ReadWrite, month)
	add("expired", own.org.ID, asha.id, apikeys.ReadWrite, time.Hour)
	add("other", other.org.ID, ravi.id, apikeys.ReadWrite, month)
	if _, err := f.db.RevokeAPIKey(t.Context(), teams.Actor{UserID: asha.id, OrganisationID: own.org.ID}, callers[2].key.ID); err != nil {
		t.Fatal(err)
	}
	f.advance(2 * time.Hour)

	// publicTarget fills a call's path parameters outside an
	// organisation with values of the fixture.
	publicTarget := func(path string) string {
		return strings.NewReplacer("{id}", f.circular.ID, "{slug}", f.direction.Slug).Replace(path)
	}
	declares := func(rt *route, status int) bool {
		return slices.ContainsFunc(keyDeclaredResponses(rt), func(s int) bool { return s == status })
	}
	var orgs, public int
	for _, rt := range routes() {
		op := rt.op
		_, isOrg := orgCalls[op.ID]
		isOrg = isOrg && strings.HasPrefix(op.Path, "/organisations/{id}")
		if isOrg {
			orgs++
		} else {
			public++
		}
		// base is the answer to no key (a public call's, or the
		// signed-out one's).
		base := map[string]int{}
		for _, c := range append([]caller{{name: "none"}}, callers...) {
			t.Run(op.ID+"/"+c.name, func(t *testing.T) {
				var target, body string
				var req orgRequest
				if isOrg {
					req = orgCalls[op.ID].prepare(t, f, own)
					target, body = req.target(t, op, own.org.ID), req.body
				} else {
					target = publicTarget(op.Path)
				}
				var hdr []string
				if c.token != "" {
					hdr = []string{"Authorization", "Bearer " + c.token}
				}
				if req.contentType != "" {
					hdr = append(hdr, "Content-Type", req.contentType)
				}
				seqs := map[string]int64{own.org.ID: f.headSeq(t, own.org.ID), other.org.ID: f.headSeq(t, other.org.ID)}
				res := f.call(t, op.Method, target, body, hdr...)
				if c.name == "none" {
					base[target] = res.status
					if isOrg && res.status != http.StatusUnauthorized {
						t.Errorf("%s %s with no key: %d, want 401", op.Method, target, res.status)
					}
					return
				}
				want := 0
				switch {
				case c.name == "revoked" || c.name == "expired":
					want = http.StatusUnauthorized
				case isOrg && c.key.OrganisationID != own.org.ID:
					want = http.StatusNotFound
				case isOrg && c.key.Scope.Allows(op.Permission):
					want = success(op)
				case isOrg:
					want = http.StatusForbidden
				case !rt.keyReaches():
					want = http.StatusForbidden
				default:
					want = base[target] // a public call: as without a key
				}
				if res.status != want {
					t.Fatalf("%s %s with the %s key: %d %s, want %d", op.Method, target, c.name, res.status, res.body, want)
				}
				if !declares(rt, res.status) {
					t.Errorf("%s %s answers %d, which it does not declare", op.Method, op.Path, res.status)
				}
				var e Error
				_ = json.Unmarshal(res.body, &e)
				switch {
				case want == http.StatusUnauthorized && !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer"):
					t.Errorf("a 401 without WWW-Authenticate: %v", res.header)
				case want == http.StatusForbidden && !isOrg && e.Message != errKeyRefused.Message:
					t.Errorf("a key refused with %q", e.Message)
				case want == http.StatusNotFound:
					missing := req.target(t, op, "00000000-0000-4000-8000-00000000dead")
					var m Error
					_ = json.Unmarshal(f.call(t, op.Method, missing, body, hdr...).body, &m)
					if e.Message != m.Message {
						t.Errorf("another organisation's key tells its organisation apart: %q, not %q", e.Message, m.Message)
					}
				}
				// The trails: a read-write key's request is audited in its
				// own organisation; a change its row besides.
				for orgID, seq := range seqs {
					got := f.orgActions(t, orgID, seq)
					var wantRows []string
					if isOrg && orgID == own.org.ID && res.status < 300 && orgCalls[op.ID].action != "" {
						wantRows = append(wantRows, orgCalls[op.ID].action)
					}
					if c.key.OrganisationID == orgID && c.key.Scope == apikeys.ReadWrite && want != http.StatusUnauthorized {
						wantRows = append(wantRows, "apikey.use")
					}
					if want == http.StatusNotFound {
						// the look-up of the missing organisation is a request too
						if c.key.OrganisationID == orgID && c.key.Scope == apikeys.ReadWrite {
							wantRows = append(wantRows, "apikey.use")
						}
					}
					if !slices.Equal(got, wantRows) {
						t.Errorf("%s by the %s key (%d): organisation %s's trail has %q, want %q", op.ID, c.name, res.status, orgID, got, wantRows)
					}
				}
			})
		}
	}
	if orgs < 15 || public < 50 {
		t.Fatalf("%d operations of an organisation, %d others: the table lost some", orgs, public)
	}
}

// keyDeclaredResponses are the statuses rt's document declares.
func keyDeclaredResponses(rt *route) []int {
	var out []int
	for _, r := range keyDeclared(rt).Responses {
		out = append(out, r.Status)
	}
	return out
}

// TestAPIKeys_Manage: an admin creates a key (the token in that answer
// only; the list shows its prefix), the key works until revoked, then is
// a 401; what the body may hold is checked; the trail records the
// create, the revoke and the key's own actions under "apikey:<id>"; last
// used is recorded.
func TestAPIKeys_Manage(t *testing.T) {
	f := newDecisionsFixture(t)
	asha := f.person(t, "asha")
	org := f.createOrg(t, asha, "Asha Payments")
	base := "/organisations/" + org.ID + "/api-keys"
	later := f.clock().Add(90 * 24 * time.Hour)

	for _, tc := range []struct {
		body  string
		field string
	}{
		{`{"name":"","scope":"read","expiresAt":"` + later.Format(time.RFC3339) + `"}`, "name"},
		{`{"name":"x","scope":"admin","expiresAt":"` + later.Format(time.RFC3339) + `"}`, "scope"},
		{`{"name":"x","scope":"read"}`, "expiresAt"},
		{`{"name":"x","scope":"read","expiresAt":"` + f.clock().Add(-time.Hour).Format(time.RFC3339) + `"}`, "expiresAt"},
		{`{"name":"x","scope":"read","expiresAt":"` + f.clock().Add(400*24*time.Hour).Format(time.RFC3339) + `"}`, "expiresAt"},
	} {
		res := f.call(t, "POST", base, tc.body, asha.auth...)
		if res.status != 400 || jsonOf[Error](t, res).Fields[tc.field] == "" {
			t.Errorf("%s: %d %s, want 400 naming %s", tc.body, res.status, res.body, tc.field)
		}
	}

	if res := f.call(t, "GET", base+"?x=1", "", asha.auth...); res.status != 400 {
		t.Errorf("an unknown parameter: %d", res.status)
	}
	if res := f.call(t, "POST", base, `{"name":"`+strings.Repeat("x", 17<<10)+`"}`, asha.auth...); res.status != 413 {
		t.Errorf("a body too large: %d", res.status)
	}
	if res := f.call(t, "POST", base, `name=x`, append(slices.Clone(asha.auth), "Content-Type", "application/x-www-form-urlencoded")...); res.status != 415 {
		t.Errorf("a form: %d", res.status)
	}
	res := f.call(t, "POST", base, bodyOf(APIKeyRequest{Name: "ServiceNow", Scope: "read-write", ExpiresAt: &later}), asha.auth...)
	if res.status != 201 || res.header.Get("Cache-Control") != "no-store" {
		t.Fatalf("create: %d %s", res.status, res.body)
	}
	created := jsonOf[APIKeyCreated](t, res)
	if !apikeys.WellFormed(created.Token) || !strings.HasPrefix(created.Token, created.Key.Prefix) || created.Key.Status != "active" ||
		created.Key.CreatedBy != asha.id || created.Key.Scope != apikeys.ReadWrite {
		t.Fatalf("created: %+v", created)
	}
	key := []string{"Authorization", "Bearer " + created.Token}

	list := f.call(t, "GET", base, "", asha.auth...)
	if list.status != 200 || strings.Contains(string(list.body), created.Token) || strings.Contains(string(list.body), apikeys.Hash(created.Token)) {
		t.Fatalf("list: %d %s", list.status, list.body)
	}
	if got := jsonOf[[]apikeys.Key](t, list); len(got) != 1 || got[0].LastUsedAt != nil {
		t.Fatalf("list: %+v", got)
	}

	// The key reads its organisation and records a decision, as itself.
	if res := f.call(t, "GET", "/organisations/"+org.ID, "", key...); res.status != 200 || jsonOf[teams.Organisation](t, res).CanDecide != true {
		t.Errorf("the organisation by key: %d %s", res.status, res.body)
	}
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	if res := f.call(t, "PUT", decisionPath(org.ID, subject), `{"applicability":"applicable","version":0}`, key...); res.status != 200 {
		t.Fatalf("a decision by key: %d %s", res.status, res.body)
	}
	rows, err := f.db.AuditSubject(t.Context(), org.ID, "decision", subject.String())
	if err != nil || len(rows) != 1 || rows[0].ActorID != "apikey:"+created.Key.ID {
		t.Errorf("the decision's row: %+v, %v", rows, err)
	}
	uses, err := f.db.AuditSubject(t.Context(), org.ID, "apikey", created.Key.ID)
	if err != nil || len(uses) != 3 || uses[0].Action != "apikey.create" || uses[0].ActorID != asha.id ||
		uses[2].Action != "apikey.use" || !strings.Contains(uses[2].After, `"method":"PUT"`) || !strings.Contains(uses[2].After, `"status":200`) ||
		!strings.Contains(uses[2].After, `"path":"/organisations/`+org.ID+`/decision"`) {
		t.Errorf("the key's rows: %+v, %v", uses, err)
	}
	if got := jsonOf[[]apikeys.Key](t, f.call(t, "GET", base, "", asha.auth...)); got[0].LastUsedAt == nil || !got[0].LastUsedAt.Equal(f.clock()) {
		t.Errorf("last used: %+v", got[0].LastUsedAt)
	}

	// Revoked: refused from then on, kept in the list.
	res = f.call(t, "DELETE", base+"/"+created.Key.ID, "", asha.auth...)
	if res.status != 200 || jsonOf[apikeys.Key](t, res).Status != "revoked" {
		t.Fatalf("revoke: %d %s", res.status, res.body)
	}
	if res := f.call(t, "GET", "/organisations/"+org.ID, "", key...); res.status != 401 || res.header.Get("WWW-Authenticate") == "" {
		t.Errorf("a revoked key: %d %s", res.status, res.body)
	}
	if res := f.call(t, "DELETE", base+"/"+uuid.NewString(), "", asha.auth...); res.status != 404 {
		t.Errorf("revoking no key: %d %s", res.status, res.body)
	}
	if got := jsonOf[[]apikeys.Key](t, f.call(t, "GET", base, "", asha.auth...)); len(got) != 1 || got[0].Status != "revoked" {
		t.Errorf("after revoking: %+v", got)
	}
	// A malformed or unknown token is a 401 too, on a public call.
	for _, token := range []string{"rpk_nope", "rpk_" + strings.Repeat("A", 43)} {
		if res := f.call(t, "GET", "/circulars", "", "Authorization", "Bearer "+token); res.status != 401 {
			t.Errorf("%s: %d", token, res.status)
		}
	}
}

// TestAPIKeys_RateLimit: a public call's rate limit counts a key's
// requests per key, with the limit of an address: a key that used its
// allowance is refused while another key, and the address without a
// key, are not.
func TestAPIKeys_RateLimit(t *testing.T) {
	f := newDecisionsFixture(t)
	asha := f.person(t, "asha")
	org := f.createOrg(t, asha, "Asha Payments")
	_, first := f.newKey(t, org.ID, asha.id, apikeys.Read, time.Hour)
	_, second := f.newKey(t, org.ID, asha.id, apikeys.Read, time.Hour)
	upload := func(token string) int {
		var hdr []string
		if token != "" {
			hdr = []string{"Authorization", "Bearer " + token}
		}
		return f.call(t, "POST", "/extract-pdf-text", "", hdr...).status
	}
	for i := range uploadLimit {
		if got := upload(first); got == http.StatusTooManyRequests {
			t.Fatalf("request %d of the key refused", i+1)
		}
	}
	if got := upload(first); got != http.StatusTooManyRequests {
		t.Errorf("past the limit: %d, want 429", got)
	}
	if got := upload(second); got == http.StatusTooManyRequests {
		t.Errorf("another key: %d", got)
	}
	if got := upload(""); got == http.StatusTooManyRequests {
		t.Errorf("the address without a key: %d", got)
	}
}
