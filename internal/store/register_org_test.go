package store

import (
	"slices"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/register"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// TestOrganisationRegister: an organisation's register holds the
// obligations of its kinds of business with its decisions' statuses
// (register.StatusOfDecision) and notes, tracked from the day it was
// made (an obligation due before then in force, not overdue); its tally
// is its own, apart from its members' own registers and from another
// organisation's decisions.
func TestOrganisationRegister(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		f := newRegisterFixture(t, open)
		f.db.now = func() time.Time { return time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC) }
		early, err := f.db.CreateOrganisation(ctx, teams.Actor{UserID: f.asha.ID}, "Asha Payments", pspTypes)
		if err != nil {
			t.Fatal(err)
		}
		f.db.now = storetest.Clock
		late, err := f.db.CreateOrganisation(ctx, teams.Actor{UserID: f.ravi.ID}, "Ravi Payments", pspTypes)
		if err != nil {
			t.Fatal(err)
		}
		list := func(orgID string, mod func(*register.Query)) ([]string, int) {
			t.Helper()
			items, total, err := f.db.OrganisationRegister(ctx, orgID, f.query(mod))
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, it := range items {
				out = append(out, it.What+"|"+it.Status+"|"+it.DueGroup+"|"+it.Note)
			}
			return out, total
		}
		got, total := list(early.ID, nil)
		if want := []string{"Audit systems.|todo|overdue|", "Tell customers.|todo|no-date|"}; !slices.Equal(got, want) || total != 2 {
			t.Errorf("a new register = %v (%d), want %v", got, total, want)
		}
		if got, _ := list(late.ID, nil); !slices.Equal(got, []string{"Audit systems.|todo|in-force|", "Tell customers.|todo|no-date|"}) {
			t.Errorf("the organisation made today: %v", got)
		}

		// The early organisation decides; asha's own status is hers only.
		by := teams.Actor{UserID: f.asha.ID, OrganisationID: early.ID}
		put := func(by teams.Actor, id, status, note string) decisions.Decision {
			t.Helper()
			d, err := f.db.PutDecision(ctx, by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectObligation, ID: id},
				Applicability: decisions.Applicable, Status: status, Note: catalog.OptString(note)})
			if err != nil {
				t.Fatal(err)
			}
			return d
		}
		done := put(by, f.cyber.ID, decisions.StatusDone, "Audited in May.")
		put(by, f.tell.ID, decisions.StatusActionPlanned, "")
		put(teams.Actor{UserID: f.ravi.ID, OrganisationID: late.ID}, f.tell.ID, decisions.StatusNew, "")
		if _, err := f.db.SetObligationStatus(ctx, f.asha.ID, f.tell.ID, pspTypes, register.StatusNotApplicable, ""); err != nil {
			t.Fatal(err)
		}
		got, _ = list(early.ID, nil)
		if want := []string{"Audit systems.|done|overdue|Audited in May.", "Tell customers.|in-progress|no-date|"}; !slices.Equal(got, want) {
			t.Errorf("after deciding = %v, want %v", got, want)
		}
		items, _, err := f.db.OrganisationRegister(ctx, early.ID, f.query(nil))
		if err != nil || items[0].StatusUpdatedAt == nil || !items[0].StatusUpdatedAt.Equal(done.DecidedAt) {
			t.Errorf("the item's last change = %v, want the decision's %v (%v)", items[0].StatusUpdatedAt, done.DecidedAt, err)
		}
		for _, tc := range []struct {
			name string
			mod  func(*register.Query)
			want []string
		}{
			{"Status", func(q *register.Query) { q.Status = register.StatusInProgress }, []string{"Tell customers.|in-progress|no-date|"}},
			{"StatusTodo", func(q *register.Query) { q.Status = register.StatusTodo }, nil},
			{"GroupOverdue", func(q *register.Query) { q.Group = register.GroupOverdue }, []string{"Audit systems.|done|overdue|Audited in May."}},
			{"GroupInForce", func(q *register.Query) { q.Group = register.GroupInForce }, nil},
			{"Search", func(q *register.Query) { q.Search = "customers" }, []string{"Tell customers.|in-progress|no-date|"}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got, _ := list(early.ID, tc.mod); !slices.Equal(got, tc.want) {
					t.Errorf("= %v, want %v", got, tc.want)
				}
			})
		}
		if got, _ := list(late.ID, func(q *register.Query) { q.Group = register.GroupInForce }); !slices.Equal(got, []string{"Audit systems.|todo|in-force|"}) {
			t.Errorf("the late organisation's in force: %v", got)
		}
		// An issuer's register is the issuers' obligations.
		if got, _ := list(early.ID, func(q *register.Query) { q.EntityTypes = []string{"Issuer"} }); !slices.Equal(got,
			[]string{"Raise the limits.|todo|later|", "Tell customers.|in-progress|no-date|"}) {
			t.Errorf("as an issuer: %v", got)
		}
		if got, total := list("no-such-organisation", nil); len(got) != 0 || total != 0 {
			t.Errorf("no such organisation: %v", got)
		}

		for _, c := range []struct {
			org                 string
			applicable, settled int
		}{{early.ID, 2, 1}, {late.ID, 2, 0}} {
			tally, err := f.db.OrganisationRegisterTally(ctx, c.org, pspTypes)
			if err != nil {
				t.Fatal(err)
			}
			if s := register.ScoreOf(tally, pspTypes); s.Applicable != c.applicable || s.Settled != c.settled {
				t.Errorf("%s's score %+v, want %d settled of %d", c.org, s, c.settled, c.applicable)
			}
		}
		// asha's own register keeps her statuses, not the organisation's.
		if got, _ := f.list(t, f.asha.ID, f.query(nil)); !slices.Equal(got, []string{"Audit systems.|todo|overdue", "Tell customers.|not-applicable|no-date"}) {
			t.Errorf("asha's own register: %v", got)
		}
	})
}
