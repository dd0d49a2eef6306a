package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/audit"
	"regpulse/internal/catalog"
	"regpulse/internal/newsletter"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// TestDB_Backup_Restore backs a store up while writers add accounts and
// subscriptions, restores the backup into a store of the other kind
// and compares every table, row by row; the restored store then
// searches, signs in and takes new circulars.
func TestDB_Backup_Restore(t *testing.T) {
	t.Parallel()
	sqliteURL := func(t *testing.T) string { return filepath.Join(t.TempDir(), "regpulse.db") }
	pgURL := func(t *testing.T) string { return newPostgresTest(t) }
	for _, tc := range []struct {
		name     string
		from, to func(t *testing.T) string
	}{
		{"SQLiteToPostgres", sqliteURL, pgURL},
		{"PostgresToSQLite", pgURL, sqliteURL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			src := openAndClose(t, tc.from(t), nil)
			cat := storetest.Catalog()
			if _, err := src.SyncCatalog(ctx, cat); err != nil {
				t.Fatal(err)
			}
			circ := cat.Circulars[0]
			if err := src.PutCircularSummary(ctx, circ.ID, catalog.GeneratedSummary{Summary: "Stored summary.", Provider: "local", Model: "m", GeneratedAt: storetest.Now}); err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				if _, err := src.CreateUser(ctx, newUser(fmt.Sprintf("before%d", i), fmt.Sprintf("before%d@example.com", i))); err != nil {
					t.Fatal(err)
				}
				if _, err := src.AppendAudit(ctx, audit.Entry{OrgID: "org-a", ActorID: "u1", Action: "thing.set", After: map[string]int{"i": i}}); err != nil {
					t.Fatal(err)
				}
			}

			// Writers add accounts (a user and their preferences in one
			// transaction) and subscriptions while the backup runs.
			var stop atomic.Bool
			var written atomic.Int32
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := 0; !stop.Load(); i++ {
						name := fmt.Sprintf("w%d-%d", w, i)
						if _, err := src.CreateUser(ctx, newUser(name, name+"@example.com")); err != nil {
							t.Error(err)
							return
						}
						if _, _, err := src.Subscribe(ctx, newsletter.Signup{Email: name + "@news.example"}); err != nil {
							t.Error(err)
							return
						}
						written.Add(1)
					}
				})
			}
			for written.Load() < 8 {
				time.Sleep(time.Millisecond)
			}
			file := filepath.Join(t.TempDir(), "backup.db")
			err := src.Backup(ctx, file)
			atLeast := written.Load()
			for written.Load() < atLeast+8 { // writes go on after the backup
				time.Sleep(time.Millisecond)
			}
			stop.Store(true)
			wg.Wait()
			if err != nil {
				t.Fatal(err)
			}

			// The backup is one moment's state: every user with their
			// preferences, nothing half written.
			snap := openAndClose(t, copyOf(t, file), nil)
			users, err := snap.ListUsers(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range users {
				if _, err := snap.Preferences(ctx, u.ID); err != nil {
					t.Errorf("user %s backed up without preferences: %v", u.Username, err)
				}
			}
			if live, _ := src.ListUsers(ctx); len(users) < 5+8 || len(users) >= len(live) {
				t.Errorf("backup holds %d users; want the 5 before, the 8+ written by then, and not the %d there are at the end", len(users), len(live))
			}

			dst := openAndClose(t, tc.to(t), nil)
			if err := dst.Restore(ctx, file); err != nil {
				t.Fatal(err)
			}
			pg := dst
			if src.Dialect() == "postgres" {
				pg = src
			}
			bools := booleans(t, pg)
			want, got := dumpTables(t, snap, bools), dumpTables(t, dst, bools)
			if len(want) < 15 {
				t.Fatalf("compared %d tables", len(want))
			}
			for table, rows := range want {
				if diff := cmp.Diff(rows, got[table]); diff != "" {
					t.Errorf("table %s (-backup +restored):\n%s", table, diff)
				}
			}

			// The audit chain came across byte for byte, and goes on.
			if _, err := dst.AppendAudit(ctx, audit.Entry{OrgID: "org-a", Action: "thing.set"}); err != nil {
				t.Fatal(err)
			}
			if rep := verifyChain(t, dst, "org-a"); rep.Broken != nil || rep.Rows != 6 {
				t.Errorf("restored audit chain: %d rows, broken %+v", rep.Rows, rep.Broken)
			}

			// The restored store works: search, sign-in, new rows.
			res, err := dst.Search(ctx, search.Query{Text: strings.Fields(circ.Title)[0]})
			if err != nil || len(res.Circulars) == 0 {
				t.Errorf("search after restore: %d results, %v", len(res.Circulars), err)
			}
			if u, err := dst.UserByUsername(ctx, "before3"); err != nil || u.Email != "before3@example.com" {
				t.Errorf("UserByUsername after restore = %+v, %v", u, err)
			}
			more := storetest.Catalog()
			more.Circulars = append(more.Circulars, storetest.Circular("added-after-restore", "RBI", "UPI", "2025-07-01", "low"))
			if _, err := dst.SyncCatalog(ctx, more); err != nil {
				t.Errorf("sync after restore: %v", err)
			}
			if _, err := dst.CreateUser(ctx, newUser("after", "after@example.com")); err != nil {
				t.Errorf("new user after restore: %v", err)
			}

			t.Run("ErrNotEmpty", func(t *testing.T) {
				if err := dst.Restore(ctx, file); !errors.Is(err, ErrNotEmpty) {
					t.Errorf("restore into a store with data: %v, want ErrNotEmpty", err)
				}
			})
			t.Run("ErrFileExists", func(t *testing.T) {
				if err := src.Backup(ctx, file); err == nil || !strings.Contains(err.Error(), "exists") {
					t.Errorf("backup over a file: %v", err)
				}
			})
		})
	}
	t.Run("ErrNotABackup", func(t *testing.T) {
		t.Parallel()
		bad := filepath.Join(t.TempDir(), "notes.txt")
		os.WriteFile(bad, []byte("not a database at all"), 0o644)
		if err := openTest(t).Restore(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "not a RegPulse backup") {
			t.Errorf("restore of a text file: %v", err)
		}
	})
	t.Run("ErrNewerSchema", func(t *testing.T) {
		t.Parallel()
		file := filepath.Join(t.TempDir(), "backup.db")
		if err := openTest(t).Backup(t.Context(), file); err != nil {
			t.Fatal(err)
		}
		future := openAndClose(t, file, nil)
		if _, err := future.db.ExecContext(t.Context(), "INSERT INTO goose_db_version (version_id, is_applied) VALUES (99999, 1)"); err != nil {
			t.Fatal(err)
		}
		future.Close()
		if err := openTest(t).Restore(t.Context(), file); err == nil || !strings.Contains(err.Error(), "newer") {
			t.Errorf("restore of a newer schema: %v", err)
		}
	})
}

// copyOf copies a backup file, so that opening it (which migrates) never
// changes the file under test.
func copyOf(t *testing.T, path string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := copyFile(path, to); err != nil {
		t.Fatal(err)
	}
	return to
}

// dumpTables reads every table of db (but the migration tool's) as
// sorted rows of portable values, keyed by column, for comparison
// across the two kinds of store.
func dumpTables(t *testing.T, db *DB, bools map[string]bool) map[string][]string {
	t.Helper()
	ctx := t.Context()
	tables, err := db.db.d.tables(ctx, db.db)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, table := range tables {
		cols, err := db.db.d.columns(ctx, db.db, table)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for n := range cols {
			if n != "rid" { // the circular's key: compared as rowid/rid below
				names = append(names, n)
			}
		}
		slices.Sort(names)
		selects := slices.Clone(names)
		if table == "circulars" {
			names, selects = append(names, "key"), append(selects, db.db.d.circularKey())
		}
		rows, err := db.db.QueryContext(ctx, "SELECT "+strings.Join(selects, ", ")+" FROM "+table)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		for rows.Next() {
			vals := make([]any, len(names))
			ptrs := make([]any, len(names))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for i, v := range vals {
				if bools[table+"."+names[i]] {
					v = portable(v, true)
				}
				if bs, ok := v.([]byte); ok {
					v = fmt.Sprintf("%x", bs)
				}
				fmt.Fprintf(&b, "%s=%v; ", names[i], v)
			}
			lines = append(lines, b.String())
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		slices.Sort(lines)
		out[table] = lines
	}
	return out
}

// booleans are the boolean columns ("table.column") of a PostgreSQL
// store: SQLite keeps them as integers, so dumps of either read true or
// false.
func booleans(t *testing.T, pg *DB) map[string]bool {
	t.Helper()
	tables, err := pg.db.d.tables(t.Context(), pg.db)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, table := range tables {
		cols, err := pg.db.d.columns(t.Context(), pg.db, table)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			if c.boolean {
				out[table+"."+c.name] = true
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no boolean columns found in PostgreSQL's schema")
	}
	return out
}
