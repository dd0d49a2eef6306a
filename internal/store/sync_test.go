package store

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

func TestSyncCatalog(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		first := storetest.Catalog()
		stats, err := db.SyncCatalog(ctx, first)
		if err != nil {
			t.Fatal(err)
		}
		want := SyncStats{
			Circulars: KindStats{Added: 5}, News: KindStats{Added: 3}, Companies: KindStats{Added: 2},
			Regulations: KindStats{Added: 3}, Networks: KindStats{Added: 2}, Sibos: KindStats{Added: 2},
			Impact: KindStats{Added: 3},
		}
		if stats != want {
			t.Fatalf("first sync: %v\nwant %v", stats, want)
		}

		// The API stores summaries of two circulars: one about to change, one
		// about to be removed.
		stored := catalog.GeneratedSummary{Summary: "Stored summary of UPI Lite.", Provider: "local", Model: "lexrank", GeneratedAt: storetest.Now}
		if err := db.PutCircularSummary(ctx, idOf(storetest.SlugUPILite), stored); err != nil {
			t.Fatal(err)
		}
		if err := db.PutCircularSummary(ctx, idOf(storetest.SlugCyber), catalog.GeneratedSummary{Summary: "Stored summary of cyber.", GeneratedAt: storetest.Now}); err != nil {
			t.Fatal(err)
		}
		analysis := catalog.ImpactAnalysis{CircularID: idOf(storetest.SlugUPILite), EntityType: "PSP", ImpactLevel: "high",
			Reasons: catalog.TextList{"PSPs must act."}, Provider: "local", Model: "rules", GeneratedAt: storetest.Now}
		if err := db.PutImpactAnalysis(ctx, analysis); err != nil {
			t.Fatal(err)
		}

		// Second catalog: UPI Lite changes (title, impact), cyber is removed,
		// a new circular arrives, one news item changes, a company goes.
		second := storetest.Catalog()
		second.Circulars = slices.DeleteFunc(second.Circulars, func(c catalog.Circular) bool { return c.Slug == storetest.SlugCyber })
		for i := range second.Circulars {
			if c := &second.Circulars[i]; c.Slug == storetest.SlugUPILite {
				c.Title = "UPI Lite limits revised"
				c.ImpactLevel = "high"
				c.EntityImpact = []catalog.EntityImpact{{EntityType: "PSP", ImpactLevel: "high"}}
			}
		}
		second.Circulars = append(second.Circulars,
			storetest.Circular("pfrda-2025-06-28-d-remit", "PFRDA", "Digital Pension", "2025-06-28", "medium", "Aggregator", "medium"))
		second.News[2].Title = "EU AI Act: the timeline"
		second.Companies = second.Companies[1:]

		stats, err = db.SyncCatalog(ctx, second)
		if err != nil {
			t.Fatal(err)
		}
		want = SyncStats{
			Circulars: KindStats{Added: 1, Changed: 1, Removed: 1, Unchanged: 3}, News: KindStats{Changed: 1, Unchanged: 2},
			Companies: KindStats{Removed: 1, Unchanged: 1}, Regulations: KindStats{Unchanged: 3},
			Networks: KindStats{Unchanged: 2}, Sibos: KindStats{Unchanged: 2},
			// PSP: 2 high in the year (fraud, lite), 0 medium: 90, and counts
			// 3/0/0. Issuer: lite no longer names it, low 2 to 1. Aggregator:
			// cyber gone, 1 medium (d-remit): 98.
			Impact: KindStats{Changed: 3},
		}
		if stats != want {
			t.Fatalf("second sync: %v\nwant %v", stats, want)
		}

		t.Run("ChangedCircularKeepsStoredSummary", func(t *testing.T) {
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Search: "UPI Lite", Page: catalog.Page{Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 1 {
				t.Fatalf("got %v, want the UPI Lite circular", slugsOf(list))
			}
			c := list[0]
			want, _ := circularBySlug(second, storetest.SlugUPILite)
			// The editors' summary stays; the stored one is beside it.
			want.Path, want.AISummary = "", &stored
			if diff := cmp.Diff(want, c, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("changed circular (-want +got):\n%s", diff)
			}
			got, err := db.ImpactAnalyses(ctx, idOf(storetest.SlugUPILite))
			if diff := cmp.Diff([]catalog.ImpactAnalysis{analysis}, got); err != nil || diff != "" {
				t.Errorf("impact analyses after the change (-want +got):\n%s%v", diff, err)
			}
		})
		t.Run("RemovedCircularGoneSummaryKept", func(t *testing.T) {
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: catalog.Page{Limit: 100}})
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(slugsOf(list), storetest.SlugCyber) || len(list) != 5 {
				t.Errorf("circulars after removal = %v", slugsOf(list))
			}
			var summary string
			if err := db.db.QueryRowContext(ctx, `SELECT summary FROM circular_summaries WHERE circular_id = ?`, idOf(storetest.SlugCyber)).Scan(&summary); err != nil {
				t.Errorf("summary of the removed circular: %v; want it kept", err)
			}
		})
		t.Run("Counts", func(t *testing.T) {
			recs, err := db.ImpactTracking(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][4]int{}
			for _, r := range recs {
				got[r.EntityType] = [4]int{r.ComplianceScore, r.HighImpactCount, r.MediumImpactCount, r.LowImpactCount}
			}
			want := map[string][4]int{"PSP": {90, 3, 0, 0}, "Issuer": {98, 1, 1, 1}, "Aggregator": {98, 0, 1, 1}}
			for typ, w := range want {
				if got[typ] != w {
					t.Errorf("%s: score, high, medium, low = %v; want %v", typ, got[typ], w)
				}
			}
		})
		t.Run("SameCatalogWritesNothing", func(t *testing.T) {
			stats, err := db.SyncCatalog(ctx, second)
			if err != nil {
				t.Fatal(err)
			}
			want := SyncStats{Circulars: KindStats{Unchanged: 5}, News: KindStats{Unchanged: 3}, Companies: KindStats{Unchanged: 1},
				Regulations: KindStats{Unchanged: 3}, Networks: KindStats{Unchanged: 2}, Sibos: KindStats{Unchanged: 2},
				Impact: KindStats{Unchanged: 3}}
			if stats != want {
				t.Errorf("resync: %v\nwant %v", stats, want)
			}
		})
		t.Run("ReturningCircularGetsItsSummaryBack", func(t *testing.T) {
			if _, err := db.SyncCatalog(ctx, first); err != nil {
				t.Fatal(err)
			}
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Source: "SEBI", Page: catalog.Page{Limit: 1}})
			if err != nil || len(list) != 1 || list[0].AISummary == nil || list[0].AISummary.Summary != "Stored summary of cyber." {
				t.Errorf("restored circular = %+v, %v", list, err)
			}
		})
	})
}

// TestSyncCatalog_ExtractedNotWritten: a build's catalog carries the
// store's extracted obligations on the circulars without written ones
// (generator.Options.Obligations); syncing it writes none of them as the
// editors' (circular_obligations), and an editor's beside them is.
func TestSyncCatalog_ExtractedNotWritten(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		cat := storetest.Catalog()
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		c := &cat.Circulars[0]
		extracted := catalog.Obligation{ID: catalog.ObligationID(c.ID, "Banks must report.", 0), CircularID: c.ID, What: "Report.",
			Kind: "reporting", AppliesTo: catalog.TextList{"Bank"}, SourceText: "Banks must report.", Origin: catalog.OriginExtracted, Binding: true}
		c.Obligations = []catalog.Obligation{extracted}
		stats, err := db.SyncCatalog(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		if stats.Obligations != (KindStats{}) {
			t.Errorf("a catalog carrying an extracted obligation: obligations %v, want none written", stats.Obligations)
		}
		written := extracted
		written.ID, written.SourceText, written.Origin, written.Accepted = catalog.ObligationID(c.ID, "Banks must file.", 0), "Banks must file.", catalog.OriginEditor, true
		c = &cat.Circulars[1]
		written.CircularID, c.Obligations = c.ID, []catalog.Obligation{written}
		if stats, err = db.SyncCatalog(ctx, cat); err != nil {
			t.Fatal(err)
		}
		if stats.Obligations != (KindStats{Added: 1}) {
			t.Errorf("an editor's obligation: obligations %v, want one added", stats.Obligations)
		}
	})
}

func TestSyncCatalog_Errors(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := openSynced(t, open, storetest.Catalog())
		t.Run("ErrNilCatalog", func(t *testing.T) {
			if _, err := db.SyncCatalog(ctx, nil); err == nil {
				t.Error("SyncCatalog(nil) succeeded")
			}
		})
		t.Run("ErrDuplicateIDRollsBack", func(t *testing.T) {
			bad := storetest.Catalog()
			bad.Circulars = bad.Circulars[:1]        // would remove four circulars...
			bad.News = append(bad.News, bad.News[0]) // ...but news has a duplicate
			if _, err := db.SyncCatalog(ctx, bad); err == nil {
				t.Fatal("sync with a duplicate id succeeded")
			}
			list, _, err := db.ListCirculars(ctx, catalog.CircularQuery{Page: catalog.Page{Limit: 100}})
			if err != nil || len(list) != 5 {
				t.Errorf("after a failed sync: %d circulars, %v; want the 5 from before", len(list), err)
			}
		})
		t.Run("ErrCanceled", func(t *testing.T) {
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := db.SyncCatalog(cctx, storetest.Catalog()); !errors.Is(err, context.Canceled) {
				t.Errorf("sync with a cancelled context: %v", err)
			}
		})
	})
}

// TestSyncContentDir syncs the real content twice.
func TestSyncContentDir(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		cat, err := catalog.Load("../../content")
		if err != nil {
			t.Fatal(err)
		}
		db := open(t)
		stats, err := db.SyncContentDir(ctx, "../../content")
		if err != nil {
			t.Fatal(err)
		}
		added := func(n int) KindStats { return KindStats{Added: n} }
		obligations := len(writtenObligations(cat.Circulars))
		versions, spans := len(publishedVersions(cat.Directions)), len(spanRows(cat.Directions))
		want := SyncStats{Circulars: added(len(cat.Circulars)), News: added(len(cat.News)),
			Companies: added(len(cat.Companies)), Regulations: added(len(cat.Regulations)),
			Networks: added(len(cat.Networks)), Sibos: added(len(cat.Sibos)), Impact: added(3), Obligations: added(obligations),
			Directions: added(len(cat.Directions)), Versions: added(versions), Provisions: added(spans)}
		if diff := cmp.Diff(want, stats); diff != "" {
			t.Errorf("first sync of content/ (-want +got):\n%s", diff)
		}
		stats, err = db.SyncContentDir(ctx, "../../content")
		if err != nil {
			t.Fatal(err)
		}
		unchanged := func(n int) KindStats { return KindStats{Unchanged: n} }
		want = SyncStats{Circulars: unchanged(len(cat.Circulars)), News: unchanged(len(cat.News)),
			Companies: unchanged(len(cat.Companies)), Regulations: unchanged(len(cat.Regulations)),
			Networks: unchanged(len(cat.Networks)), Sibos: unchanged(len(cat.Sibos)), Impact: unchanged(3),
			Obligations: unchanged(obligations), Directions: unchanged(len(cat.Directions)), Versions: unchanged(versions),
			Provisions: unchanged(spans)}
		if stats != want {
			t.Errorf("second sync of unchanged content/: %v", stats)
		}
		if _, err := db.SyncContentDir(ctx, t.TempDir()+"/missing"); err == nil {
			t.Error("SyncContentDir of a missing directory succeeded")
		}
	})
}
