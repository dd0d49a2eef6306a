package api

import (
	"testing"

	"regpulse/internal/decisions"
	"regpulse/internal/register"
	"regpulse/internal/teams"
)

// TestOrganisationRegister: any member reads the organisation's register
// (another organisation's is a 404), whose statuses are its decisions'
// and whose score is its own; the impact tracker's score is the
// organisation's for a member of one, naming it, the user's own with
// organisation=none or without one.
func TestOrganisationRegister(t *testing.T) {
	f := newDecisionsFixture(t)
	asha, ravi, vik, lone := f.person(t, "asha"), f.person(t, "ravi"), f.person(t, "vik"), f.person(t, "lone")
	org, other := f.createOrg(t, asha, "Asha Payments"), f.createOrg(t, ravi, "Ravi Cards")
	f.join(t, asha, vik, org.ID, teams.RoleViewer, nil)
	path := "/organisations/" + org.ID + "/register"
	get := func(p person, target string) (OrganisationRegister, response) {
		t.Helper()
		res := f.call(t, "GET", target, "", p.auth...)
		if res.status != 200 {
			return OrganisationRegister{}, res
		}
		return jsonOf[OrganisationRegister](t, res), res
	}
	reg, res := get(asha, path)
	if res.status != 200 || reg.Organisation.ID != org.ID || reg.Organisation.Name != "Asha Payments" || !reg.TrackingSince.Equal(org.CreatedAt) ||
		len(reg.EntityTypes) != 1 || len(reg.Items) != 1 || reg.Items[0].ID != f.obligation || reg.Items[0].Status != register.StatusTodo ||
		reg.Score.Applicable != 1 || reg.Score.Settled != 0 || reg.Score.Organisation == nil || res.header.Get("X-Total-Count") != "1" {
		t.Fatalf("a new register: %d %s", res.status, res.body)
	}
	obligation := decisions.Subject{Type: decisions.SubjectObligation, ID: f.obligation}
	if res := f.call(t, "PUT", decisionPath(org.ID, obligation), `{"applicability":"applicable","status":"done","note":"Controls live.","version":0}`, asha.auth...); res.status != 200 {
		t.Fatalf("decide: %d %s", res.status, res.body)
	}
	for _, c := range []struct {
		who    person
		query  string
		status int
		items  int
	}{
		{asha, "", 200, 1},
		{vik, "", 200, 1},
		{vik, "?status=done", 200, 1},
		{vik, "?status=todo", 200, 0},
		{vik, "?group=overdue", 200, 0},
		{vik, "?group=nonsense", 400, 0},
		{ravi, "", 404, 0},
		{person{}, "", 401, 0},
	} {
		reg, res := get(c.who, path+c.query)
		if res.status != c.status || c.status == 200 && (len(reg.Items) != c.items || reg.Score.Score == nil || *reg.Score.Score != 100) {
			t.Errorf("GET register%s as %s: %d %s", c.query, c.who.email, res.status, res.body)
		}
		if c.items == 1 && (reg.Items[0].Status != register.StatusDone || reg.Items[0].Note != "Controls live." || reg.Items[0].StatusUpdatedAt == nil) {
			t.Errorf("the decided item: %+v", reg.Items[0])
		}
	}
	if reg, res := get(ravi, "/organisations/"+other.ID+"/register"); res.status != 200 || len(reg.Items) != 1 || reg.Items[0].Status != register.StatusTodo {
		t.Errorf("the other organisation's register: %d %s", res.status, res.body)
	}

	score := func(p person, query string) (register.Score, response) {
		t.Helper()
		res := f.call(t, "GET", "/user/compliance-score"+query, "", p.auth...)
		if res.status != 200 {
			return register.Score{}, res
		}
		return jsonOf[register.Score](t, res), res
	}
	if s, res := score(asha, ""); res.status != 200 || s.Organisation == nil || s.Organisation.ID != org.ID || s.Organisation.Name != "Asha Payments" ||
		s.Score == nil || *s.Score != 100 || s.Applicable != 1 {
		t.Errorf("asha's score: %d %s", res.status, res.body)
	}
	if s, res := score(vik, "?organisation="+org.ID); res.status != 200 || s.Organisation == nil || s.Organisation.ID != org.ID {
		t.Errorf("vik's, naming the organisation: %d %s", res.status, res.body)
	}
	if s, res := score(asha, "?organisation=none"); res.status != 200 || s.Organisation != nil || s.Score != nil && *s.Score == 100 {
		t.Errorf("asha's own: %d %s", res.status, res.body)
	}
	if _, res := score(asha, "?organisation="+other.ID); res.status != 404 {
		t.Errorf("another organisation's score: %d %s", res.status, res.body)
	}
	if s, res := score(lone, ""); res.status != 200 || s.Organisation != nil {
		t.Errorf("a user of no organisation: %d %s", res.status, res.body)
	}
}
