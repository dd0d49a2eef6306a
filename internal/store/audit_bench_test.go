package store

import (
	"context"
	"fmt"
	"iter"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"regpulse/internal/audit"
)

// benchAuditRows is how many audit rows BenchmarkAuditVerify checks:
// issue 44's 1,000,000 unless REGPULSE_BENCH_AUDIT_ROWS says otherwise.
func benchAuditRows(b *testing.B) int {
	n := 1_000_000
	if s := os.Getenv("REGPULSE_BENCH_AUDIT_ROWS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("REGPULSE_BENCH_AUDIT_ROWS=%q: want a positive number", s)
		}
	}
	return n
}

// insertAuditChains writes n rows, spread over orgs organisations'
// chains, straight into audit_log a few hundred per statement: the
// benchmarks' fill, far faster than appending them one by one.
func insertAuditChains(b *testing.B, db *DB, orgs, n int) {
	b.Helper()
	ctx := b.Context()
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	cols := 14
	batch := st.batch(func(rows int) string {
		return insertRowsSQL("audit_log", []string{"id", "org_id", "seq", "actor_id", "action", "subject_type", "subject_id",
			"before_json", "after_json", "at", "request_id", "client_addr", "prev_hash", "hash"}, rows)
	}, cols)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for o := range orgs {
		org := fmt.Sprintf("00000000-0000-4000-8000-%012d", o)
		head := audit.Start
		per := n / orgs
		if o < n%orgs {
			per++
		}
		for i := range per {
			r, err := audit.Next(head, audit.Entry{
				OrgID: org, ActorID: fmt.Sprintf("user-%d", i%20), Action: "decision.update", SubjectType: "decision",
				SubjectID: fmt.Sprintf("decision-%d", i%10000),
				Before:    map[string]any{"status": "assessing", "owner": "user-1", "due": "2026-03-31"},
				After:     map[string]any{"status": "action planned", "owner": "user-2", "due": "2026-03-31"},
				RequestID: "0123456789abcdef01234567", ClientAddr: "203.0.113.7",
			}, start.Add(time.Duration(i)*time.Second))
			if err != nil {
				b.Fatal(err)
			}
			if err := batch.add(ctx, auditValues(r)...); err != nil {
				b.Fatal(err)
			}
			head = audit.Head{Seq: r.Seq, Hash: r.Hash}
		}
	}
	if err := batch.flush(ctx); err != nil {
		b.Fatal(err)
	}
	st.close()
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if db.Dialect() == "postgres" {
		if _, err := db.db.ExecContext(ctx, "VACUUM ANALYZE audit_log"); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStores runs f on a SQLite store in a file and on a PostgreSQL
// one.
func benchStores(b *testing.B, f func(b *testing.B, db *DB)) {
	b.Run("sqlite", func(b *testing.B) { f(b, openAndClose(b, b.TempDir()+"/regpulse.db", nil)) })
	b.Run("postgres", func(b *testing.B) { f(b, openPostgresTest(b)) })
}

// BenchmarkAuditVerify verifies every chain of 1,000,000 rows (100
// organisations of 10,000), as `regpulse audit verify` does (a chain
// per core at a time): issue 44's budget is 10 s.
func BenchmarkAuditVerify(b *testing.B) {
	n := benchAuditRows(b)
	benchStores(b, func(b *testing.B, db *DB) {
		fill := time.Now()
		insertAuditChains(b, db, 100, n)
		b.Logf("%d rows written in %v", n, time.Since(fill).Round(time.Millisecond))
		ctx := context.Background()
		for _, workers := range slices.Compact([]int{1, runtime.GOMAXPROCS(0)}) {
			b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
				for b.Loop() {
					orgs, err := db.AuditOrganisations(ctx)
					if err != nil {
						b.Fatal(err)
					}
					reps, err := audit.VerifyAll(orgs, func(org string) iter.Seq2[audit.Row, error] { return db.AuditRows(ctx, org) }, workers)
					if err != nil {
						b.Fatal(err)
					}
					var rows int64
					for _, rep := range reps {
						if rep.Broken != nil {
							b.Fatalf("%s: %+v", rep.OrgID, rep.Broken)
						}
						rows += rep.Rows
					}
					if rows != int64(n) {
						b.Fatalf("verified %d rows, want %d", rows, n)
					}
				}
				b.ReportMetric(float64(n), "rows/op")
			})
		}
	})
}

// BenchmarkAuditAppend is a write with its audit row (a change read and
// written in the transaction that appends its row) to one of 100
// organisations' chains in a trail of 1,000,000 rows (as
// BenchmarkAuditVerify's): issue 44's budget is 10 ms at the 95th
// percentile.
func BenchmarkAuditAppend(b *testing.B) {
	n := benchAuditRows(b)
	benchStores(b, func(b *testing.B, db *DB) {
		createAuditedTable(b, db)
		insertAuditChains(b, db, 100, n)
		org := "00000000-0000-4000-8000-000000000000"
		ctx := context.Background()
		var took []time.Duration
		i := 0
		for b.Loop() {
			start := time.Now()
			if _, err := setThing(ctx, db, org, "thing-"+strconv.Itoa(i%500), strconv.Itoa(i)); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
			i++
		}
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	})
}
