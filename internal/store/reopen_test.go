package store

import (
	"slices"
	"strings"
	"testing"
	"time"

	"regpulse/internal/audit"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/directions"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// reopenDirection is a Master Direction of three provisions as issued on
// 2020-01-01 with its first n versions: 2021-01-01 changes provision 2;
// 2025-01-01 changes it again and deletes provision 3.
func reopenDirection(t *testing.T, n int) catalog.MasterDirection {
	t.Helper()
	day := func(s string) catalog.Date { return storetest.Date(s) }
	d := catalog.MasterDirection{
		Entry: catalog.Entry{Slug: "reopen-md", ID: "00000000-0000-4000-8000-000000000e0e"}, Title: "Reopening test direction",
		Source: "RBI", IssuedDate: day("2020-01-01"), ReviewedOn: day("2020-01-01"), AppliesTo: catalog.TextList{"PSP"}, Status: "in-force",
		Chapters: catalog.List[catalog.Chapter]{{ID: "I", Title: "Provisions"}},
		Provisions: []catalog.Provision{
			{ID: "1", Chapter: "I", Text: "Each operator shall keep a board-approved policy.", Wording: "digest"},
			{ID: "2", Chapter: "I", Text: "Settle each payment within two days.", Wording: "digest"},
			{ID: "3", Chapter: "I", Text: "Report frauds within a week.", Wording: "digest"},
		},
		Versions: []catalog.DirectionVersion{
			{Date: day("2021-01-01"), ChangesKnown: true, Direction: "reopen-md", ID: "reopen-md-v1",
				Amending: &catalog.AmendingCircular{Title: "First amendment"},
				Effects:  []catalog.Effect{{Kind: catalog.EffectSubstituted, Provision: "2", Text: "Settle each payment within one day."}}},
			{Date: day("2025-01-01"), ChangesKnown: true, Direction: "reopen-md", ID: "reopen-md-v2",
				Amending: &catalog.AmendingCircular{Title: "Second amendment"},
				Effects: []catalog.Effect{{Kind: catalog.EffectSubstituted, Provision: "2", Text: "Settle each payment on the same day."},
					{Kind: catalog.EffectDeleted, Provision: "3"}}},
		},
	}
	d, err := directionstest.Upto(d, n)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestReopen: a sync reopens the decisions whose text changed, and only
// those: a circular replaced (its decisions and its obligations', with
// what replaced it), a provision changed or deleted by a newer version
// of its direction (with the diff), never a decision on an unchanged
// provision or circular; a second sync reopens nothing; each reopening
// is the system's row in its organisation's trail, which verifies.
func TestReopen(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := obligationsCatalog(t)
		cat.Directions = []catalog.MasterDirection{reopenDirection(t, 1)}
		db := openSynced(t, open, cat)
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		by, byOther := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}, teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		fraud, _ := circularBySlug(cat, storetest.SlugUPIFraud)
		liteCirc := decisions.Subject{Type: decisions.SubjectCircular, ID: lite.ID}
		liteObl := decisions.Subject{Type: decisions.SubjectObligation, ID: lite.Obligations[1].ID}
		fraudCirc := decisions.Subject{Type: decisions.SubjectCircular, ID: fraud.ID}
		p2 := decisions.Subject{Type: decisions.SubjectProvision, ID: "reopen-md", Provision: "2"}
		p1 := decisions.Subject{Type: decisions.SubjectProvision, ID: "reopen-md", Provision: "1"}
		put := func(by teams.Actor, s decisions.Subject, status, version string) {
			t.Helper()
			if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: s, Applicability: decisions.Applicable, Status: status,
				TextVersion: catalog.OptString(version)}); err != nil {
				t.Fatal(err)
			}
		}
		put(by, liteCirc, decisions.StatusDone, "")
		put(by, liteObl, decisions.StatusActionPlanned, "")
		put(by, fraudCirc, decisions.StatusDone, "")
		put(by, p2, decisions.StatusDone, "2021-01-01")
		put(by, p1, decisions.StatusDone, "2021-01-01")
		put(byOther, p2, decisions.StatusNew, "2021-01-01")
		if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectProvision, ID: "reopen-md", Provision: "3"},
			Applicability: decisions.NotApplicable, Reason: decisions.ReasonNoActionNeeded, Status: decisions.StatusNotApplicable, TextVersion: "2021-01-01"}); err != nil {
			t.Fatal(err)
		}
		sync := func(want int) {
			t.Helper()
			st, err := db.SyncCatalog(ctx, cat)
			if err != nil {
				t.Fatal(err)
			}
			if st.Reopened != want {
				t.Errorf("sync reopened %d decisions, want %d", st.Reopened, want)
			}
		}
		get := func(orgID string, s decisions.Subject) decisions.Decision {
			t.Helper()
			d, err := db.Decision(ctx, orgID, s)
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		sync(0) // nothing changed

		// The UPI Lite circular is replaced by the fraud one.
		on := storetest.Date("2025-06-15")
		for i := range cat.Circulars {
			if c := &cat.Circulars[i]; c.Slug == storetest.SlugUPILite {
				c.WithdrawnOn, c.WithdrawnBy = &on, catalog.TextList{storetest.SlugUPIFraud}
				c.RulesNowIn = catalog.List[catalog.RuleHome]{{Name: "Master Direction on UPI", Direction: "reopen-md"}}
				for j := range c.Obligations {
					c.Obligations[j].CircularWithdrawnOn = &on
				}
			}
		}
		sync(2)
		for _, c := range []struct {
			s           decisions.Subject
			prior, want string
		}{
			{liteCirc, decisions.StatusDone, decisions.StatusAssessing},
			{liteObl, decisions.StatusActionPlanned, decisions.StatusAssessing},
		} {
			d := get(org.ID, c.s)
			r := d.Reopened
			if d.Status != c.want || d.TextVersion != "2025-06-15" || d.Version != 2 || r == nil || r.Reason != decisions.ReopenWithdrawn ||
				r.From != "" || r.To != "2025-06-15" || r.PriorStatus != c.prior || !r.At.Equal(storetest.Now) || r.Diff != nil ||
				len(r.ReplacedBy) != 1 || r.ReplacedBy[0].Slug != storetest.SlugUPIFraud || r.ReplacedBy[0].Title != "UPI fraud risk controls" ||
				r.ReplacedBy[0].CircularNumber != "RBI/2025-26/41" || len(r.RulesNowIn) != 1 || d.DecidedBy != catalog.OptString(asha.ID) {
				t.Errorf("%s after the replacement: %+v (reopened %+v)", c.s, d, r)
			}
		}
		if d := get(org.ID, fraudCirc); d.Status != decisions.StatusDone || d.Reopened != nil || d.Version != 1 {
			t.Errorf("the fraud circular's decision changed: %+v", d)
		}
		sync(0) // once is enough

		// A member decides again: the reopening stays, before the decision.
		d := get(org.ID, liteCirc)
		d.Status = decisions.StatusDone
		if d, err = db.PutDecision(ctx, by, d); err != nil || d.Reopened == nil || d.Status != decisions.StatusDone {
			t.Fatalf("deciding again: %+v, %v", d, err)
		}
		if d := get(org.ID, liteCirc); d.Reopened == nil || !d.Reopened.At.Before(d.DecidedAt) && !d.Reopened.At.Equal(d.DecidedAt) {
			t.Errorf("decided again: %+v", d)
		}
		sync(0)

		// The direction's second version changes provision 2 and deletes 3:
		// both organisations' decisions on 2 reopen with the diff, asha's
		// on 3 as removed; the one on 1 stays.
		cat.Directions = []catalog.MasterDirection{reopenDirection(t, 2)}
		sync(3)
		for _, c := range []struct {
			org         string
			s           decisions.Subject
			prior, want string
			reason      string
		}{
			{org.ID, p2, decisions.StatusDone, decisions.StatusAssessing, decisions.ReopenProvisionChanged},
			{other.ID, p2, decisions.StatusNew, decisions.StatusNew, decisions.ReopenProvisionChanged},
			{org.ID, decisions.Subject{Type: decisions.SubjectProvision, ID: "reopen-md", Provision: "3"}, decisions.StatusNotApplicable,
				decisions.StatusAssessing, decisions.ReopenProvisionRemoved},
		} {
			d := get(c.org, c.s)
			r := d.Reopened
			if d.Status != c.want || d.TextVersion != "2025-01-01" || r == nil || r.Reason != c.reason || r.From != "2021-01-01" ||
				r.To != "2025-01-01" || r.PriorStatus != c.prior || r.Diff == nil || len(r.ReplacedBy) != 0 {
				t.Errorf("%s of %s: %+v (reopened %+v)", c.s, c.org, d, r)
				continue
			}
			if c.reason == decisions.ReopenProvisionChanged {
				if r.Diff.Kind != directions.Changed || r.Diff.Before.Text != "Settle each payment within one day." ||
					r.Diff.After.Text != "Settle each payment on the same day." || len(r.Diff.Redline) == 0 || len(r.Diff.By) != 1 {
					t.Errorf("%s of %s: diff %+v", c.s, c.org, r.Diff)
				}
			} else if r.Diff.Kind != directions.Removed || r.Diff.After != nil {
				t.Errorf("%s: diff %+v", c.s, r.Diff)
			}
		}
		if d := get(org.ID, p1); d.Status != decisions.StatusDone || d.Reopened != nil || d.TextVersion != "2021-01-01" {
			t.Errorf("provision 1, unchanged, changed: %+v", d)
		}
		sync(0)

		// Each reopening is the system's row of its organisation's trail.
		for _, o := range []struct {
			id       string
			subjects []string
		}{
			{org.ID, []string{liteCirc.String(), liteObl.String(), "provision reopen-md 2", "provision reopen-md 3"}},
			{other.ID, []string{"provision reopen-md 2"}},
		} {
			var got []string
			for row, err := range db.AuditRows(ctx, o.id) {
				if err != nil {
					t.Fatal(err)
				}
				if row.Action != "decision.reopen" {
					continue
				}
				if row.ActorID != "" || row.SubjectType != "decision" || !strings.Contains(row.After, `"reopened":{`) ||
					!strings.Contains(row.Before, `"reopened":null`) && !strings.Contains(row.Before, `"reopened":{`) {
					t.Errorf("reopen row %+v", row)
				}
				got = append(got, row.SubjectID)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(o.subjects))
			if !slices.Equal(got, want) {
				t.Errorf("reopen rows of %s: %v, want %v", o.id, got, want)
			}
			if rep, err := audit.Verify(db.AuditRows(ctx, o.id)); err != nil || rep.Broken != nil {
				t.Errorf("the trail of %s: %+v, %v", o.id, rep, err)
			}
		}

		// The circular back in force (an editor's correction) reopens it
		// again, as reinstated.
		for i := range cat.Circulars {
			if c := &cat.Circulars[i]; c.Slug == storetest.SlugUPILite {
				c.WithdrawnOn, c.WithdrawnBy, c.RulesNowIn = nil, nil, nil
				for j := range c.Obligations {
					c.Obligations[j].CircularWithdrawnOn = nil
				}
			}
		}
		db.now = func() time.Time { return storetest.Now.Add(time.Hour) }
		sync(2)
		if d := get(org.ID, liteCirc); d.Status != decisions.StatusAssessing || d.TextVersion != "" || d.Reopened == nil ||
			d.Reopened.Reason != decisions.ReopenReinstated || d.Reopened.From != "2025-06-15" || d.Reopened.PriorStatus != decisions.StatusDone {
			t.Errorf("reinstated: %+v (%+v)", d, d.Reopened)
		}
		sync(0)
	})
}
