package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"regpulse/internal/audit"
)

// createAuditedTable makes a table the tests' changes write to, beside
// their audit rows (the store's own audited writers are the organisations
// and decisions of issue 44).
func createAuditedTable(t testing.TB, db *DB) {
	t.Helper()
	if _, err := db.db.ExecContext(t.Context(), `CREATE TABLE audited_things (org TEXT NOT NULL, id TEXT NOT NULL, v TEXT NOT NULL, PRIMARY KEY (org, id))`); err != nil {
		t.Fatal(err)
	}
}

// setThing sets thing id to v with its audit row in org's chain, as a
// writer of the store does: the before value read and the after value
// written in the transaction that appends the row.
func setThing(ctx context.Context, db *DB, org, id, v string) (audit.Row, error) {
	return db.audited(ctx, func(tx *txConn) (audit.Entry, error) {
		var before any
		var old string
		switch err := tx.QueryRowContext(ctx, `SELECT v FROM audited_things WHERE org = ? AND id = ?`, org, id).Scan(&old); {
		case err == nil:
			before = map[string]string{"v": old}
		case !errors.Is(err, sql.ErrNoRows):
			return audit.Entry{}, err
		}
		if _, err := tx.ExecContext(ctx, upsertKeySQL("audited_things", []string{"org", "id", "v"}, 2), org, id, v); err != nil {
			return audit.Entry{}, err
		}
		return audit.Entry{OrgID: org, ActorID: "u-asha", Action: "thing.set", SubjectType: "thing", SubjectID: id,
			Before: before, After: map[string]string{"v": v}, RequestID: "req-" + id, ClientAddr: "192.0.2.1"}, nil
	})
}

func verifyChain(t testing.TB, db *DB, org string) audit.Report {
	t.Helper()
	rep, err := audit.Verify(db.AuditRows(t.Context(), org))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func thingCount(t testing.TB, db *DB) int {
	t.Helper()
	var n int
	if err := db.db.QueryRowContext(t.Context(), `SELECT COUNT(*) FROM audited_things`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAudit_AppendAndRead(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		createAuditedTable(t, db)
		if h, err := db.AuditHead(ctx, "org-a"); err != nil || h != audit.Start {
			t.Fatalf("empty head = %+v, %v", h, err)
		}
		for i, step := range []struct{ org, id, v string }{
			{"org-a", "t1", "one"}, {"org-b", "t1", "uno"}, {"org-a", "t1", "two"}, {"org-a", "t2", "x"}, {"org-b", "t2", "dos"},
		} {
			r, err := setThing(ctx, db, step.org, step.id, step.v)
			if err != nil {
				t.Fatalf("step %d: %v", i, err)
			}
			if r.Hash != r.ComputeHash() || r.At != db.now().UTC().Truncate(time.Microsecond) {
				t.Errorf("step %d: row %+v", i, r)
			}
		}
		orgs, err := db.AuditOrganisations(ctx)
		if err != nil || !slices.Equal(orgs, []string{"org-a", "org-b"}) {
			t.Fatalf("organisations = %v, %v", orgs, err)
		}
		for org, n := range map[string]int64{"org-a": 3, "org-b": 2} {
			rep := verifyChain(t, db, org)
			if rep.Broken != nil || rep.Rows != n || rep.Head.Seq != n {
				t.Errorf("%s: %+v", org, rep)
			}
			if h, err := db.AuditHead(ctx, org); err != nil || h != rep.Head {
				t.Errorf("%s: head %+v, %v; verify's %+v", org, h, err, rep.Head)
			}
		}
		// org-b's t1 and org-a's t1 share an id: the subject's rows are
		// the organisation's own.
		rows, err := db.AuditSubject(ctx, "org-a", "thing", "t1")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%d %s %s->%s %s %s", r.Seq, r.ActorID, r.Before, r.After, r.RequestID, r.ClientAddr))
		}
		want := []string{`1 u-asha null->{"v":"one"} req-t1 192.0.2.1`, `2 u-asha {"v":"one"}->{"v":"two"} req-t1 192.0.2.1`}
		if !slices.Equal(got, want) {
			t.Errorf("subject rows:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if rows, err := db.AuditSubject(ctx, "org-c", "thing", "t1"); err != nil || len(rows) != 0 {
			t.Errorf("another organisation's subject: %v, %v", rows, err)
		}
	})
}

// TestAudit_SeveralInOneTransaction: a writer's transaction appending
// rows to two chains, interleaved, commits them in order, each chain
// whole.
func TestAudit_SeveralInOneTransaction(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		if _, err := db.AppendAudit(ctx, audit.Entry{OrgID: "org-x", Action: "thing.set"}); err != nil {
			t.Fatal(err)
		}
		tx, err := db.db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		for i, org := range []string{"org-x", "org-y", "org-x", "org-x", "org-y"} {
			if _, err := db.appendAudit(ctx, tx, audit.Entry{OrgID: org, Action: "thing.reassign", SubjectID: strconv.Itoa(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		for org, want := range map[string]string{"org-x": "-,0,2,3", "org-y": "1,4"} {
			var got []string
			for r, err := range db.AuditRows(ctx, org) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, cmp.Or(r.SubjectID, "-"))
			}
			if strings.Join(got, ",") != want {
				t.Errorf("%s: subjects %v, want %s", org, got, want)
			}
			if rep := verifyChain(t, db, org); rep.Broken != nil {
				t.Errorf("%s: %+v", org, rep.Broken)
			}
		}
	})
}

// TestAudit_AllOrNothing: a change whose audit row cannot be written is
// not stored, and an audit row whose change fails is not either.
func TestAudit_AllOrNothing(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		createAuditedTable(t, db)
		boom := errors.New("boom")
		for _, tc := range []struct {
			name   string
			change func(tx *txConn) (audit.Entry, error)
		}{
			{"ChangeFails", func(tx *txConn) (audit.Entry, error) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO audited_things (org, id, v) VALUES ('o', 'a', 'a')`); err != nil {
					return audit.Entry{}, err
				}
				return audit.Entry{OrgID: "o", Action: "thing.set"}, boom
			}},
			{"RowRefused", func(tx *txConn) (audit.Entry, error) {
				if _, err := tx.ExecContext(ctx, `INSERT INTO audited_things (org, id, v) VALUES ('o', 'b', 'b')`); err != nil {
					return audit.Entry{}, err
				}
				return audit.Entry{OrgID: "o", Action: "thing.set", SubjectID: "nul\x00"}, nil
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				if _, err := db.audited(ctx, tc.change); err == nil {
					t.Fatal("succeeded")
				}
				if n := thingCount(t, db); n != 0 {
					t.Errorf("%d changes stored", n)
				}
				if h, err := db.AuditHead(ctx, "o"); err != nil || h != audit.Start {
					t.Errorf("head %+v, %v", h, err)
				}
			})
		}
	})
}

// TestAudit_AppendOnly: the database itself refuses to change or remove
// a row, whatever SQL asks; a row changed with the triggers out of the
// way is named by Verify.
func TestAudit_AppendOnly(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t)
		for i := range 5 {
			if _, err := db.AppendAudit(ctx, audit.Entry{OrgID: "o", Action: "export.create", After: map[string]int{"n": i}}); err != nil {
				t.Fatal(err)
			}
		}
		stmts := []string{
			`UPDATE audit_log SET after_json = '{"n":9}' WHERE seq = 3`,
			`UPDATE audit_log SET seq = seq + 10`,
			`DELETE FROM audit_log WHERE seq = 5`,
			`DELETE FROM audit_log`,
		}
		if db.Dialect() == "postgres" {
			stmts = append(stmts, `TRUNCATE audit_log`)
		}
		for _, q := range stmts {
			_, err := db.db.ExecContext(ctx, q)
			if err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("%s: %v", q, err)
			}
		}
		if rep := verifyChain(t, db, "o"); rep.Broken != nil || rep.Rows != 5 {
			t.Fatalf("after the refusals: %+v", rep)
		}
		// Someone with the rights to drop the guard rewrites row 3.
		disable := []string{`DROP TRIGGER audit_log_no_update`}
		if db.Dialect() == "postgres" {
			disable = []string{`ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change`}
		}
		for _, q := range append(disable, `UPDATE audit_log SET after_json = '{"n":9}' WHERE seq = 3`) {
			if _, err := db.db.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		rep := verifyChain(t, db, "o")
		if rep.Broken == nil || rep.Broken.Row.Seq != 3 || !strings.Contains(rep.Broken.Reason, "hash does not match") {
			t.Errorf("rewritten row 3: %+v", rep)
		}
	})
}

// TestAudit_Concurrent appends from many goroutines at once to two
// organisations' chains: each stays one line, 1 to n, that verifies.
func TestAudit_Concurrent(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		var db *DB
		if isSQLiteTest(t) {
			// a file, so that writers have connections of their own
			db = openAndClose(t, t.TempDir()+"/regpulse.db", nil)
		} else {
			db = open(t)
		}
		createAuditedTable(t, db)
		const workers, each = 12, 20
		var wg sync.WaitGroup
		errs := make(chan error, workers*each)
		for w := range workers {
			org := []string{"org-a", "org-b"}[w%2]
			wg.Go(func() {
				for i := range each {
					if _, err := setThing(ctx, db, org, fmt.Sprintf("%s-%d-%d", org, w, i), strconv.Itoa(i)); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for _, org := range []string{"org-a", "org-b"} {
			rep := verifyChain(t, db, org)
			if rep.Broken != nil || rep.Rows != workers/2*each {
				t.Errorf("%s: %d rows, broken %+v", org, rep.Rows, rep.Broken)
			}
		}
		if n := thingCount(t, db); n != workers*each {
			t.Errorf("%d changes, want %d", n, workers*each)
		}
	})
}

// The crash test's child: with AUDIT_CRASH_TARGET set, it appends
// changes and their audit rows to two organisations from four
// goroutines until it is killed.
func TestAuditCrashChild(t *testing.T) {
	target := os.Getenv("AUDIT_CRASH_TARGET")
	if target == "" {
		t.Skip("the child of TestAudit_KilledMidWrite")
	}
	db, err := Open(context.Background(), target)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		org := []string{"org-a", "org-b"}[w%2]
		wg.Go(func() {
			for {
				_, err := setThing(context.Background(), db, org, uuid.NewString(), "v")
				if err != nil && strings.Contains(err.Error(), "SQLITE_BUSY") {
					// Four writers in a tight loop on a loaded machine: one
					// may wait past SQLite's busy timeout. What is under
					// test is the chain after SIGKILL, so it tries again.
					continue
				}
				if err != nil {
					fmt.Fprintln(os.Stderr, "append:", err)
					os.Exit(3)
				}
			}
		})
	}
	wg.Wait()
}

// TestAudit_KilledMidWrite kills (SIGKILL) a process appending changes
// with their audit rows from four goroutines, reopens the store and
// finds both chains whole, and every change with its row and every row
// with its change.
func TestAudit_KilledMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process")
	}
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		var target string
		if isSQLiteTest(t) {
			target = t.TempDir() + "/regpulse.db"
		} else {
			target = newPostgresTest(t)
		}
		db, err := Open(t.Context(), target)
		if err != nil {
			t.Fatal(err)
		}
		createAuditedTable(t, db)

		cmd := exec.Command(os.Args[0], "-test.run", "^TestAuditCrashChild$", "-test.count", "1")
		cmd.Env = append(os.Environ(), "AUDIT_CRASH_TARGET="+target)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		// Kill it once both chains have grown past 100 rows: mid-writes.
		deadline := time.Now().Add(60 * time.Second)
		for {
			a, errA := db.AuditHead(t.Context(), "org-a")
			b, errB := db.AuditHead(t.Context(), "org-b")
			if errA == nil && errB == nil && a.Seq > 100 && b.Seq > 100 {
				break
			}
			select {
			case err := <-done:
				t.Fatalf("the child ended by itself: %v: %s", err, stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatalf("the child wrote too little in 60 s: %+v %+v %v %v", a, b, errA, errB)
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err == nil || !strings.Contains(err.Error(), "killed") {
			t.Fatalf("child: %v: %s", err, stderr.String())
		}
		db.Close()

		db, err = Open(t.Context(), target)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var total int64
		for _, org := range []string{"org-a", "org-b"} {
			rep := verifyChain(t, db, org)
			if rep.Broken != nil {
				t.Errorf("%s broken after the kill: row %d: %s", org, rep.Broken.Row.Seq, rep.Broken.Reason)
			}
			total += rep.Rows
		}
		var orphans int
		if err := db.db.QueryRowContext(t.Context(), `SELECT
			(SELECT COUNT(*) FROM audited_things WHERE id NOT IN (SELECT subject_id FROM audit_log)) +
			(SELECT COUNT(*) FROM audit_log WHERE subject_id NOT IN (SELECT id FROM audited_things))`).Scan(&orphans); err != nil {
			t.Fatal(err)
		}
		if n := thingCount(t, db); orphans != 0 || int64(n) != total {
			t.Errorf("%d changes, %d audit rows, %d without their other half", n, total, orphans)
		}
		t.Logf("%d audit rows before SIGKILL; both chains verify after reopening", total)
	})
}

// isSQLiteTest tells forEachStore's sqlite subtest (and its own).
func isSQLiteTest(t *testing.T) bool { return strings.Contains(t.Name(), "/sqlite") }
