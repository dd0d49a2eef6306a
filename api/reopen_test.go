package api

import (
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
)

// TestDecisions_Reopened: a decision's answer says when the catalog's
// sync reopened it and why: null until then; after its circular is
// replaced, status assessing with reopened naming the replacing
// circular, and the new text version.
func TestDecisions_Reopened(t *testing.T) {
	f := newDecisionsFixture(t)
	asha := f.person(t, "asha")
	org := f.createOrg(t, asha, "Asha Payments")
	subject := decisions.Subject{Type: decisions.SubjectCircular, ID: f.circular.ID}
	res := f.call(t, "PUT", decisionPath(org.ID, subject), `{"applicability":"applicable","status":"done","version":0}`, asha.auth...)
	if res.status != 200 || !strings.Contains(string(res.body), `"reopened":null`) {
		t.Fatalf("decide: %d %s", res.status, res.body)
	}
	on := catalog.Date{Time: catalog.Day(f.clock()).AddDate(0, 0, -1)}
	for i := range f.cat.Circulars {
		if c := &f.cat.Circulars[i]; c.ID == f.circular.ID {
			c.WithdrawnOn, c.WithdrawnBy = &on, catalog.TextList{storetest.SlugUPILite}
		}
	}
	if st, err := f.db.SyncCatalog(t.Context(), f.cat); err != nil || st.Reopened != 1 {
		t.Fatalf("sync: %+v, %v", st, err)
	}
	res = f.call(t, "GET", decisionPath(org.ID, subject), "", asha.auth...)
	d := jsonOf[decisions.Decision](t, res)
	if r := d.Reopened; res.status != 200 || d.Status != decisions.StatusAssessing || d.TextVersion != catalog.OptString(on.String()) || d.Version != 2 ||
		r == nil || r.Reason != decisions.ReopenWithdrawn || r.From != "" || r.To != on.String() || r.PriorStatus != decisions.StatusDone ||
		len(r.ReplacedBy) != 1 || r.ReplacedBy[0].Title != "UPI Lite limits" || r.Diff != nil {
		t.Errorf("after the replacement: %d %s", res.status, res.body)
	}
	// Deciding again keeps the reopening, which the answer still shows.
	res = f.call(t, "PUT", decisionPath(org.ID, subject), `{"applicability":"applicable","status":"done","version":2}`, asha.auth...)
	if d := jsonOf[decisions.Decision](t, res); res.status != 200 || d.Reopened == nil || d.TextVersion != catalog.OptString(on.String()) {
		t.Errorf("deciding again: %d %s", res.status, res.body)
	}
}
