package store

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/register"
	"regpulse/internal/store/storetest"
)

// registerFixture is a store holding obligationsCatalog, an obligation
// extracted for the cyber circular (for PSPs, due 2025-06-01) and two
// users: asha, whose account is of 1 January 2025, so that the obligation
// fell due while her register tracked it (overdue on the fixture's
// clock), and ravi, who signed up on the fixture's day, after it (in
// force: to confirm).
type registerFixture struct {
	db          *DB
	cat         *catalog.Catalog
	cyber       catalog.Obligation
	raise, tell catalog.Obligation // the UPI Lite circular's: for issuers, dated; for all, undated
	draft       catalog.Obligation // the fraud circular's, not binding
	asha, ravi  auth.User
}

// pspTypes are the entity types of a PSP's register.
var pspTypes = []string{"PSP"}

func newRegisterFixture(t *testing.T, open opener) registerFixture {
	t.Helper()
	db, cat, cyber := openWithExtracted(t, open, "2025-06-01")
	lite, _ := circularBySlug(cat, storetest.SlugUPILite)
	fraud, _ := circularBySlug(cat, storetest.SlugUPIFraud)
	db.now = func() time.Time { return time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC) }
	asha := mustCreate(t, db, newUser("asha", "asha@example.com"))
	db.now = storetest.Clock
	return registerFixture{db: db, cat: cat, cyber: cyber, raise: lite.Obligations[0], tell: lite.Obligations[1], draft: fraud.Obligations[0],
		asha: asha, ravi: mustCreate(t, db, newUser("ravi", "ravi@example.com"))}
}

// outside are obligations outside asha's register as a PSP: unknown,
// for another entity type, not binding.
func (f registerFixture) outside() []struct{ name, id string } {
	return []struct{ name, id string }{
		{"ErrNotFoundUnknown", "no-such-obligation"},
		{"ErrNotFoundOtherType", f.raise.ID},
		{"ErrNotFoundNotBinding", f.draft.ID},
	}
}

// query is a PSP's register query on the fixture's clock, changed by mod.
func (f registerFixture) query(mod func(*register.Query)) register.Query {
	r := register.Query{EntityTypes: pspTypes, Now: storetest.Now, Page: catalog.Page{Limit: 50}}
	if mod != nil {
		mod(&r)
	}
	return r
}

// list is the register q selects for userID, as "what|status|group", and
// how many it selects in all.
func (f registerFixture) list(t *testing.T, userID string, q register.Query) ([]string, int) {
	t.Helper()
	items, total, err := f.db.Register(t.Context(), userID, q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, it := range items {
		out = append(out, it.What+"|"+it.Status+"|"+it.DueGroup)
	}
	return out, total
}

func TestRegister(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		f := newRegisterFixture(t, open)
		// A PSP's register: binding obligations for PSPs or all; the
		// draft's and the issuers' are not in it.
		got, total := f.list(t, f.asha.ID, f.query(nil))
		want := []string{"Audit systems.|todo|overdue", "Tell customers.|todo|no-date"}
		if !slices.Equal(got, want) || total != 2 {
			t.Errorf("Register = %v (%d), want %v", got, total, want)
		}
		got, _ = f.list(t, f.asha.ID, f.query(func(r *register.Query) { r.EntityTypes = []string{"Issuer"} }))
		if want := []string{"Raise the limits.|todo|later", "Tell customers.|todo|no-date"}; !slices.Equal(got, want) {
			t.Errorf("an issuer's register = %v, want %v", got, want)
		}

		if _, err := f.db.SetObligationStatus(ctx, f.asha.ID, f.cyber.ID, pspTypes, register.StatusDone, ""); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			rq   register.Query
			want []string
		}{
			{"Status", f.query(func(r *register.Query) { r.Status = "done" }), []string{"Audit systems.|done|overdue"}},
			{"StatusTodo", f.query(func(r *register.Query) { r.Status = "todo" }), []string{"Tell customers.|todo|no-date"}},
			{"GroupNoDate", f.query(func(r *register.Query) { r.Group = register.GroupNoDate }), []string{"Tell customers.|todo|no-date"}},
			{"GroupOverdue", f.query(func(r *register.Query) { r.Group = register.GroupOverdue }), []string{"Audit systems.|done|overdue"}},
			{"GroupLater", f.query(func(r *register.Query) { r.Group = register.GroupLater }), nil},
			{"SearchWhatAnyCase", f.query(func(r *register.Query) { r.Search = "AUDIT" }), []string{"Audit systems.|done|overdue"}},
			{"SearchLiteral", f.query(func(r *register.Query) { r.Search = "%" }), nil},
			{"PastEnd", f.query(func(r *register.Query) { r.Offset = 5 }), nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got, _ := f.list(t, f.asha.ID, tc.rq); !slices.Equal(got, tc.want) {
					t.Errorf("Register = %v, want %v", got, tc.want)
				}
			})
		}
		if _, total := f.list(t, f.asha.ID, f.query(func(r *register.Query) { r.Offset = 5 })); total != 2 {
			t.Errorf("total past the end = %d, want 2", total)
		}

		// Another user's register is their own: asha's status is not ravi's.
		// ravi signed up after the obligation's date: for him it is in
		// force, not overdue.
		got, _ = f.list(t, f.ravi.ID, f.query(nil))
		if want := []string{"Audit systems.|todo|in-force", "Tell customers.|todo|no-date"}; !slices.Equal(got, want) {
			t.Errorf("ravi's register = %v, want %v", got, want)
		}
		for group, want := range map[string][]string{register.GroupInForce: {"Audit systems.|todo|in-force"}, register.GroupOverdue: nil} {
			if got, _ := f.list(t, f.ravi.ID, f.query(func(r *register.Query) { r.Group = group })); !slices.Equal(got, want) {
				t.Errorf("ravi's %s = %v, want %v", group, got, want)
			}
		}

		for _, tc := range f.outside() {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := f.db.RegisterItem(ctx, f.asha.ID, tc.id, pspTypes); !errors.Is(err, ErrNotFound) {
					t.Errorf("RegisterItem: err = %v, want ErrNotFound", err)
				}
			})
		}

		tally, err := f.db.RegisterTally(ctx, f.asha.ID, pspTypes)
		if err != nil {
			t.Fatal(err)
		}
		lite, _ := circularBySlug(f.cat, storetest.SlugUPILite)
		if diff := cmp.Diff(register.Tally{f.cyber.ImpactLevel: {"done": 1}, lite.ImpactLevel: {"todo": 1}}, tally); diff != "" && f.cyber.ImpactLevel != lite.ImpactLevel {
			t.Errorf("RegisterTally (-want +got):\n%s", diff)
		}
		if s := register.ScoreOf(tally, pspTypes); s.Applicable != 2 || s.Settled != 1 || s.Score == nil {
			t.Errorf("score %+v", s)
		}
	})
}

// TestRegister_NotInForce: an obligation whose circular is replaced or
// withdrawn on or before today is neither due nor overdue: out of the
// register, its items and the tally; one withdrawn from tomorrow stays.
// The cyber circular's obligation is extracted (the view takes its
// circular's day), the UPI Lite one's written (its own column).
func TestRegister_NotInForce(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		f := newRegisterFixture(t, open)
		today := catalog.Date{Time: register.Today(storetest.Now)}
		tomorrow := catalog.Date{Time: today.AddDate(0, 0, 1)}
		for _, tc := range []struct {
			name  string
			on    catalog.Date
			want  []string
			tally int
		}{
			{"WithdrawnTomorrow", tomorrow, []string{"Audit systems.|todo|overdue", "Tell customers.|todo|no-date"}, 2},
			{"WithdrawnToday", today, nil, 0},
		} {
			t.Run(tc.name, func(t *testing.T) {
				for i := range f.cat.Circulars {
					c := &f.cat.Circulars[i]
					if c.Slug != storetest.SlugCyber && c.Slug != storetest.SlugUPILite {
						continue
					}
					on := tc.on
					c.WithdrawnOn = &on
					for j := range c.Obligations {
						c.Obligations[j].CircularWithdrawnOn = &on
					}
				}
				if _, err := f.db.SyncCatalog(ctx, f.cat); err != nil {
					t.Fatal(err)
				}
				got, total := f.list(t, f.asha.ID, f.query(nil))
				if !slices.Equal(got, tc.want) || total != len(tc.want) {
					t.Errorf("Register = %v (%d), want %v", got, total, tc.want)
				}
				_, err := f.db.RegisterItem(ctx, f.asha.ID, f.cyber.ID, pspTypes)
				if found := err == nil; found != (tc.tally > 0) {
					t.Errorf("RegisterItem(cyber): err = %v, want found %t", err, tc.tally > 0)
				}
				tally, err := f.db.RegisterTally(ctx, f.asha.ID, pspTypes)
				if err != nil {
					t.Fatal(err)
				}
				if s := register.ScoreOf(tally, pspTypes); s.Applicable != tc.tally {
					t.Errorf("score counts %d applicable, want %d", s.Applicable, tc.tally)
				}
				obs, err := f.db.CircularObligations(ctx, f.cyber.CircularID)
				if err != nil {
					t.Fatal(err)
				}
				if len(obs) != 1 || obs[0].CircularWithdrawnOn == nil || *obs[0].CircularWithdrawnOn != tc.on {
					t.Errorf("the cyber circular's obligations = %+v, want one carrying its circular's day %s", obs, tc.on)
				}
			})
		}
	})
}
