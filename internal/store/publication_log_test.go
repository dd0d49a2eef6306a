package store

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// pubDirection is a made-up Master Direction (fixture only) with one
// version per day given.
func pubDirection(slug string, days ...string) catalog.MasterDirection {
	d := catalog.MasterDirection{Entry: catalog.Entry{ID: catalog.IDForPath("master-directions/" + slug + "/direction.md"), Slug: slug},
		Title: "Fixture direction " + slug, Source: "RBI", IssuedDate: storetest.Date("2024-01-01"), Status: "in-force",
		Chapters: catalog.List[catalog.Chapter]{}}
	for _, day := range days {
		d.Versions = append(d.Versions, catalog.DirectionVersion{ID: catalog.IDForPath("master-directions/" + slug + "/" + day + ".md"),
			Direction: slug, Date: storetest.Date(day), Note: "Fixture amendment of " + day})
	}
	return d
}

// logLine is an entry as the tests compare it.
func logLine(e catalog.PublicationEntry) string {
	s := e.Event + " " + e.Kind + " " + e.Slug
	if e.Changes != "" {
		s += " changes=" + e.Changes
	}
	if len(e.SupersededBy) > 0 {
		s += " by=" + strings.Join(e.SupersededBy, ",")
	}
	if e.WithdrawnOn != nil {
		s += " on=" + e.WithdrawnOn.String()
	}
	return s
}

// readLog reads every entry after seq, a page of n at a time.
func readLog(t testing.TB, db *DB, q catalog.PublicationQuery) []catalog.PublicationEntry {
	t.Helper()
	var out []catalog.PublicationEntry
	for {
		page, more, err := db.PublicationLog(t.Context(), q)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, page...)
		if !more {
			return out
		}
		q.AfterSeq = page[len(page)-1].Seq
	}
}

func TestPublicationLog_Events(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		clock := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
		db := open(t, WithNow(func() time.Time { return clock }))
		cat := storetest.Catalog()
		cat.Directions = []catalog.MasterDirection{pubDirection("fixture-md", "2025-01-10")}
		var seen int64
		step := func(name string, change func(*catalog.Catalog), want ...string) {
			t.Helper()
			clock = clock.Add(time.Hour)
			change(cat)
			if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			got := readLog(t, db, catalog.PublicationQuery{AfterSeq: seen, Limit: 2})
			var lines []string
			for _, e := range got {
				lines = append(lines, logLine(e))
				if !e.At.Equal(clock) {
					t.Errorf("%s: %s at %v, want %v", name, logLine(e), e.At, clock)
				}
				seen = e.Seq
			}
			if !slices.Equal(lines, want) {
				t.Errorf("%s: logged\n%s\nwant\n%s", name, strings.Join(lines, "\n"), strings.Join(want, "\n"))
			}
		}
		circ := func(c *catalog.Catalog, slug string) *catalog.Circular {
			for i := range c.Circulars {
				if c.Circulars[i].Slug == slug {
					return &c.Circulars[i]
				}
			}
			t.Fatalf("no %s", slug)
			return nil
		}
		step("first sync", func(*catalog.Catalog) {}, "baseline catalog ")
		page, _, err := db.PublicationLog(t.Context(), catalog.PublicationQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if want := "The catalog held 5 circulars, 1 Master Directions and 1 of their versions"; !strings.Contains(page[0].Note, want) {
			t.Errorf("baseline note %q lacks %q", page[0].Note, want)
		}
		step("same catalog", func(*catalog.Catalog) {})
		step("published", func(c *catalog.Catalog) {
			c.Circulars = append(c.Circulars, storetest.Circular("rbi-2025-07-01-fixture-17", "RBI", "UPI", "2025-07-01", "low"))
			c.Directions[0] = pubDirection("fixture-md", "2025-01-10", "2025-03-01")
		},
			"published circular rbi-2025-07-01-fixture-17",
			"published direction-version fixture-md changes=/master-directions/fixture-md/compare/2025-01-10/2025-03-01")
		var before string
		step("revised", func(c *catalog.Catalog) {
			circ(c, storetest.SlugUPILite).Content = "UPI Lite wallet limits rise again (fixture)."
			c.Directions[0].Versions[1].Note = "Corrected fixture note"
		},
			"revised circular "+storetest.SlugUPILite,
			"revised direction-version fixture-md changes=/master-directions/fixture-md/compare/2025-01-10/2025-03-01")
		revised := readLog(t, db, catalog.PublicationQuery{Event: "revised"})
		if e := revised[0]; e.BeforeHash == "" || e.AfterHash == "" || e.BeforeHash == e.AfterHash || e.Path != "/circulars/"+storetest.SlugUPILite {
			t.Errorf("revision %+v: want both hashes, different, and the circular's path", e)
		} else {
			before = e.AfterHash
		}
		step("not what readers read", func(c *catalog.Catalog) {
			circ(c, storetest.SlugUPILite).ImpactLevel = "low"
		})
		if _, err := db.db.ExecContext(t.Context(), `UPDATE circulars SET content_hash = ''`); err != nil {
			t.Fatal(err)
		}
		step("rows rewritten, text the same", func(*catalog.Catalog) {})
		step("superseded", func(c *catalog.Catalog) {
			tok := circ(c, storetest.SlugTokenisation)
			tok.SupersededBy = catalog.TextList{storetest.SlugUPIFraud}
			tok.WithdrawnOn = new(storetest.Date("2025-06-20"))
		}, "superseded circular "+storetest.SlugTokenisation+" by="+storetest.SlugUPIFraud+" on=2025-06-20")
		step("withdrawn", func(c *catalog.Catalog) {
			circ(c, storetest.SlugCyber).WithdrawnOn = new(storetest.Date("2025-08-01"))
			c.Directions[0].Status, c.Directions[0].StatusDate = "withdrawn", new(storetest.Date("2025-09-01"))
		}, "withdrawn circular "+storetest.SlugCyber+" on=2025-08-01", "withdrawn direction fixture-md on=2025-09-01")
		var bima catalog.Circular
		step("removed", func(c *catalog.Catalog) {
			bima = *circ(c, storetest.SlugBimaSugam)
			c.Circulars = slices.DeleteFunc(c.Circulars, func(x catalog.Circular) bool { return x.Slug == storetest.SlugBimaSugam })
		}, "removed circular "+storetest.SlugBimaSugam)
		step("republished", func(c *catalog.Catalog) { c.Circulars = append(c.Circulars, bima) },
			"republished circular "+storetest.SlugBimaSugam)
		removed := readLog(t, db, catalog.PublicationQuery{Event: "removed"})
		if len(removed) != 1 || removed[0].Title != "Bima Sugam marketplace" || removed[0].Source != "IRDAI" {
			t.Errorf("removed entries %+v: want Bima Sugam's, named and sourced as when published", removed)
		}
		step("revised again", func(c *catalog.Catalog) {
			circ(c, storetest.SlugUPILite).Content = "UPI Lite wallet limits, third fixture text."
		}, "revised circular "+storetest.SlugUPILite)
		again := readLog(t, db, catalog.PublicationQuery{Event: "revised", Source: "NPCI"})
		if len(again) != 2 || again[1].BeforeHash != before {
			t.Errorf("second revision %+v: want it to start from the first's after hash %s", again, before)
		}

		t.Run("filters", func(t *testing.T) {
			all := readLog(t, db, catalog.PublicationQuery{})
			for _, tc := range []struct {
				name string
				q    catalog.PublicationQuery
				want func(catalog.PublicationEntry) bool
			}{
				{"source", catalog.PublicationQuery{Source: "RBI"}, func(e catalog.PublicationEntry) bool { return e.Source == "RBI" }},
				{"event", catalog.PublicationQuery{Event: "published"}, func(e catalog.PublicationEntry) bool { return e.Event == "published" }},
				{"one day", catalog.PublicationQuery{From: new(storetest.Date("2026-12-01")), To: new(storetest.Date("2026-12-01"))},
					func(e catalog.PublicationEntry) bool { return e.At.Format(time.DateOnly) == "2026-12-01" }},
				{"from a later day", catalog.PublicationQuery{From: new(storetest.Date("2026-12-02"))}, func(catalog.PublicationEntry) bool { return false }},
			} {
				got := readLog(t, db, tc.q)
				var want []catalog.PublicationEntry
				for _, e := range all {
					if tc.want(e) {
						want = append(want, e)
					}
				}
				if len(got) != len(want) {
					t.Errorf("%s: %d entries, want %d", tc.name, len(got), len(want))
				}
			}
			// Newest first, before a seq.
			back, more, err := db.PublicationLog(t.Context(), catalog.PublicationQuery{Before: all[len(all)-1].Seq, Limit: 3})
			if err != nil {
				t.Fatal(err)
			}
			if !more || len(back) != 3 || back[0].Seq != all[len(all)-2].Seq || back[2].Seq != all[len(all)-4].Seq {
				t.Errorf("before the last: %v (more %v), want the three before it, newest first", back, more)
			}
		})
	})
}

// TestPublicationLog_ConcurrentSyncs: a consumer paging by seq while
// syncs run reads every entry once, in order: it never sees a seq before
// a smaller one is visible.
func TestPublicationLog_ConcurrentSyncs(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		base := storetest.Catalog()
		if _, err := db.SyncCatalog(t.Context(), base); err != nil {
			t.Fatal(err)
		}
		const writers, rounds = 3, 8
		var wg sync.WaitGroup
		done := make(chan struct{})
		for w := range writers {
			wg.Go(func() {
				for r := range rounds {
					cat := storetest.Catalog()
					// Each writer adds its own circular and revises another
					// text, so every sync logs something.
					cat.Circulars = append(cat.Circulars, storetest.Circular(fmt.Sprintf("rbi-2025-07-%02d-fixture-w%d-r%d", w+1, w, r), "RBI", "UPI", "2025-07-01", "low"))
					cat.Circulars[w].Content = fmt.Sprintf("Fixture text by writer %d, round %d.", w, r)
					if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		go func() { wg.Wait(); close(done) }()
		var read []int64
		var after int64
		for finished := false; !finished; {
			select {
			case <-done:
				finished = true // one more read, after the last sync
			default:
			}
			page, _, err := db.PublicationLog(t.Context(), catalog.PublicationQuery{AfterSeq: after, Limit: 4})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page {
				read = append(read, e.Seq)
				after = e.Seq
			}
			if len(page) == 4 {
				finished = false // keep reading while pages are full
			}
		}
		var all []int64
		for _, e := range readLog(t, db, catalog.PublicationQuery{}) {
			all = append(all, e.Seq)
		}
		if len(all) < writers*rounds {
			t.Fatalf("%d entries logged, want at least %d", len(all), writers*rounds)
		}
		if !slices.Equal(read, all) {
			t.Errorf("the consumer read %d entries, the log holds %d: paging skipped or repeated some\nread %v\nall  %v", len(read), len(all), read, all)
		}
	})
}
