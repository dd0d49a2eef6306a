package store

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
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

// openWithExtracted opens a store of open's kind holding
// obligationsCatalog and two extracted obligations: one for the cyber
// circular, due on due (input hash "h1"), returned with the catalog; and
// one for the UPI Lite circular (hash "h2"), shown nowhere, as that
// circular has written ones.
func openWithExtracted(t *testing.T, open opener, due string) (*DB, *catalog.Catalog, catalog.Obligation) {
	t.Helper()
	cat := obligationsCatalog(t)
	db := openSynced(t, open, cat)
	d := storetest.Date(due)
	cyber := extracted(t, cat, storetest.SlugCyber, "PSP", "Audit systems.", &d)
	if err := db.PutExtractedObligations(t.Context(), cyber.CircularID, "h1", []catalog.Obligation{cyber}); err != nil {
		t.Fatal(err)
	}
	shadowed := extracted(t, cat, storetest.SlugUPILite, "PSP", "Shadowed.", nil)
	if err := db.PutExtractedObligations(t.Context(), shadowed.CircularID, "h2", []catalog.Obligation{shadowed}); err != nil {
		t.Fatal(err)
	}
	return db, cat, cyber
}

func TestObligations_Sync(t *testing.T) {
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
		// by id, as ObligationByID reads each; an unknown id has none
		byID, err := db.ObligationsByID(ctx, []string{got[0].ID, "no-such-id", got[0].ID})
		if err != nil {
			t.Fatal(err)
		}
		one, err := db.ObligationByID(ctx, got[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]catalog.Obligation{one.ID: one}, byID); diff != "" {
			t.Errorf("ObligationsByID (-want +got):\n%s", diff)
		}
	})
}

func TestObligations_List(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db, cat, cyber := openWithExtracted(t, open, "2025-08-01")
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
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
		// lite's extracted one is hidden behind its written ones
		got, err := db.ExtractedObligationsOf(ctx, []string{lite.ID, cyber.CircularID, "no-such-id"})
		if diff := cmp.Diff(map[string][]catalog.Obligation{cyber.CircularID: {cyber}}, got); err != nil || diff != "" {
			t.Errorf("ExtractedObligationsOf (-want +got):\n%s%v", diff, err)
		}
	})
}

// TestObligations_CitesAndReview: an obligation's cited provisions and
// their review are stored whole and read back, and a review that appears
// (the direction changed) reaches the store at the next sync.
func TestObligations_CitesAndReview(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat := obligationsCatalog(t)
		db := openSynced(t, open, cat)
		lite, _ := circularBySlug(cat, storetest.SlugUPILite)
		reviewed := storetest.Date("2025-01-01")
		for i := range cat.Circulars {
			if cat.Circulars[i].Slug == lite.Slug {
				o := &cat.Circulars[i].Obligations[0]
				o.Cites = &catalog.ProvisionCitation{Direction: "ppi-2021", Provisions: catalog.TextList{"9.1(ii)"}, ReviewedOn: &reviewed}
				o.Review = &catalog.ProvisionReview{Since: storetest.Date("2025-11-28"), Provisions: catalog.TextList{"9.1(ii)"},
					Compare: "/master-directions/ppi-2021/compare/2024-12-27/2025-11-28"}
				lite = cat.Circulars[i]
			}
		}
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		got, err := db.CircularObligations(ctx, lite.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(lite.Obligations, got, cmpopts.IgnoreFields(catalog.ProvisionCitation{}, "Line")); diff != "" {
			t.Errorf("CircularObligations (-synced +read):\n%s", diff)
		}
	})
}
