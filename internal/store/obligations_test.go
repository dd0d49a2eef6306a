package store

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/register"
	"regpulse/internal/store/storetest"
)

// obligationsCatalog is the fixture with obligations written for the UPI
// Lite circular (one dated, for issuers; one undated, for all) and a
// draft-like non-binding one on the fraud circular.
func obligationsCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	cat := storetest.Catalog()
	due := storetest.Date("2025-07-15")
	for i := range cat.Circulars {
		c := &cat.Circulars[i]
		switch c.Slug {
		case storetest.SlugUPILite:
			c.Obligations = []catalog.Obligation{
				{AppliesTo: catalog.TextList{"Issuer"}, What: "Raise the limits.", Kind: "amendment", DueDate: &due, Deadline: "by 15 July 2025",
					Binding: true, SourceText: "Issuers raise the limits by 15 July 2025.", SourceStart: 0, SourceEnd: 41},
				{AppliesTo: catalog.TextList{"all"}, What: "Tell customers.", Kind: "reporting", Binding: true, SourceText: "All tell customers."},
			}
		case storetest.SlugUPIFraud:
			c.Obligations = []catalog.Obligation{{AppliesTo: catalog.TextList{"PSP"}, What: "Proposed checks.", Kind: "new-requirement",
				Binding: false, SourceText: "PSPs would check."}}
		default:
			continue
		}
		catalog.AssignObligationIDs(c.ID, c.Obligations)
		for j := range c.Obligations {
			o := &c.Obligations[j]
			o.Origin, o.Accepted = catalog.OriginEditor, true
			o.CircularSlug, o.CircularTitle, o.Source, o.ImpactLevel = c.Slug, c.Title, c.Source, c.ImpactLevel
		}
	}
	return cat
}

// extracted is an obligation proposed for circular slug of cat.
func extracted(t testing.TB, cat *catalog.Catalog, slug string, who, what string, due *catalog.Date) catalog.Obligation {
	t.Helper()
	c, ok := circularBySlug(cat, slug)
	if !ok {
		t.Fatalf("no circular %s", slug)
	}
	o := catalog.Obligation{CircularID: c.ID, Position: 1, AppliesTo: catalog.TextList{who}, What: what, Kind: "new-requirement",
		DueDate: due, Binding: true, SourceText: what, Origin: catalog.OriginExtracted, Provider: "local", Model: "rules",
		CircularSlug: c.Slug, CircularTitle: c.Title, Source: c.Source, ImpactLevel: c.ImpactLevel}
	o.ID = catalog.ObligationID(c.ID, what, 0)
	return o
}

func obligationIDs(obs []catalog.Obligation) []string {
	out := make([]string, len(obs))
	for i, o := range obs {
		out[i] = o.CircularSlug + "#" + o.What
	}
	return out
}

func TestObligations_SyncAndExtracted(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := obligationsCatalog(t)
		db := open(t)
		stats, err := db.SyncCatalog(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Obligations.Added != 3 {
			t.Errorf("sync added %v obligations, want 3", stats.Obligations)
		}
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		got, err := db.CircularObligations(ctx, lite.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]catalog.Obligation(lite.Obligations), got); diff != "" {
			t.Errorf("CircularObligations (-want +got):\n%s", diff)
		}
		if _, err := db.CircularObligations(ctx, "no-such-id"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown circular: err = %v, want ErrNotFound", err)
		}

		// Extracted obligations are stored apart, shown while the
		// circular has none written, and never replace written ones.
		cyberDue := storetest.Date("2025-08-01")
		cyber := extracted(t, cat, storetest.SlugCyber, "PSP", "Audit systems.", &cyberDue)
		if err := db.PutExtractedObligations(ctx, cyber.CircularID, "h1", []catalog.Obligation{cyber}); err != nil {
			t.Fatal(err)
		}
		shadowed := extracted(t, cat, storetest.SlugUPILite, "PSP", "Shadowed.", nil)
		if err := db.PutExtractedObligations(ctx, lite.ID, "h2", []catalog.Obligation{shadowed}); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.CircularObligations(ctx, lite.ID); len(got) != 2 || got[0].Origin != catalog.OriginEditor {
			t.Errorf("an extracted obligation shows beside written ones: %v", obligationIDs(got))
		}
		if got, _ := db.CircularObligations(ctx, cyber.CircularID); !cmp.Equal(got, []catalog.Obligation{cyber}) {
			t.Errorf("extracted: %+v", got)
		}
		states, err := db.ExtractedStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]obligations.ExtractedState{cyber.CircularID: {InputHash: "h1"}, lite.ID: {InputHash: "h2"}}, states); diff != "" {
			t.Errorf("ExtractedStates (-want +got):\n%s", diff)
		}

		// A sync (content edited) leaves extracted ones alone.
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if got, _ := db.CircularObligations(ctx, cyber.CircularID); len(got) != 1 {
			t.Errorf("sync removed extracted obligations: %v", got)
		}

		t.Run("List", func(t *testing.T) {
			after, before := storetest.Date("2025-07-01"), storetest.Date("2025-07-31")
			for _, tc := range []struct {
				name string
				q    catalog.ObligationQuery
				want []string
				all  int
			}{
				{"All", catalog.ObligationQuery{}, []string{lite.Slug + "#Raise the limits.", storetest.SlugCyber + "#Audit systems.",
					lite.Slug + "#Tell customers.", storetest.SlugUPIFraud + "#Proposed checks."}, 4},
				{"EntityTypeWithAll", catalog.ObligationQuery{EntityType: "Issuer"}, []string{lite.Slug + "#Raise the limits.", lite.Slug + "#Tell customers."}, 2},
				{"DueWindow", catalog.ObligationQuery{DueAfter: &after, DueBefore: &before}, []string{lite.Slug + "#Raise the limits."}, 1},
				{"Source", catalog.ObligationQuery{Source: "SEBI"}, []string{storetest.SlugCyber + "#Audit systems."}, 1},
				{"Origin", catalog.ObligationQuery{Origin: "extracted"}, []string{storetest.SlugCyber + "#Audit systems."}, 1},
				{"NotBinding", catalog.ObligationQuery{Binding: "false"}, []string{storetest.SlugUPIFraud + "#Proposed checks."}, 1},
				{"Paged", catalog.ObligationQuery{Page: catalog.Page{Limit: 1, Offset: 1}}, []string{storetest.SlugCyber + "#Audit systems."}, 4},
			} {
				t.Run(tc.name, func(t *testing.T) {
					if tc.q.Limit == 0 {
						tc.q.Limit = 10
					}
					got, total, err := db.ListObligations(ctx, tc.q)
					if err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(tc.want, obligationIDs(got)); diff != "" || total != tc.all {
						t.Errorf("ListObligations total %d (want %d) (-want +got):\n%s", total, tc.all, diff)
					}
				})
			}
			var n int
			if err := db.ExportObligations(ctx, catalog.ObligationQuery{}, func(catalog.Obligation) error { n++; return nil }); err != nil || n != 4 {
				t.Errorf("ExportObligations: %d, %v", n, err)
			}
			all, err := db.AllObligations(ctx)
			if err != nil || len(all[lite.ID]) != 2 || len(all[cyber.CircularID]) != 1 {
				t.Errorf("AllObligations: %v, %v", all, err)
			}
		})

		t.Run("Accept", func(t *testing.T) {
			n, err := db.AcceptObligations(ctx, storetest.SlugCyber)
			if err != nil || n != 1 {
				t.Fatalf("AcceptObligations = %d, %v", n, err)
			}
			if got, _ := db.CircularObligations(ctx, cyber.CircularID); len(got) != 1 || !got[0].Accepted || got[0].Origin != catalog.OriginExtracted {
				t.Errorf("accepted: %+v", got)
			}
			if err := db.PutExtractedObligations(ctx, cyber.CircularID, "h3", nil); !errors.Is(err, ErrAccepted) {
				t.Errorf("replacing accepted ones: err = %v, want ErrAccepted", err)
			}
			if _, err := db.AcceptObligations(ctx, "no-such-circular"); !errors.Is(err, ErrNotFound) {
				t.Errorf("unknown circular: err = %v", err)
			}
		})
	})
}

func TestRegister(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := obligationsCatalog(t)
		db := openSynced(t, open, cat)
		cyberDue := storetest.Date("2025-06-01")
		cyber := extracted(t, cat, storetest.SlugCyber, "PSP", "Audit systems.", &cyberDue)
		if err := db.PutExtractedObligations(ctx, cyber.CircularID, "h", []catalog.Obligation{cyber}); err != nil {
			t.Fatal(err)
		}
		asha := mustCreate(t, db, newUser("asha", "asha@example.com"))
		ravi := mustCreate(t, db, newUser("ravi", "ravi@example.com"))
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		raise, tell := lite.Obligations[0], lite.Obligations[1]
		psp := []string{"PSP"}
		q := func(mod func(*register.Query)) register.Query {
			r := register.Query{EntityTypes: psp, Now: storetest.Now, Page: catalog.Page{Limit: 50}}
			if mod != nil {
				mod(&r)
			}
			return r
		}
		list := func(userID string, rq register.Query) ([]string, int) {
			t.Helper()
			items, total, err := db.Register(ctx, userID, rq)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, it := range items {
				out = append(out, it.What+"|"+it.Status+"|"+it.DueGroup)
			}
			return out, total
		}
		// A PSP's register: binding obligations for PSPs or all; the
		// draft's and the issuers' are not in it.
		got, total := list(asha.ID, q(nil))
		want := []string{"Audit systems.|todo|overdue", "Tell customers.|todo|no-date"}
		if !slices.Equal(got, want) || total != 2 {
			t.Errorf("Register = %v (%d), want %v", got, total, want)
		}
		got, _ = list(asha.ID, q(func(r *register.Query) { r.EntityTypes = []string{"Issuer"} }))
		if want := []string{"Raise the limits.|todo|later", "Tell customers.|todo|no-date"}; !slices.Equal(got, want) {
			t.Errorf("an issuer's register = %v, want %v", got, want)
		}

		it, err := db.SetObligationStatus(ctx, asha.ID, cyber.ID, psp, register.StatusInProgress, "Asked IT.")
		if err != nil {
			t.Fatal(err)
		}
		if it.Status != register.StatusInProgress || it.Note != "Asked IT." || it.StatusUpdatedAt == nil || !it.StatusUpdatedAt.Equal(storetest.Now) {
			t.Errorf("SetObligationStatus = %+v", it)
		}
		if _, err := db.SetObligationStatus(ctx, asha.ID, cyber.ID, psp, register.StatusDone, ""); err != nil {
			t.Fatal(err)
		}
		hist, err := db.ObligationHistory(ctx, asha.ID, cyber.ID, psp)
		if err != nil {
			t.Fatal(err)
		}
		wantHist := []register.Change{{Status: "in-progress", Note: "Asked IT.", ChangedAt: storetest.Now}, {Status: "done", ChangedAt: storetest.Now}}
		if diff := cmp.Diff(wantHist, hist); diff != "" {
			t.Errorf("ObligationHistory (-want +got):\n%s", diff)
		}

		for _, tc := range []struct {
			name string
			rq   register.Query
			want []string
		}{
			{"Status", q(func(r *register.Query) { r.Status = "done" }), []string{"Audit systems.|done|overdue"}},
			{"StatusTodo", q(func(r *register.Query) { r.Status = "todo" }), []string{"Tell customers.|todo|no-date"}},
			{"GroupNoDate", q(func(r *register.Query) { r.Group = register.GroupNoDate }), []string{"Tell customers.|todo|no-date"}},
			{"GroupOverdue", q(func(r *register.Query) { r.Group = register.GroupOverdue }), []string{"Audit systems.|done|overdue"}},
			{"GroupLater", q(func(r *register.Query) { r.Group = register.GroupLater }), nil},
			{"SearchWhatAnyCase", q(func(r *register.Query) { r.Search = "AUDIT" }), []string{"Audit systems.|done|overdue"}},
			{"SearchLiteral", q(func(r *register.Query) { r.Search = "%" }), nil},
			{"PastEnd", q(func(r *register.Query) { r.Offset = 5 }), nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if got, _ := list(asha.ID, tc.rq); !slices.Equal(got, tc.want) {
					t.Errorf("Register = %v, want %v", got, tc.want)
				}
			})
		}
		if _, total := list(asha.ID, q(func(r *register.Query) { r.Offset = 5 })); total != 2 {
			t.Errorf("total past the end = %d, want 2", total)
		}

		// Another user's register is their own: asha's status is not
		// ravi's, and he has no history of it.
		got, _ = list(ravi.ID, q(nil))
		if want := []string{"Audit systems.|todo|overdue", "Tell customers.|todo|no-date"}; !slices.Equal(got, want) {
			t.Errorf("ravi's register = %v, want %v", got, want)
		}
		if h, err := db.ObligationHistory(ctx, ravi.ID, cyber.ID, psp); err != nil || len(h) != 0 {
			t.Errorf("ravi's history = %v, %v", h, err)
		}

		for _, tc := range []struct {
			name  string
			id    string
			types []string
		}{
			{"ErrNotFoundUnknown", "no-such-obligation", psp},
			{"ErrNotFoundOtherType", raise.ID, psp},
			{"ErrNotFoundNotBinding", cat.Circulars[slices.IndexFunc(cat.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugUPIFraud })].Obligations[0].ID, psp},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := db.SetObligationStatus(ctx, asha.ID, tc.id, tc.types, register.StatusDone, ""); !errors.Is(err, ErrNotFound) {
					t.Errorf("SetObligationStatus: err = %v, want ErrNotFound", err)
				}
				if _, err := db.ObligationHistory(ctx, asha.ID, tc.id, tc.types); !errors.Is(err, ErrNotFound) {
					t.Errorf("ObligationHistory: err = %v, want ErrNotFound", err)
				}
				if _, err := db.RegisterItem(ctx, asha.ID, tc.id, tc.types); !errors.Is(err, ErrNotFound) {
					t.Errorf("RegisterItem: err = %v, want ErrNotFound", err)
				}
			})
		}
		if _, err := db.SetObligationStatus(ctx, asha.ID, tell.ID, psp, "finished", ""); err == nil {
			t.Error("an unknown status was stored")
		}
		if h, _ := db.ObligationHistory(ctx, asha.ID, tell.ID, psp); len(h) != 0 {
			t.Errorf("a refused change was recorded: %v", h)
		}

		tally, err := db.RegisterTally(ctx, asha.ID, psp)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(register.Tally{cyber.ImpactLevel: {"done": 1}, lite.ImpactLevel: {"todo": 1}}, tally); diff != "" && cyber.ImpactLevel != lite.ImpactLevel {
			t.Errorf("RegisterTally (-want +got):\n%s", diff)
		}
		if s := register.ScoreOf(tally, psp); s.Applicable != 2 || s.Settled != 1 || s.Score == nil {
			t.Errorf("score %+v", s)
		}

		// Statuses go with their user.
		if err := db.DeleteUser(ctx, asha.ID); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM obligation_status_history WHERE user_id = ?", asha.ID).Scan(&n); err != nil || n != 0 {
			t.Errorf("a deleted user's history stays: %d, %v", n, err)
		}
	})
}
