package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"log/slog"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/logtest"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// TestSearchSnapshot: a store starting from a snapshot of its search index
// (WithSearchSnapshot) answers every search as one reading the index from
// the database, the circulars changed since the snapshot included; a
// snapshot of another generation, newer than the database or damaged is
// ignored with a warning, and the answers stay the same.
func TestSearchSnapshot(t *testing.T) {
	t.Parallel()
	for _, kind := range sharedTargets() {
		t.Run(kind.name, func(t *testing.T) {
			t.Parallel()
			target := kind.target(t)
			open := func(opts ...Option) *DB { return openAndClose(t, target, opts) }
			cs := storetest.RealisticCirculars(300, 11)
			first := open()
			if _, err := first.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: cs}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "search-index.snapshot")
			st, stats, err := first.WriteSearchSnapshot(t.Context(), path)
			if err != nil || stats.Docs != len(cs) || st.Generation == "" {
				t.Fatalf("WriteSearchSnapshot: %+v %+v %v", st, stats, err)
			}

			// after the snapshot: one circular changed, one removed, one new
			changed := cs[5]
			changed.Title += " Quokkas"
			removed := cs[9]
			added := storetest.RealisticCirculars(301, 12)[300]
			added.Slug, added.ID = "added-after-snapshot", "added-after-snapshot"
			later := append([]catalog.Circular{added}, cs...)
			later[6] = changed
			later = append(later[:10], later[11:]...)
			if _, err := first.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: later}); err != nil {
				t.Fatal(err)
			}
			queries := []search.Query{{Text: "quokkas"}, {Text: string(removed.CircularNumber)}, {Text: added.Title},
				{Text: "payment"}, {Text: "card tokenisation", Page: 2}, {Text: "kyc", ByDate: true, Limit: 5},
				{Text: "upi", Source: "NPCI"}, {Text: "केवाईसी"}}
			answers := func(db *DB) []search.Response {
				var out []search.Response
				for _, q := range queries {
					r, err := db.Search(t.Context(), q)
					if err != nil {
						t.Fatalf("%+v: %v", q, err)
					}
					out = append(out, r)
				}
				return out
			}
			fromDatabase := answers(open())
			if fromDatabase[0].Pagination.TotalResults != 1 || fromDatabase[2].Pagination.TotalResults == 0 {
				t.Fatalf("the changes do not show: %d for the changed title, %d for the new one", fromDatabase[0].Pagination.TotalResults, fromDatabase[2].Pagination.TotalResults)
			}
			startFrom := func(path, want string) {
				t.Helper()
				var log logtest.Buffer
				db := open(WithSearchSnapshot(path, slog.New(slog.NewTextHandler(&log, nil))))
				// Stamps name reads of this process's stores, not content.
				if diff := cmp.Diff(fromDatabase, answers(db), cmpopts.IgnoreFields(search.Response{}, "Stamps")); diff != "" {
					t.Errorf("started from %s (-from the database +from the snapshot):\n%s", filepath.Base(path), diff)
				}
				if !strings.Contains(log.String(), want) {
					t.Errorf("started from %s: the log lacks %q:\n%s", filepath.Base(path), want, log.String())
				}
			}
			startFrom(path, "search index snapshot opened")

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			damaged := filepath.Join(t.TempDir(), "damaged.snapshot")
			data[len(data)/2] ^= 1
			if err := os.WriteFile(damaged, data, 0o644); err != nil {
				t.Fatal(err)
			}
			startFrom(damaged, "checksum does not match")
			startFrom(filepath.Join(t.TempDir(), "absent.snapshot"), "no such file")

			// a snapshot newer than the database (restored from a backup)
			newer := filepath.Join(t.TempDir(), "newer.snapshot")
			if _, _, err := first.WriteSearchSnapshot(t.Context(), newer); err != nil {
				t.Fatal(err)
			}
			if _, err := first.db.ExecContext(t.Context(), `UPDATE search_version SET version = 1 WHERE id = 1`); err != nil {
				t.Fatal(err)
			}
			startFrom(newer, "newer than the database")
			// the database rebuilt: another generation
			if _, err := first.db.ExecContext(t.Context(), `UPDATE search_version SET generation = 'rebuilt' WHERE id = 1`); err != nil {
				t.Fatal(err)
			}
			startFrom(path, "another generation")
		})
	}
}
