package api

import (
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"regpulse/api/apispec"
	"regpulse/internal/apikeys"
	"regpulse/internal/audit"
	"regpulse/internal/decisions"
	"regpulse/internal/sso"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// The authorization table of issue 44, generated from the declarations:
// every operation of an organisation (its path under /organisations/{id},
// or taking the organisation's id) by every role, on its own
// organisation and on another, and signed out, each cell's status
// asserted from the operation's declared Permission; and every one that
// changes state, done by a role that may, writes its audit row (a
// refused one writes none). A new operation of an organisation joins the
// table by itself and fails it until its Permission and its entry in
// orgCalls (how to call it, what it records) are declared.

// mayByPermission is who may do what, stated here apart from teams'
// rules (which the router runs), so that a change of either shows.
var mayByPermission = map[string][]string{
	"read":   {teams.RoleAdmin, teams.RoleMember, teams.RoleViewer, teams.RoleAuditor},
	"decide": {teams.RoleAdmin, teams.RoleMember},
	"review": {teams.RoleAdmin, teams.RoleAuditor},
	"manage": {teams.RoleAdmin},
}

// orgRequest is one call of an organisation's operation: its path's
// parameters but the organisation's id, its query and its body (JSON
// unless contentType says otherwise).
type orgRequest struct {
	params      map[string]string
	query       string
	body        string
	contentType string
}

// orgCase is the organisation the table calls into, with what its calls
// need already there: a decision on subject and a file of evidence.
type orgCase struct {
	org      teams.Organisation
	admin    person
	subject  decisions.Subject
	evidence string
}

// orgCall is how the table makes one operation succeed for a role that
// may: prepare makes what the call needs afresh in the organisation (a
// member to change, the version to write on) and answers the request;
// action is the audit row a call that changes state writes.
type orgCall struct {
	prepare func(t *testing.T, f *authzFixture, o orgCase) orgRequest
	action  string
}

// orgCalls are the table's calls, by operation id: one for every
// operation of an organisation, none for another.
var orgCalls = map[string]orgCall{
	"getOrganisation": {prepare: noRequest},
	"listMembers":     {prepare: noRequest},
	"setMember": {action: "member.role", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{params: map[string]string{"userId": f.freshMember(t, o)}, body: `{"role":"viewer"}`}
	}},
	"removeMember": {action: "member.remove", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{params: map[string]string{"userId": f.freshMember(t, o)}}
	}},
	"createInvite": {action: "invite.create", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		f.seq++
		return orgRequest{body: fmt.Sprintf(`{"email":"invitee%d@example.com","role":"viewer"}`, f.seq)}
	}},
	"listDecisions": {prepare: func(*testing.T, *authzFixture, orgCase) orgRequest { return orgRequest{query: "status=new"} }},
	"getDecision":   {prepare: onSubject},
	"putDecision": {action: "decision.update", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		d, err := f.db.Decision(t.Context(), o.org.ID, o.subject)
		if err != nil {
			t.Fatal(err)
		}
		r := onSubject(t, f, o)
		r.body = bodyOf(DecisionRequest{Applicability: decisions.Applicable, Status: decisions.StatusAssessing, Due: "effective+30d", Version: d.Version})
		return r
	}},
	"listDecisionComments": {prepare: onSubject},
	"addDecisionComment": {action: "comment.create", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		r := onSubject(t, f, o)
		r.body = `{"body":"Checked against the circular."}`
		return r
	}},
	"reassignDecisions": {action: "decision.reassign", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{body: bodyOf(ReassignRequest{From: "someone-else", To: o.admin.id})}
	}},
	"addEvidence": {action: "evidence.add", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		r := onSubject(t, f, o)
		r.body = `{"link":"https://example.com/proof.pdf"}`
		return r
	}},
	"listEvidence": {prepare: onSubject},
	"getEvidenceFile": {prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{params: map[string]string{"evidence": o.evidence}}
	}},
	"reviewEvidence": {action: "evidence.review", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{params: map[string]string{"evidence": o.evidence}, body: `{"decision":"accepted"}`}
	}},
	"organisationRegister": {prepare: noRequest},
	// An export is a read the trail records: who took the register, when,
	// and the file's hash.
	"exportOrganisationRegister": {action: "export.create", prepare: func(*testing.T, *authzFixture, orgCase) orgRequest {
		return orgRequest{query: "format=xlsx"}
	}},
	"getSSO": {prepare: noRequest},
	"verifySSO": {action: "sso.verify", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		f.seq++
		domain := fmt.Sprintf("verify%d.example.com", f.seq)
		st, err := f.db.SaveSSOSettings(t.Context(), teams.Actor{OrganisationID: o.org.ID, UserID: o.admin.id},
			sso.Settings{Issuer: "https://login.example.com", ClientID: "regpulse", ClientSecret: "s3cret", Domains: []string{domain}})
		if err != nil {
			t.Fatal(err)
		}
		f.txt.Store(sso.RecordName(domain), []string{st.Shown().RecordValue})
		return orgRequest{}
	}},
	"listAPIKeys": {prepare: noRequest},
	"createAPIKey": {action: "apikey.create", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{body: bodyOf(APIKeyRequest{Name: "GRC feed", Scope: "read", ExpiresAt: timePtr(f.clock().Add(30 * 24 * time.Hour))})}
	}},
	"revokeAPIKey": {action: "apikey.revoke", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		k, _ := f.newKey(t, o.org.ID, o.admin.id, apikeys.Read, 30*24*time.Hour)
		return orgRequest{params: map[string]string{"keyId": k.ID}}
	}},
	"putSSO": {action: "sso.update", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		f.seq++
		return orgRequest{body: fmt.Sprintf(`{"issuer":"https://login.example.com","clientId":"regpulse","clientSecret":"s3cret-%d","domains":["authz%d.example.com"],"enabled":false}`, f.seq, f.seq)}
	}},
	"listWebhooks": {prepare: noRequest},
	"getWebhook":   {prepare: onWebhook},
	"createWebhook": {action: "webhook.create", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		return orgRequest{body: `{"kind":"webhook","url":"https://grc.example.com/in","description":"GRC","events":["circular.published"]}`}
	}},
	"updateWebhook": {action: "webhook.update", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		r := onWebhook(t, f, o)
		r.body = `{"enabled":false}`
		return r
	}},
	"deleteWebhook":         {action: "webhook.delete", prepare: onWebhook},
	"rotateWebhookSecret":   {action: "webhook.rotate", prepare: onWebhook},
	"testWebhook":           {action: "webhook.test", prepare: onWebhook},
	"listWebhookDeliveries": {prepare: onWebhook},
	"resendWebhookDelivery": {action: "delivery.resend", prepare: func(t *testing.T, f *authzFixture, o orgCase) orgRequest {
		r := onWebhook(t, f, o)
		ev, err := webhooks.TestEvent(o.org.ID, r.params["webhookId"], "https://regpulse.test/organisation", f.clock())
		if err != nil {
			t.Fatal(err)
		}
		d, err := f.db.SendWebhookTest(t.Context(), teams.Actor{OrganisationID: o.org.ID, UserID: o.admin.id}, r.params["webhookId"], ev)
		if err != nil {
			t.Fatal(err)
		}
		r.params["deliveryId"] = d.ID
		return r
	}},
}

func noRequest(*testing.T, *authzFixture, orgCase) orgRequest { return orgRequest{} }

// onWebhook answers the path's parameter of a webhook endpoint of o's
// organisation: its first, made when it has none (the table's calls
// would otherwise pass the organisation's limit).
func onWebhook(t *testing.T, f *authzFixture, o orgCase) orgRequest {
	t.Helper()
	list, err := f.db.WebhookEndpoints(t.Context(), o.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) > 0 {
		return orgRequest{params: map[string]string{"webhookId": list[0].ID}}
	}
	e, err := f.db.CreateWebhookEndpoint(t.Context(), teams.Actor{OrganisationID: o.org.ID, UserID: o.admin.id},
		webhooks.Endpoint{Kind: webhooks.KindWebhook, URL: "https://grc.example.com/in", Events: []webhooks.EventType{webhooks.CircularPublished}})
	if err != nil {
		t.Fatal(err)
	}
	return orgRequest{params: map[string]string{"webhookId": e.ID}}
}

func onSubject(_ *testing.T, _ *authzFixture, o orgCase) orgRequest {
	return orgRequest{query: subjectQuery(o.subject)}
}

// authzFixture is the decisions' fixture with a counter for the names
// the table makes.
type authzFixture struct {
	*decisionsFixture
	seq int
}

// freshMember is a new member (role member) of o's organisation.
func (f *authzFixture) freshMember(t *testing.T, o orgCase) string {
	t.Helper()
	f.seq++
	p := f.person(t, fmt.Sprintf("target%d", f.seq))
	f.join(t, o.admin, p, o.org.ID, teams.RoleMember, nil)
	return p.id
}

// orgRoutes are the declared operations of an organisation: those whose
// path is under /organisations/{id} or that take its id.
func orgRoutes() []*route {
	var out []*route
	for _, rt := range routes() {
		if strings.HasPrefix(rt.op.Path, "/organisations/{id}") || slices.Contains(rt.op.Params, paramDecls["OrganisationID"]) {
			out = append(out, rt)
		}
	}
	return out
}

// success is the 2xx status op declares.
func success(op *apispec.Operation) int {
	for _, r := range op.Responses {
		if r.Status >= 200 && r.Status < 300 {
			return r.Status
		}
	}
	return 0
}

// target is r's path and query for op in organisation orgID.
func (r orgRequest) target(t *testing.T, op *apispec.Operation, orgID string) string {
	t.Helper()
	path := strings.Replace(op.Path, "{id}", orgID, 1)
	for name, v := range r.params {
		path = strings.Replace(path, "{"+name+"}", v, 1)
	}
	if strings.Contains(path, "{") {
		t.Fatalf("%s: orgCalls gives no value of a parameter of %s", op.ID, path)
	}
	if r.query != "" {
		path += "?" + r.query
	}
	return path
}

// TestAuthorization_Declared: every operation of an organisation declares
// its Permission and has its entry in orgCalls (a call that changes
// state: the audit action it records), and orgCalls names no other.
func TestAuthorization_Declared(t *testing.T) {
	ids := map[string]bool{}
	for _, rt := range orgRoutes() {
		op := rt.op
		ids[op.ID] = true
		if _, ok := mayByPermission[op.Permission]; !ok {
			t.Errorf("%s %s is an organisation's call: declare its Permission (read, decide, review or manage), not %q", op.Method, op.Path, op.Permission)
		}
		c, ok := orgCalls[op.ID]
		switch {
		case !ok:
			t.Errorf("%s (%s %s): add how to call it to orgCalls (authz_test.go)", op.ID, op.Method, op.Path)
		case op.Method != http.MethodGet && c.action == "":
			t.Errorf("%s changes state: orgCalls must name the audit action it records", op.ID)
		}
		if success(op) == 0 {
			t.Errorf("%s declares no 2xx answer", op.ID)
		}
	}
	for id := range orgCalls {
		if !ids[id] {
			t.Errorf("orgCalls names %s, no operation of an organisation", id)
		}
	}
	// A call outside any organisation declares none.
	for _, rt := range routes() {
		if !ids[rt.op.ID] && rt.op.Permission != "" {
			t.Errorf("%s is no organisation's call but declares Permission %q", rt.op.ID, rt.op.Permission)
		}
	}
}

// TestAuthorization_Table calls every operation of an organisation as
// admin, member, viewer, auditor, an auditor whose access ended, a user
// of no organisation, on its own organisation and on another, and
// signed out: a role the declared Permission allows gets the declared
// 2xx, another role a 403, anyone but an active member a 404 whose
// answer is that of an organisation that does not exist (never a 403),
// and no one signed in a 401. Each call that changes state and
// succeeds appends its action to the organisation's audit trail; a
// refused call and a read append nothing, to either organisation; and
// every chain verifies at the end.
func TestAuthorization_Table(t *testing.T) {
	f := &authzFixture{decisionsFixture: newDecisionsFixture(t)}
	ctx := t.Context()
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
	callers := f.roleCallers(t, asha, own.org.ID)
	callers["outsider"] = f.person(t, "outsider")
	f.advance(2 * time.Hour) // the "ended" auditor's access is over
	roles := []string{teams.RoleAdmin, teams.RoleMember, teams.RoleViewer, teams.RoleAuditor, "ended", "outsider"}

	head := func(t *testing.T, orgID string) audit.Head {
		h, err := f.db.AuditHead(ctx, orgID)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// actions are orgID's audit actions after row seq.
	actions := func(t *testing.T, orgID string, seq int64) []string {
		var out []string
		for r, err := range f.db.AuditRows(ctx, orgID) {
			if err != nil {
				t.Fatal(err)
			}
			if r.Seq > seq {
				out = append(out, r.Action)
			}
		}
		return out
	}
	// notFound is the answer's message for an organisation that does
	// not exist: another organisation's must be the same.
	notFound := func(t *testing.T, method, target string, req orgRequest, p person) string {
		var e Error
		res := f.call(t, method, target, req.body, headers(p, req)...)
		if res.status != 404 || json.Unmarshal(res.body, &e) != nil {
			t.Fatalf("%s %s: %d %s, want 404", method, target, res.status, res.body)
		}
		return e.Message
	}

	calls := orgRoutes()
	if len(calls) < 15 {
		t.Fatalf("%d operations of an organisation: the table lost some", len(calls))
	}
	for _, rt := range calls {
		op := rt.op
		c, ok := orgCalls[op.ID]
		if !ok || mayByPermission[op.Permission] == nil {
			continue // TestAuthorization_Declared says what is missing
		}
		cell := func(t *testing.T, role string, o orgCase) {
			p := callers[role]
			req := c.prepare(t, f, o)
			target := req.target(t, op, o.org.ID)
			before := map[string]audit.Head{own.org.ID: head(t, own.org.ID), other.org.ID: head(t, other.org.ID)}
			res := f.call(t, op.Method, target, req.body, headers(p, req)...)
			want := success(op)
			switch {
			case p.auth == nil:
				want = http.StatusUnauthorized
			case o.org.ID != own.org.ID || role == "ended" || role == "outsider":
				want = http.StatusNotFound
			case !slices.Contains(mayByPermission[op.Permission], role):
				want = http.StatusForbidden
			}
			if res.status != want {
				t.Fatalf("%s %s as %s: %d %s, want %d (Permission %q)", op.Method, target, role, res.status, res.body, want, op.Permission)
			}
			for orgID, h := range before {
				got := actions(t, orgID, h.Seq)
				switch {
				case orgID == o.org.ID && c.action != "" && res.status == want && want < 300:
					if !slices.Contains(got, c.action) {
						t.Errorf("%s by %s changed state and its audit trail has %q, not %q", op.ID, role, got, c.action)
					}
				case len(got) > 0:
					t.Errorf("%s by %s (%d) wrote audit rows %q", op.ID, role, res.status, got)
				}
			}
			if want == http.StatusNotFound {
				var e Error
				_ = json.Unmarshal(res.body, &e)
				missing := req.target(t, op, "00000000-0000-4000-8000-00000000dead")
				if m := notFound(t, op.Method, missing, req, p); e.Message != m {
					t.Errorf("the 404 tells an organisation that exists from one that does not: %q, not %q", e.Message, m)
				}
			}
		}
		for _, role := range roles {
			t.Run(op.ID+"/"+role+"/own", func(t *testing.T) { cell(t, role, own) })
			t.Run(op.ID+"/"+role+"/other", func(t *testing.T) { cell(t, role, other) })
		}
		t.Run(op.ID+"/signed-out", func(t *testing.T) { cell(t, "signed-out", own) })
	}

	// The trail of every call above verifies.
	orgs, err := f.db.AuditOrganisations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	reports, err := audit.VerifyAll(orgs, func(org string) iter.Seq2[audit.Row, error] { return f.db.AuditRows(ctx, org) }, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, rep := range reports {
		if rep.Broken != nil {
			t.Errorf("organisation %s's chain breaks at row %d: %s", rep.OrgID, rep.Broken.Row.Seq, rep.Broken.Reason)
		}
	}
}

// headers are p's credentials and req's body type.
func headers(p person, req orgRequest) []string {
	h := slices.Clone(p.auth)
	if req.contentType != "" {
		h = append(h, "Content-Type", req.contentType)
	}
	return h
}

// teamCalls are the teams' calls that change an organisation from
// outside its path (creating one, joining one), by operation id: run
// makes one succeed and answers the organisation changed; action is its
// audit row's.
var teamCalls = map[string]struct {
	action string
	run    func(t *testing.T, f *authzFixture) (response, string)
}{
	"createOrganisation": {"organisation.create", func(t *testing.T, f *authzFixture) (response, string) {
		res := f.call(t, "POST", "/organisations", `{"name":"Meera Lending"}`, f.person(t, "meera").auth...)
		return res, jsonOf[teams.Organisation](t, res).ID
	}},
	"acceptInvite": {"member.join", func(t *testing.T, f *authzFixture) (response, string) {
		admin, p := f.person(t, "kiran"), f.person(t, "joiner")
		org := f.createOrg(t, admin, "Kiran Cards")
		return f.accept(t, p, f.invite(t, admin, org.ID, p.email, teams.RoleViewer, nil)), org.ID
	}},
}

// TestAudit_TeamCalls: the teams' calls that change state outside an
// organisation's path (the authorization table does the others) each
// append their action to the organisation's trail. A new one fails here
// until teamCalls says how to make it and what it records.
func TestAudit_TeamCalls(t *testing.T) {
	f := &authzFixture{decisionsFixture: newDecisionsFixture(t)}
	inTable := map[string]bool{}
	for _, rt := range orgRoutes() {
		inTable[rt.op.ID] = true
	}
	seen := map[string]bool{}
	for _, rt := range slices.Concat(organisationRoutes(), decisionRoutes(), evidenceRoutes()) {
		op := rt.op
		if op.Method == http.MethodGet || inTable[op.ID] {
			continue
		}
		seen[op.ID] = true
		c, ok := teamCalls[op.ID]
		if !ok {
			t.Errorf("%s (%s %s) changes state: add it to teamCalls with the audit action it records", op.ID, op.Method, op.Path)
			continue
		}
		t.Run(op.ID, func(t *testing.T) {
			res, orgID := c.run(t, f)
			if res.status != success(op) {
				t.Fatalf("%d %s, want %d", res.status, res.body, success(op))
			}
			h, err := f.db.AuditHead(t.Context(), orgID)
			if err != nil {
				t.Fatal(err)
			}
			var last audit.Row
			for r, err := range f.db.AuditRows(t.Context(), orgID) {
				if err != nil {
					t.Fatal(err)
				}
				last = r
			}
			if last.Seq != h.Seq || last.Action != c.action {
				t.Errorf("the trail ends with %q (row %d), want %q", last.Action, last.Seq, c.action)
			}
		})
	}
	for id := range teamCalls {
		if !seen[id] {
			t.Errorf("teamCalls names %s, no call of the teams' that changes state outside an organisation's path", id)
		}
	}
}
