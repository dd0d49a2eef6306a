package store

import (
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// TestSearchCirculars_Changed: a search answers from the circulars it
// keeps (the same stamp twice), and never with a circular changed since:
// changed or removed by a sync of this instance or of another one on the
// same database, or given a stored summary.
func TestSearchCirculars_Changed(t *testing.T) {
	t.Parallel()
	cs := storetest.RealisticCirculars(40, 7)
	const x = 12 // the circular changed
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			for _, tc := range []struct {
				name string
				// change changes circular x through reader (this instance)
				// or writer (another) and says what a search must show.
				change func(t *testing.T, reader, writer *DB) (want func(c catalog.Circular) bool, removed bool)
			}{
				{"ContentByAnother", func(t *testing.T, _, writer *DB) (func(catalog.Circular) bool, bool) {
					later := cloneCirculars(cs)
					later[x].Content += "\n\nA sentence added later."
					syncCirculars(t, writer, later)
					return func(c catalog.Circular) bool { return c.Content == later[x].Content }, false
				}},
				{"TitleByThis", func(t *testing.T, reader, _ *DB) (func(catalog.Circular) bool, bool) {
					later := cloneCirculars(cs)
					later[x].Title += " (amended)"
					syncCirculars(t, reader, later)
					return func(c catalog.Circular) bool { return c.Title == later[x].Title }, false
				}},
				{"SummaryStoredByAnother", func(t *testing.T, _, writer *DB) (func(catalog.Circular) bool, bool) {
					sum := catalog.GeneratedSummary{Summary: "A summary stored later.", Provider: "test", Model: "m",
						GeneratedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
					if err := writer.PutCircularSummary(t.Context(), cs[x].ID, sum); err != nil {
						t.Fatal(err)
					}
					return func(c catalog.Circular) bool { return c.AISummary != nil && c.AISummary.Summary == sum.Summary }, false
				}},
				{"RemovedByAnother", func(t *testing.T, _, writer *DB) (func(catalog.Circular) bool, bool) {
					later := cloneCirculars(cs)
					syncCirculars(t, writer, append(later[:x], later[x+1:]...))
					return nil, true
				}},
			} {
				t.Run(tc.name, func(t *testing.T) {
					target := kind.target(t)
					writer := openAndClose(t, target, nil)
					syncCirculars(t, writer, cs)
					reader := openAndClose(t, target, nil)
					q := search.Query{Text: string(cs[x].CircularNumber)}
					first := findCircular(t, reader, q, cs[x].ID)
					if first.Stamp == 0 {
						t.Fatal("the circular found has no stamp")
					}
					if again := findCircular(t, reader, q, cs[x].ID); again.Stamp != first.Stamp {
						t.Errorf("stamp %d, then %d: not kept", first.Stamp, again.Stamp)
					}
					want, removed := tc.change(t, reader, writer)
					res, err := reader.Search(t.Context(), q)
					if err != nil {
						t.Fatal(err)
					}
					for i, c := range res.Circulars {
						if c.ID != cs[x].ID {
							continue
						}
						switch {
						case removed:
							t.Errorf("the removed circular is still found")
						case res.Stamps[i] == first.Stamp || !want(c):
							t.Errorf("the circular found is as before the change (stamp %d, first %d)", res.Stamps[i], first.Stamp)
						}
						return
					}
					if !removed {
						t.Errorf("the changed circular is not found: %d circulars", len(res.Circulars))
					}
				})
			}
		})
	}
}

// findCircular is the circular with id in reader's answer to q, with its
// stamp.
func findCircular(t *testing.T, reader *DB, q search.Query, id string) search.Hit {
	t.Helper()
	res, err := reader.Search(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range res.Circulars {
		if c.ID == id {
			return search.Hit{Circular: c, Stamp: res.Stamps[i]}
		}
	}
	t.Fatalf("%s not found for %q", id, q.Text)
	return search.Hit{}
}

func syncCirculars(t *testing.T, db *DB, cs []catalog.Circular) {
	t.Helper()
	if _, err := db.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: cs}); err != nil {
		t.Fatal(err)
	}
}

func cloneCirculars(cs []catalog.Circular) []catalog.Circular {
	return append([]catalog.Circular(nil), cs...)
}
