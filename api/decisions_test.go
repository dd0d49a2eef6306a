package api

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// decisionsFixture is the teams fixture over a catalog of a few
// circulars (the UPI fraud one with an effective date and an obligation
// with a deadline) and one Master Direction.
type decisionsFixture struct {
	*teamsFixture
	circular   catalog.Circular // effective 2025-07-01
	undated    catalog.Circular // no effective date
	obligation string           // due 2025-09-30
	direction  catalog.MasterDirection
	provision  string // in force today
	cat        *catalog.Catalog
}

const obligationID = "0b119a71-0000-4000-8000-000000000001"

func newDecisionsFixture(t *testing.T) *decisionsFixture {
	t.Helper()
	f := &decisionsFixture{teamsFixture: newTeamsFixture(t), obligation: obligationID}
	cat := storetest.Catalog()
	for i, c := range cat.Circulars {
		switch {
		case c.Slug == storetest.SlugUPIFraud:
			due := storetest.Date("2025-09-30")
			cat.Circulars[i].Obligations = []catalog.Obligation{{ID: obligationID, CircularID: c.ID, AppliesTo: catalog.TextList{"PSP"},
				What: "Apply fraud controls to every UPI payment.", Kind: "new-requirement", DueDate: &due, Deadline: "2025-09-30", Binding: true,
				SourceText: "Banks and UPI apps must apply fraud controls to every UPI payment", Origin: "editor", Accepted: true,
				// what the loader fills in: a register lists it with them
				CircularSlug: c.Slug, CircularTitle: c.Title, Source: c.Source, ImpactLevel: c.ImpactLevel}}
			f.circular = cat.Circulars[i]
		case c.EffectiveDate == nil && f.undated.ID == "":
			f.undated = c
		}
	}
	d, err := directionstest.Upto(directionstest.Directions(1, 2, 5, 3)[0].Direction, 2)
	if err != nil {
		t.Fatal(err)
	}
	cat.Directions = []catalog.MasterDirection{d}
	if _, err := f.db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	f.direction, f.cat = d, cat
	today := catalog.Date{Time: catalog.Day(f.clock())}
	stored, err := f.db.DirectionBetween(t.Context(), d.Slug, today, today)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stored.History {
		if s.InForceOn(today) {
			f.provision = s.ID
			break
		}
	}
	if f.circular.ID == "" || f.undated.ID == "" || f.provision == "" {
		t.Fatalf("the fixture's catalog lacks a subject: %+v %+v %q", f.circular.Entry, f.undated.Entry, f.provision)
	}
	return f
}

// subjectQuery is the query naming a subject.
func subjectQuery(s decisions.Subject) string {
	v := url.Values{"type": {s.Type}, "subject": {s.ID}}
	if s.Provision != "" {
		v.Set("provision", string(s.Provision))
	}
	return v.Encode()
}

func decisionPath(orgID string, s decisions.Subject) string {
	return "/organisations/" + orgID + "/decision?" + subjectQuery(s)
}

func commentsPath(orgID string, s decisions.Subject) string {
	return "/organisations/" + orgID + "/decision/comments?" + subjectQuery(s)
}

func bodyOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDecisions_Roles is the authorization table of the decision calls:
// each by each role (admin, member, viewer, auditor, an auditor whose
// access ended) on its own organisation and on another, each cell's
// status asserted; another organisation's is a 404, never a 403.
func TestDecisions_Roles(t *testing.T) {
	f := newDecisionsFixture(t)
	ctx := t.Context()
	admin, ravi := f.person(t, "asha"), f.person(t, "ravi")
	own, other := f.createOrg(t, admin, "Asha Payments"), f.createOrg(t, ravi, "Ravi Cards")
	callers := f.roleCallers(t, admin, own.ID)
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	for _, o := range []struct {
		org teams.Organisation
		by  person
	}{{own, admin}, {other, ravi}} {
		if res := f.call(t, "PUT", decisionPath(o.org.ID, subject), `{"applicability":"applicable","version":0}`, o.by.auth...); res.status != 200 {
			t.Fatalf("the first decision: %d %s", res.status, res.body)
		}
	}
	f.advance(2 * time.Hour) // the "ended" auditor's access is over
	// put decides again on the version stored now.
	put := func(t *testing.T, p person, org teams.Organisation) response {
		version := 0
		if d, err := f.db.Decision(ctx, org.ID, subject); err == nil {
			version = d.Version
		}
		return f.call(t, "PUT", decisionPath(org.ID, subject), bodyOf(DecisionRequest{Applicability: decisions.Applicable,
			Status: decisions.StatusAssessing, Due: "effective+30d", Version: version}), p.auth...)
	}
	type cell struct{ own, other int }
	readers := map[string]cell{"admin": {200, 404}, "member": {200, 404}, "viewer": {200, 404}, "auditor": {200, 404}, "ended": {404, 404}}
	routes := []struct {
		name   string
		call   func(t *testing.T, p person, org teams.Organisation, orgAdmin person) response
		byRole map[string]cell
	}{
		{"GET /organisations/{id}/decisions", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "GET", "/organisations/"+org.ID+"/decisions?status=new", "", p.auth...)
		}, readers},
		{"GET /organisations/{id}/decision", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "GET", decisionPath(org.ID, subject), "", p.auth...)
		}, readers},
		{"PUT /organisations/{id}/decision", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return put(t, p, org)
		}, map[string]cell{"admin": {200, 404}, "member": {200, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
		{"GET /organisations/{id}/decision/comments", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "GET", commentsPath(org.ID, subject), "", p.auth...)
		}, readers},
		{"POST /organisations/{id}/decision/comments", func(t *testing.T, p person, org teams.Organisation, _ person) response {
			return f.call(t, "POST", commentsPath(org.ID, subject), `{"body":"@asha have a look"}`, p.auth...)
		}, map[string]cell{"admin": {201, 404}, "member": {201, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
		{"POST /organisations/{id}/reassign", func(t *testing.T, p person, org teams.Organisation, orgAdmin person) response {
			return f.call(t, "POST", "/organisations/"+org.ID+"/reassign", bodyOf(ReassignRequest{From: "someone-else", To: orgAdmin.id}), p.auth...)
		}, map[string]cell{"admin": {200, 404}, "member": {403, 404}, "viewer": {403, 404}, "auditor": {403, 404}, "ended": {404, 404}}},
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
	// My work: every signed-in caller has one, the others' items never in it.
	for role, p := range callers {
		res := f.call(t, "GET", "/user/work", "", p.auth...)
		if list := jsonOf[[]decisions.WorkItem](t, res); res.status != 200 || len(list) != 0 {
			t.Errorf("%s's work: %d %s", role, res.status, res.body)
		}
	}
	wantError(t, f.call(t, "GET", "/user/work", ""), 401, nil)
}

// TestDecisions_Calls drives the decisions through the API: relative due
// dates resolved from the catalog, the text version kept, reasons and
// notes checked, a stale write refused, owners, the board's filters and
// pages, my work, comments with mentions, a reassignment; and every
// status the calls document that the role table does not reach.
func TestDecisions_Calls(t *testing.T) {
	f := newDecisionsFixture(t)
	asha, ravi, vik := f.person(t, "asha"), f.person(t, "ravi"), f.person(t, "vik")
	org := f.createOrg(t, asha, "Asha Payments")
	f.join(t, asha, ravi, org.ID, teams.RoleMember, nil)
	f.join(t, asha, vik, org.ID, teams.RoleViewer, nil)
	circ := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	obl := decisions.Subject{Type: decisions.SubjectObligation, ID: f.obligation}
	prov := decisions.Subject{Type: decisions.SubjectProvision, ID: f.direction.Slug, Provision: catalog.OptString(f.provision)}
	undated := decisions.Subject{Type: decisions.SubjectCircular, ID: f.undated.ID}

	// Relative due dates, from the circular's effective date and the
	// obligation's deadline.
	res := f.call(t, "PUT", decisionPath(org.ID, circ), bodyOf(DecisionRequest{Applicability: "applicable", OwnerID: ravi.id, Due: "effective+30d"}), asha.auth...)
	d := jsonOf[decisions.Decision](t, res)
	if res.status != 200 || d.DueDate == nil || d.DueDate.String() != "2025-07-31" || d.Status != "new" || d.OwnerID != catalog.OptString(ravi.id) || d.DecidedBy != catalog.OptString(asha.id) || d.Version != 1 || d.TextVersion != "" {
		t.Fatalf("decided: %d %s", res.status, res.body)
	}
	res = f.call(t, "PUT", decisionPath(org.ID, obl), bodyOf(DecisionRequest{Applicability: "applicable", OwnerID: ravi.id, Due: "deadline-14d", Status: "action-planned"}), ravi.auth...)
	if d := jsonOf[decisions.Decision](t, res); res.status != 200 || d.DueDate.String() != "2025-09-16" {
		t.Errorf("the obligation's: %d %s", res.status, res.body)
	}
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, undated), `{"applicability":"applicable","due":"effective+30d"}`, asha.auth...), 400, map[string]string{
		"due": "this circular has no effective date to count from: give a date"})
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, circ), `{"applicability":"applicable","due":"deadline-1d","version":1}`, asha.auth...), 400, map[string]string{
		"due": "only an obligation has a deadline to count from: give a date"})
	// A provision: its direction's version in force is the text version.
	res = f.call(t, "PUT", decisionPath(org.ID, prov), `{"applicability":"deferred","deferredUntil":"2026-06-01","due":"2026-05-01"}`, ravi.auth...)
	want := f.direction.IssuedDate
	if v := f.direction.Current(catalog.Date{Time: catalog.Day(f.clock())}); v != nil {
		want = v.Date
	}
	if d := jsonOf[decisions.Decision](t, res); res.status != 200 || string(d.TextVersion) != want.String() || d.DeferredUntil.String() != "2026-06-01" {
		t.Errorf("the provision's: %d %s, want text version %s", res.status, res.body, want)
	}
	// No such subject.
	for _, s := range []decisions.Subject{{Type: "circular", ID: "no-such-circular"}, {Type: "obligation", ID: "no-such"},
		{Type: "provision", ID: "no-such-direction", Provision: "1"}, {Type: "provision", ID: f.direction.Slug, Provision: "15(a)(i)"}} {
		wantError(t, f.call(t, "PUT", decisionPath(org.ID, s), `{"applicability":"applicable"}`, asha.auth...), 404, nil)
	}
	// Reasons and notes; a not-applicable subject's status follows.
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, undated), `{"applicability":"not-applicable"}`, asha.auth...), 400, map[string]string{
		"reason": "a subject that does not apply needs a reason: one of no-action-needed, duplicate, superseded, other"})
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, undated), `{"applicability":"not-applicable","reason":"other"}`, asha.auth...), 400, map[string]string{
		"note": "the reason other needs a note saying why"})
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, undated), `{"applicability":"deferred","status":"started"}`, asha.auth...), 400, map[string]string{
		"deferredUntil": "a deferred decision needs the date it is to be taken again", "status": "use one of: new, assessing, action-planned, done, not-applicable"})
	res = f.call(t, "PUT", decisionPath(org.ID, undated), `{"applicability":"not-applicable","reason":"other","note":"We issue no cards."}`, asha.auth...)
	if d := jsonOf[decisions.Decision](t, res); res.status != 200 || d.Status != "not-applicable" || d.Reason != "other" {
		t.Errorf("not applicable: %d %s", res.status, res.body)
	}
	// Owners: a viewer owns nothing.
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, circ), bodyOf(DecisionRequest{Applicability: "applicable", OwnerID: vik.id, Version: 1}), asha.auth...), 400, map[string]string{
		"ownerId": "The owner must be a member of the organisation who may decide (an admin or a member)"})
	// Stale: two members read version 1; the second write is refused.
	first := bodyOf(DecisionRequest{Applicability: "applicable", OwnerID: ravi.id, Due: "effective+30d", Status: "assessing", Version: 1})
	if res := f.call(t, "PUT", decisionPath(org.ID, circ), first, ravi.auth...); res.status != 200 {
		t.Fatalf("first write: %d %s", res.status, res.body)
	}
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, circ), bodyOf(DecisionRequest{Applicability: "applicable", Status: "done", Version: 1}), asha.auth...), 409, nil)
	wantError(t, f.call(t, "PUT", decisionPath(org.ID, circ), `{"applicability":"applicable","version":0}`, asha.auth...), 409, nil)
	if got := jsonOf[decisions.Decision](t, f.call(t, "GET", decisionPath(org.ID, circ), "", vik.auth...)); got.Status != "assessing" || got.Version != 2 {
		t.Errorf("after the stale write: %+v", got)
	}
	wantError(t, f.call(t, "GET", decisionPath(org.ID, decisions.Subject{Type: "obligation", ID: "none-yet"}), "", asha.auth...), 404, nil)

	// The board, by due date: the circular's (07-31), the obligation's
	// (09-16), the provision's (2026-05-01), the undated last.
	res = f.call(t, "GET", "/organisations/"+org.ID+"/decisions", "", vik.auth...)
	board := jsonOf[[]decisions.Decision](t, res)
	if res.status != 200 || len(board) != 4 || board[0].ID != circ.ID || board[1].ID != obl.ID || board[2].Provision != prov.Provision || board[3].ID != undated.ID || res.header.Get("X-Total-Count") != "4" {
		t.Errorf("board: %d %s", res.status, res.body)
	}
	for q, n := range map[string]int{"status=assessing": 1, "owner=" + ravi.id: 2, "due_before=2025-09-01": 1, "status=ALL&limit=2": 4} {
		res := f.call(t, "GET", "/organisations/"+org.ID+"/decisions?"+q, "", asha.auth...)
		if res.status != 200 || res.header.Get("X-Total-Count") != fmt.Sprint(n) {
			t.Errorf("board %s: %d %s %s", q, res.status, res.header.Get("X-Total-Count"), res.body)
		}
		if q == "status=ALL&limit=2" && !strings.Contains(res.header.Get("Link"), "offset=2") {
			t.Errorf("no next page: %q", res.header.Get("Link"))
		}
	}
	wantError(t, f.call(t, "GET", "/organisations/"+org.ID+"/decisions?status=started&due_before=soon", "", asha.auth...), 400, nil)
	// Ravi's work: his open items, by due date.
	workRes := f.call(t, "GET", "/user/work", "", ravi.auth...)
	work := jsonOf[[]decisions.WorkItem](t, workRes)
	if len(work) != 2 || work[0].ID != circ.ID || work[1].ID != obl.ID || work[0].OrganisationName != "Asha Payments" {
		t.Errorf("ravi's work: %+v", work)
	}
	overdue := 0
	for _, w := range work {
		if w.OverdueOn(f.clock()) {
			overdue++
		}
	}
	if workRes.header.Get("X-Total-Count") != "2" || workRes.header.Get("X-Overdue-Count") != strconv.Itoa(overdue) || workRes.header.Get("Link") != "" {
		t.Errorf("ravi's work's headers: %v", workRes.header)
	}
	// a page of one: the second item, and a link to it from the first
	firstPage := f.call(t, "GET", "/user/work?limit=1", "", ravi.auth...)
	second := jsonOf[[]decisions.WorkItem](t, f.call(t, "GET", "/user/work?limit=1&offset=1", "", ravi.auth...))
	if !strings.Contains(firstPage.header.Get("Link"), "offset=1") || firstPage.header.Get("X-Total-Count") != "2" || len(second) != 1 || second[0].ID != obl.ID {
		t.Errorf("ravi's work by pages of one: %q %+v", firstPage.header.Get("Link"), second)
	}
	// What the answers show beyond what is stored: overdue is Go's rule
	// (decisions.OverdueOn) of today, and the subject's title and page.
	for _, w := range work {
		if want := w.OverdueOn(f.clock()); w.Overdue != want {
			t.Errorf("%s: overdue %t, want %t", w.Subject, w.Overdue, want)
		}
	}
	if work[0].SubjectPath != "/circulars/"+f.circular.Slug || work[0].SubjectTitle != f.circular.Title || work[1].SubjectPath != "/circulars/"+f.circular.Slug || work[1].SubjectTitle != "Apply fraud controls to every UPI payment." {
		t.Errorf("work's subjects: %+v", work)
	}
	if board[2].SubjectPath != catalog.DirectionPath(f.direction.Slug) || board[2].SubjectTitle != f.direction.Title+", paragraph "+f.provision {
		t.Errorf("the provision's page: %q %q", board[2].SubjectPath, board[2].SubjectTitle)
	}
	// Comments: members' @usernames are mentions.
	res = f.call(t, "POST", commentsPath(org.ID, prov), `{"body":"@ravi @vik see 15(a); @nobody"}`, asha.auth...)
	if c := jsonOf[decisions.Comment](t, res); res.status != 201 || len(c.Mentions) != 2 || c.Mentions[0] != ravi.id || c.Mentions[1] != vik.id {
		t.Errorf("comment: %d %s", res.status, res.body)
	}
	if list := jsonOf[[]decisions.Comment](t, f.call(t, "GET", commentsPath(org.ID, prov), "", vik.auth...)); len(list) != 1 || list[0].AuthorID != catalog.OptString(asha.id) {
		t.Errorf("comments: %+v", list)
	}
	wantError(t, f.call(t, "POST", commentsPath(org.ID, prov), `{"body":"  "}`, asha.auth...), 400, map[string]string{"body": "The comment is empty"})
	wantError(t, f.call(t, "POST", commentsPath(org.ID, decisions.Subject{Type: "obligation", ID: "none-yet"}), `{"body":"x"}`, asha.auth...), 404, nil)
	wantError(t, f.call(t, "GET", commentsPath(org.ID, decisions.Subject{Type: "obligation", ID: "none-yet"}), "", asha.auth...), 404, nil)
	// Reassign ravi's open items to asha.
	res = f.call(t, "POST", "/organisations/"+org.ID+"/reassign", bodyOf(ReassignRequest{From: ravi.id, To: asha.id}), asha.auth...)
	if got := jsonOf[ReassignResponse](t, res); res.status != 200 || got.Reassigned != 2 {
		t.Errorf("reassigned: %d %s", res.status, res.body)
	}
	wantError(t, f.call(t, "POST", "/organisations/"+org.ID+"/reassign", bodyOf(ReassignRequest{From: asha.id, To: vik.id}), asha.auth...), 400, map[string]string{
		"to": "The owner must be a member of the organisation who may decide (an admin or a member)"})
	wantError(t, f.call(t, "POST", "/organisations/"+org.ID+"/reassign", bodyOf(ReassignRequest{From: asha.id, To: asha.id}), asha.auth...), 400, map[string]string{"to": "another member than from"})
	wantError(t, f.call(t, "POST", "/organisations/"+org.ID+"/reassign", `{}`, asha.auth...), 400, map[string]string{
		"from": "The member whose items move is required", "to": "The member who takes them is required"})

	// The query's faults.
	base := "/organisations/" + org.ID
	wantError(t, f.call(t, "GET", base+"/decision?type=circular", "", asha.auth...), 400, map[string]string{"subject": "is required: the circular's or obligation's id, or the direction's slug"})
	wantError(t, f.call(t, "GET", base+"/decision?type=rule&subject=x", "", asha.auth...), 400, nil)
	wantError(t, f.call(t, "GET", base+"/decision?type=provision&subject=x", "", asha.auth...), 400, map[string]string{"provision": "is required for a provision: its number, e.g. 15(a)(i)"})
	wantError(t, f.call(t, "GET", base+"/decision?type=circular&subject=x&provision=1", "", asha.auth...), 400, nil)
	for _, c := range []struct{ method, target string }{
		{"GET", "/user/work?x=1"}, {"GET", base + "/decisions?x=1"}, {"GET", decisionPath(org.ID, circ) + "&x=1"}, {"GET", commentsPath(org.ID, circ) + "&x=1"},
	} {
		wantError(t, f.call(t, c.method, c.target, "", asha.auth...), 400, nil)
	}
	// Bodies: not JSON, too large.
	big := `{"note":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	for _, c := range []struct{ method, target string }{
		{"PUT", decisionPath(org.ID, circ)}, {"POST", commentsPath(org.ID, circ)}, {"POST", base + "/reassign"},
	} {
		wantError(t, f.call(t, c.method, c.target, "{}", append([]string{"Content-Type", "text/plain"}, asha.auth...)...), 415, nil)
		wantError(t, f.call(t, c.method, c.target, big, asha.auth...), 413, nil)
	}
}

// mentionsTo are the mention e-mails each address received (their text
// parts), leaving the invitations out.
func (f *teamsFixture) mentionsTo(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for to, ms := range f.smtp.Received() {
		for _, m := range ms {
			if strings.Contains(string(m), "mentioned you") {
				out[to] = append(out[to], plainPart(t, m))
			}
		}
	}
	return out
}

// TestDecisions_MentionEmails: a comment e-mails each member it
// mentions once (however often named), with the comment, the subject's
// title and a link to its page; never its author, nor a member who
// turned mention e-mails off (PUT /user/preferences), nor a name that
// is no member's.
func TestDecisions_MentionEmails(t *testing.T) {
	f := newDecisionsFixture(t)
	asha, ravi, meera, vik := f.person(t, "asha"), f.person(t, "ravi"), f.person(t, "meera"), f.person(t, "vik")
	org := f.createOrg(t, asha, "Asha Payments")
	f.join(t, asha, ravi, org.ID, teams.RoleMember, nil)
	f.join(t, asha, meera, org.ID, teams.RoleMember, nil)
	f.join(t, asha, vik, org.ID, teams.RoleViewer, nil)
	circ := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	if res := f.call(t, "PUT", decisionPath(org.ID, circ), `{"applicability":"applicable"}`, asha.auth...); res.status != 200 {
		t.Fatalf("decide: %d %s", res.status, res.body)
	}
	// Meera turns mention e-mails off and keeps her other choices.
	res := f.call(t, "PUT", "/user/preferences", `{"circularSources":[],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false,"mentionEmails":false}`, meera.auth...)
	if p := jsonOf[auth.Preferences](t, res); res.status != 200 || p.MentionEmails || !p.ReminderEmails {
		t.Fatalf("meera's preferences: %d %s", res.status, res.body)
	}
	res = f.call(t, "POST", commentsPath(org.ID, circ), `{"body":"@ravi and @meera: check the limits. @asha @vik @ravi @nobody"}`, asha.auth...)
	if res.status != 201 {
		t.Fatalf("comment: %d %s", res.status, res.body)
	}
	got := f.mentionsTo(t)
	if len(got[ravi.email]) != 1 || len(got[vik.email]) != 1 || len(got) != 2 {
		t.Fatalf("mention e-mails: %v", got)
	}
	text := got[ravi.email][0]
	for _, want := range []string{"Asha Rao mentioned you", "On " + f.circular.Title + ",", "@ravi and @meera: check the limits.",
		"https://regpulse.example/circulars/" + f.circular.Slug, "https://regpulse.example/profile#team-emails", "Asha Payments"} {
		if !strings.Contains(text, want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, text)
		}
	}
	// Ravi mentions himself and Asha: only Asha hears of it.
	if res := f.call(t, "POST", commentsPath(org.ID, circ), `{"body":"@ravi noted, @asha"}`, ravi.auth...); res.status != 201 {
		t.Fatalf("comment: %d %s", res.status, res.body)
	}
	got = f.mentionsTo(t)
	if len(got[asha.email]) != 1 || len(got[ravi.email]) != 1 || len(got[meera.email]) != 0 {
		t.Errorf("after ravi's comment: %v", got)
	}
	// Meera turns them on again: the next mention reaches her.
	res = f.call(t, "PUT", "/user/preferences", `{"circularSources":[],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false,"mentionEmails":true}`, meera.auth...)
	if res.status != 200 {
		t.Fatalf("meera's preferences: %d %s", res.status, res.body)
	}
	if res := f.call(t, "POST", commentsPath(org.ID, circ), `{"body":"@meera over to you"}`, asha.auth...); res.status != 201 {
		t.Fatalf("comment: %d %s", res.status, res.body)
	}
	if got := f.mentionsTo(t); len(got[meera.email]) != 1 {
		t.Errorf("meera, mentions on again: %v", got[meera.email])
	}
}
