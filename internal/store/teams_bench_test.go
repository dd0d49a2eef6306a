package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

// Issue 44's numbers for the teams' reads and writes: at 100
// organisations × 20 members × 10,000 items with 1,000,000 audit rows,
// on both stores, "my work" and the board p95 ≤ 20 ms, a decision's
// write with its audit row ≤ 10 ms p95. REGPULSE_BENCH_TEAMS_ITEMS (items
// per organisation) and REGPULSE_BENCH_AUDIT_ROWS shrink the fill for a
// quick look; `make bench-teams` runs them at size.

const (
	benchOrgs    = 100
	benchMembers = 20
	benchPage    = catalog.MaxLimit // the board's default page
)

func benchTeamsItems(b *testing.B) int {
	n := 10_000
	if s := os.Getenv("REGPULSE_BENCH_TEAMS_ITEMS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < benchPage*2 {
			b.Fatalf("REGPULSE_BENCH_TEAMS_ITEMS=%q: want a number of at least %d", s, benchPage*2)
		}
	}
	return n
}

// benchOrg is one generated organisation: its id, its members' user ids
// by role (deciders: its admin first, then its members), and its items'
// subjects.
type benchOrg struct {
	id       string
	deciders []string
	viewers  []string
	subjects []decisions.Subject
}

// benchRole is the role of an organisation's i-th member: one admin,
// fourteen members, three viewers, two auditors.
func benchRole(i int) string {
	switch {
	case i == 0:
		return teams.RoleAdmin
	case i < 15:
		return teams.RoleMember
	case i < 18:
		return teams.RoleViewer
	}
	return teams.RoleAuditor
}

// fillTeams writes benchOrgs organisations of benchMembers members and
// items decisions each, and auditRows audit rows over their chains
// (insertAuditChains: the decisions' writes append to those chains). An
// item's owner is one of the organisation's deciders (one in twenty has
// none), its status one of the five in turn, its due date spread over a
// year (one in ten undated), its subject a circular, an obligation or a
// provision.
func fillTeams(b *testing.B, db *DB, items, auditRows int) []benchOrg {
	b.Helper()
	ctx := b.Context()
	orgs := make([]benchOrg, benchOrgs)
	now := timeText(storetest.Now)
	for o := range orgs {
		org := &orgs[o]
		org.id = fmt.Sprintf("00000000-0000-4000-8000-%012d", o) // insertAuditChains' ids
		if _, err := db.db.ExecContext(ctx, `INSERT INTO organisations (id, name, entity_types, created_at) VALUES (?, ?, '["PSP"]', ?)`,
			org.id, fmt.Sprintf("Organisation %d", o), now); err != nil {
			b.Fatal(err)
		}
		for m := range benchMembers {
			name := fmt.Sprintf("o%dm%d", o, m)
			u, err := db.CreateUser(ctx, auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "x", FirstName: "A", LastName: "B"})
			if err != nil {
				b.Fatal(err)
			}
			role := benchRole(m)
			var expires any
			if role == teams.RoleAuditor {
				expires = timeText(storetest.Now.Add(365 * 24 * time.Hour))
			}
			if _, err := db.db.ExecContext(ctx, `INSERT INTO organisation_members (organisation_id, user_id, role, joined_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
				org.id, u.ID, role, now, expires); err != nil {
				b.Fatal(err)
			}
			if teams.CanDecide(role) {
				org.deciders = append(org.deciders, u.ID)
			} else {
				org.viewers = append(org.viewers, u.ID)
			}
		}
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	cols := []string{"organisation_id", "subject_type", "subject_id", "provision", "applicability", "owner_id", "due", "due_date", "due_key",
		"status", "decided_by", "decided_at", "version"}
	batch := st.batch(func(rows int) string { return insertRowsSQL("decisions", cols, rows) }, len(cols))
	start := storetest.Date("2026-01-01").Time
	for o := range orgs {
		org := &orgs[o]
		for i := range items {
			s := decisions.Subject{Type: decisions.SubjectTypes[i%len(decisions.SubjectTypes)], ID: fmt.Sprintf("00000000-0000-5000-8000-%012d", i)}
			if s.Type == decisions.SubjectProvision {
				s.ID, s.Provision = fmt.Sprintf("direction-%d", i%50), catalog.OptString(fmt.Sprintf("%d(a)", i))
			}
			org.subjects = append(org.subjects, s)
			var owner, due any
			if i%20 != 19 {
				owner = org.deciders[i%len(org.deciders)]
			}
			key := undatedKey
			if i%10 != 9 {
				key = start.AddDate(0, 0, (i*7)%365).Format(time.DateOnly)
				due = key
			}
			if err := batch.add(ctx, org.id, s.Type, s.ID, string(s.Provision), decisions.Applicable, owner, "", due, key,
				decisions.Statuses[(i/7)%len(decisions.Statuses)], org.deciders[0], now, 1); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := batch.flush(ctx); err != nil {
		b.Fatal(err)
	}
	st.close()
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	insertAuditChains(b, db, benchOrgs, auditRows)
	// A store in use, not one just bulk-loaded: statistics taken,
	// PostgreSQL's visibility map set (autovacuum's), SQLite's write-ahead
	// log checkpointed into the database (its checkpoints', which a fill
	// of a million rows in one transaction would otherwise leave to the
	// first reads).
	maintain := []string{"ANALYZE", "PRAGMA wal_checkpoint(TRUNCATE)"}
	if db.Dialect() == "postgres" {
		maintain = []string{"VACUUM ANALYZE"}
	}
	for _, q := range maintain {
		if _, err := db.db.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	return orgs
}

// latencies times each of b's iterations of the call prepare makes
// (given the iteration's random source; the preparing is not timed) and
// reports their p50 and p95.
func latencies(b *testing.B, prepare func(r *rand.Rand) func() error) {
	b.Helper()
	r := rand.New(rand.NewPCG(44, 1))
	var took []time.Duration
	for b.Loop() {
		call := prepare(r)
		start := time.Now()
		err := call()
		took = append(took, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[len(took)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkTeams is issue 44's numbers, on each store after one fill:
// "my work" of a random decider, the board of a random organisation
// (its first page, filtered by status, by owner, and a deep page), and a
// decision's write with its audit row (PutDecision: the owner checked,
// the stored decision read, updated on its version, the row appended to
// a chain of 10,000).
func BenchmarkTeams(b *testing.B) {
	items, auditRows := benchTeamsItems(b), benchAuditRows(b)
	benchStores(b, func(b *testing.B, db *DB) {
		fill := time.Now()
		orgs := fillTeams(b, db, items, auditRows)
		b.Logf("%d organisations × %d members × %d items, %d audit rows, written in %v",
			benchOrgs, benchMembers, items, auditRows, time.Since(fill).Round(time.Millisecond))
		explainTeams(b, db, orgs, items)
		ctx := context.Background()
		pick := func(r *rand.Rand) *benchOrg { return &orgs[r.IntN(len(orgs))] }
		b.Run("MyWork", func(b *testing.B) {
			latencies(b, func(r *rand.Rand) func() error {
				o := pick(r)
				user := o.deciders[r.IntN(len(o.deciders))]
				return func() error {
					w, _, _, err := db.MyWork(ctx, user, catalog.Page{})
					if err == nil && len(w) == 0 {
						err = fmt.Errorf("no work")
					}
					return err
				}
			})
		})
		board := func(name string, q func(r *rand.Rand, o *benchOrg) decisions.BoardQuery) {
			b.Run("Board/"+name, func(b *testing.B) {
				latencies(b, func(r *rand.Rand) func() error {
					o := pick(r)
					query := q(r, o)
					return func() error {
						list, _, err := db.Board(ctx, o.id, query)
						if err == nil && len(list) == 0 {
							err = fmt.Errorf("an empty page")
						}
						return err
					}
				})
			})
		}
		board("first-page", func(*rand.Rand, *benchOrg) decisions.BoardQuery { return decisions.BoardQuery{Limit: benchPage} })
		board("status", func(r *rand.Rand, _ *benchOrg) decisions.BoardQuery {
			return decisions.BoardQuery{Status: decisions.Statuses[r.IntN(len(decisions.Statuses))], Limit: benchPage}
		})
		board("owner", func(r *rand.Rand, o *benchOrg) decisions.BoardQuery {
			return decisions.BoardQuery{OwnerID: o.deciders[r.IntN(len(o.deciders))], Limit: benchPage}
		})
		board("deep-page", func(*rand.Rand, *benchOrg) decisions.BoardQuery {
			return decisions.BoardQuery{Limit: benchPage, Offset: items - benchPage}
		})
		b.Run("DecisionWrite", func(b *testing.B) {
			latencies(b, func(r *rand.Rand) func() error {
				o := pick(r)
				// The version the writer read, as a client sends it: not timed.
				d, err := db.Decision(ctx, o.id, o.subjects[r.IntN(len(o.subjects))])
				if err != nil {
					b.Fatal(err)
				}
				by := teams.Actor{UserID: o.deciders[r.IntN(len(o.deciders))], OrganisationID: o.id, RequestID: "0123456789abcdef01234567", ClientAddr: "203.0.113.7"}
				d.Status = decisions.Statuses[r.IntN(3)] // an open one
				d.OwnerID = catalog.OptString(o.deciders[r.IntN(len(o.deciders))])
				return func() error {
					_, err := db.PutDecision(ctx, by, d)
					return err
				}
			})
		})
	})
}

// explainTeams logs the plans of the benchmark's reads on orgs[0]
// (PostgreSQL: as run, with their times and buffers), when
// REGPULSE_BENCH_TEAMS_EXPLAIN is set.
func explainTeams(b *testing.B, db *DB, orgs []benchOrg, items int) {
	if os.Getenv("REGPULSE_BENCH_TEAMS_EXPLAIN") == "" {
		return
	}
	ctx := b.Context()
	o := orgs[0]
	explain := func(name, query string, args ...any) {
		prefix := "EXPLAIN QUERY PLAN "
		if db.Dialect() == "postgres" {
			prefix = "EXPLAIN (ANALYZE, BUFFERS) "
		}
		rows, err := db.db.QueryContext(ctx, prefix+query, args...)
		if err != nil {
			b.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		out := name + ":\n"
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				b.Fatal(err)
			}
			out += fmt.Sprintf("  %v\n", vals[len(vals)-1])
		}
		b.Log(out)
	}
	for name, q := range map[string]decisions.BoardQuery{"first page": {Limit: benchPage}, "status": {Status: decisions.StatusAssessing, Limit: benchPage},
		"owner": {OwnerID: o.deciders[1], Limit: benchPage}, "deep page": {Limit: benchPage, Offset: items - benchPage}} {
		queries, args := boardQueries(o.id, q)
		explain("board "+name+" count", queries[0], args...)
		explain("board "+name+" page", queries[1], append(args, q.Limit, q.Offset)...)
	}
	queries, args := myWorkQueries(o.deciders[1], []string{o.id})
	explain("my work count", queries[0], append([]any{"2026-01-01"}, args...)...)
	explain("my work page", queries[1], append(args, benchPage, 0)...)
}
