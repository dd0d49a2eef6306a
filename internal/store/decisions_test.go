package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/audit"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
)

func dueOn(s string) *catalog.Date {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return &catalog.Date{Time: t}
}

// TestDecisions: one decision per organisation and subject, a stale
// write refused, the owner a member who may decide, the board's filters
// and order, my work across organisations by due date, and comments
// with their mentions.
func TestDecisions(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		now := storetest.Now
		db := open(t, WithNow(func() time.Time { return now }))
		asha, ravi, vik := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi"), newAlertUser(t, db, "vik")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		join(t, db, by, vik.Email, vik.ID, teams.RoleViewer, nil)

		circ := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
		d, err := db.PutDecision(ctx, by, decisions.Decision{Subject: circ, Applicability: decisions.Applicable, OwnerID: catalog.OptString(ravi.ID),
			Due: "effective+30d", DueDate: dueOn("2026-05-01"), TextVersion: ""})
		if err != nil || d.Version != 1 || d.Status != decisions.StatusNew || d.DecidedBy != catalog.OptString(asha.ID) || !d.DecidedAt.Equal(now) {
			t.Fatalf("put: %+v, %v", d, err)
		}
		got, err := db.Decision(ctx, org.ID, circ)
		if err != nil || got.OwnerID != catalog.OptString(ravi.ID) || got.DueDate.String() != "2026-05-01" || got.Due != "effective+30d" || got.Version != 1 {
			t.Errorf("get: %+v, %v", got, err)
		}
		// A second "new" decision on the subject, or a write of a version
		// read before another's, is stale.
		if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: circ, Applicability: decisions.Deferred, DeferredUntil: dueOn("2026-09-01")}); !errors.Is(err, decisions.ErrStale) {
			t.Errorf("a second decision on the subject: %v, want ErrStale", err)
		}
		got.Status = decisions.StatusAssessing
		if d, err := db.PutDecision(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: org.ID}, got); err != nil || d.Version != 2 || d.DecidedBy != catalog.OptString(ravi.ID) {
			t.Errorf("update: %+v, %v", d, err)
		}
		got.Status = decisions.StatusDone // read at version 1
		if _, err := db.PutDecision(ctx, by, got); !errors.Is(err, decisions.ErrStale) {
			t.Errorf("stale write: %v, want ErrStale", err)
		}
		if d, _ := db.Decision(ctx, org.ID, circ); d.Status != decisions.StatusAssessing {
			t.Errorf("the stale write changed it: %+v", d)
		}
		// Another organisation decides on the same subject by itself.
		if _, err := db.PutDecision(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}, decisions.Decision{Subject: circ,
			Applicability: decisions.NotApplicable, Reason: decisions.ReasonDuplicate, OwnerID: catalog.OptString(ravi.ID), DueDate: dueOn("2026-01-10")}); err != nil {
			t.Errorf("the other organisation's: %v", err)
		}
		if _, err := db.Decision(ctx, org.ID, decisions.Subject{Type: decisions.SubjectCircular, ID: "c-2"}); !errors.Is(err, decisions.ErrNoDecision) {
			t.Errorf("no decision: %v", err)
		}
		// A viewer or a stranger owns nothing.
		for _, owner := range []string{vik.ID, "no-such-user"} {
			if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectObligation, ID: "o-9"},
				Applicability: decisions.Applicable, OwnerID: catalog.OptString(owner)}); !errors.Is(err, decisions.ErrNotOwner) {
				t.Errorf("owner %s: %v, want ErrNotOwner", owner, err)
			}
		}
		// The board: by due date, undated last; filtered.
		put := func(s decisions.Subject, owner, due, status string) {
			t.Helper()
			d := decisions.Decision{Subject: s, Applicability: decisions.Applicable, OwnerID: catalog.OptString(owner), Status: status}
			if due != "" {
				d.Due, d.DueDate = catalog.OptString(due), dueOn(due)
			}
			if _, err := db.PutDecision(ctx, by, d); err != nil {
				t.Fatal(err)
			}
		}
		prov := decisions.Subject{Type: decisions.SubjectProvision, ID: "kyc-2016", Provision: "15(a)(i)"}
		put(prov, ravi.ID, "2026-03-01", decisions.StatusActionPlanned)
		put(decisions.Subject{Type: decisions.SubjectObligation, ID: "o-1"}, asha.ID, "", decisions.StatusNew)
		put(decisions.Subject{Type: decisions.SubjectObligation, ID: "o-2"}, ravi.ID, "2026-02-01", decisions.StatusDone)
		board, total, err := db.Board(ctx, org.ID, decisions.BoardQuery{})
		if err != nil || total != 4 || len(board) != 4 || board[0].ID != "o-2" || board[1].Provision != "15(a)(i)" || board[2].ID != "c-1" || board[3].ID != "o-1" {
			t.Errorf("board: %d %+v, %v", total, board, err)
		}
		for _, c := range []struct {
			q    decisions.BoardQuery
			want int
		}{
			{decisions.BoardQuery{OwnerID: ravi.ID}, 3},
			{decisions.BoardQuery{Status: decisions.StatusDone}, 1},
			{decisions.BoardQuery{DueBefore: dueOn("2026-04-01")}, 2},
			{decisions.BoardQuery{OwnerID: ravi.ID, Status: decisions.StatusAssessing}, 1},
			{decisions.BoardQuery{Limit: 1, Offset: 3}, 4},
		} {
			list, total, err := db.Board(ctx, org.ID, c.q)
			if err != nil || total != c.want || c.q.Limit == 0 && len(list) != c.want || c.q.Limit == 1 && (len(list) != 1 || list[0].ID != "o-1") {
				t.Errorf("board %+v: %d %+v, %v", c.q, total, list, err)
			}
		}
		// Ravi's work: open items across both organisations, by due date.
		work, total, overdue, err := db.MyWork(ctx, ravi.ID, catalog.Page{})
		if err != nil || total != 3 || len(work) != 3 || work[0].OrganisationName != "Ravi Cards" || work[1].Provision != "15(a)(i)" || work[2].ID != "c-1" || work[2].OrganisationName != "Asha Payments" {
			t.Errorf("ravi's work: %d %+v, %v", total, work, err)
		}
		wantOverdue := 0
		for _, w := range work {
			if w.OverdueOn(now) {
				wantOverdue++
			}
		}
		if overdue != wantOverdue {
			t.Errorf("ravi's work: %d overdue, want %d (decisions.OverdueOn)", overdue, wantOverdue)
		}
		// a page of it: the second item alone, the total the whole work's
		if page, total, _, err := db.MyWork(ctx, ravi.ID, catalog.Page{Limit: 1, Offset: 1}); err != nil || total != 3 || len(page) != 1 || page[0].Provision != "15(a)(i)" {
			t.Errorf("ravi's work, second page of one: %d %+v, %v", total, page, err)
		}
		// Comments: mentions of members only.
		c, mentioned, err := db.AddComment(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: org.ID}, prov, "@asha @vik please check; @stranger")
		if err != nil || len(mentioned) != 2 || len(c.Mentions) != 2 || c.Mentions[0] != asha.ID || c.Mentions[1] != vik.ID {
			t.Errorf("comment: %+v %+v, %v", c, mentioned, err)
		}
		if _, _, err := db.AddComment(ctx, by, decisions.Subject{Type: decisions.SubjectCircular, ID: "c-9"}, "x"); !errors.Is(err, decisions.ErrNoDecision) {
			t.Errorf("a comment without a decision: %v", err)
		}
		now = now.Add(time.Minute)
		if _, _, err := db.AddComment(ctx, by, prov, "second"); err != nil {
			t.Fatal(err)
		}
		list, err := db.Comments(ctx, org.ID, prov)
		if err != nil || len(list) != 2 || list[0].AuthorID != catalog.OptString(ravi.ID) || len(list[0].Mentions) != 2 || list[1].Body != "second" || len(list[1].Mentions) != 0 {
			t.Errorf("comments: %+v, %v", list, err)
		}
		if _, err := db.Comments(ctx, other.ID, prov); !errors.Is(err, decisions.ErrNoDecision) {
			t.Errorf("the other organisation's comments: %v", err)
		}
	})
}

// TestDecisions_Reassign: all of a member's 200 open items go to another
// member in one call, the closed ones and the other organisation's stay;
// a read before it is stale after.
func TestDecisions_Reassign(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithNow(func() time.Time { return storetest.Now }))
		asha, ravi, meera := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi"), newAlertUser(t, db, "meera")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: ravi.ID}, "Ravi Cards", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		join(t, db, by, meera.Email, meera.ID, teams.RoleMember, nil)
		for i := range 205 {
			status := decisions.StatusAssessing
			if i >= 200 {
				status = decisions.StatusDone
			}
			if _, err := db.PutDecision(ctx, by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectObligation, ID: fmt.Sprintf("o-%03d", i)},
				Applicability: decisions.Applicable, OwnerID: catalog.OptString(ravi.ID), Status: status}); err != nil {
				t.Fatal(err)
			}
		}
		theirs := decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectObligation, ID: "o-000"}, Applicability: decisions.Applicable, OwnerID: catalog.OptString(ravi.ID)}
		if _, err := db.PutDecision(ctx, teams.Actor{UserID: ravi.ID, OrganisationID: other.ID}, theirs); err != nil {
			t.Fatal(err)
		}
		read, err := db.Decision(ctx, org.ID, theirs.Subject)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Reassign(ctx, by, ravi.ID, "no-such-user"); !errors.Is(err, decisions.ErrNotOwner) {
			t.Errorf("to a stranger: %v", err)
		}
		n, err := db.Reassign(ctx, by, ravi.ID, meera.ID)
		if err != nil || n != 200 {
			t.Fatalf("reassigned %d, %v; want 200", n, err)
		}
		if _, total, _ := db.Board(ctx, org.ID, decisions.BoardQuery{OwnerID: meera.ID}); total != 200 {
			t.Errorf("meera owns %d", total)
		}
		if _, total, _ := db.Board(ctx, org.ID, decisions.BoardQuery{OwnerID: ravi.ID}); total != 5 {
			t.Errorf("ravi keeps %d, want the 5 done", total)
		}
		if d, _ := db.Decision(ctx, other.ID, theirs.Subject); d.OwnerID != catalog.OptString(ravi.ID) {
			t.Errorf("the other organisation's moved: %+v", d)
		}
		read.Status = decisions.StatusDone
		if _, err := db.PutDecision(ctx, by, read); !errors.Is(err, decisions.ErrStale) {
			t.Errorf("a write read before the reassignment: %v, want ErrStale", err)
		}
	})
}

// TestDecisions_Plans: SQLite reads a page of a board of 10,000 items,
// whole or filtered, from an index in the board's order (no sort of the
// rows, no scan of the table), and "my work" from the owner's index.
func TestDecisions_Plans(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := openSQLiteTest(t, WithNow(func() time.Time { return storetest.Now }))
	asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
	org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
	if err != nil {
		t.Fatal(err)
	}
	join(t, db, teams.Actor{UserID: asha.ID, OrganisationID: org.ID}, ravi.Email, ravi.ID, teams.RoleMember, nil)
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10000 {
		owner, due := []string{asha.ID, ravi.ID}[i%2], any(fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28))
		if i%10 == 1 { // ravi's, some undated
			due = nil
		}
		key := undatedKey
		if due != nil {
			key = due.(string)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO decisions (organisation_id, subject_type, subject_id, applicability, owner_id, due_date, due_key,
			status, decided_by, decided_at, version) VALUES (?, 'obligation', ?, 'applicable', ?, ?, ?, ?, ?, ?, 1)`,
			org.ID, fmt.Sprintf("o-%05d", i), owner, due, key, decisions.Statuses[i%len(decisions.Statuses)], asha.ID, timeText(storetest.Now)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.db.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	plan := func(query string, args ...any) string {
		rows, err := db.db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var b strings.Builder
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			b.WriteString(detail + "\n")
		}
		return b.String()
	}
	for _, q := range []decisions.BoardQuery{{}, {Status: decisions.StatusAssessing}, {OwnerID: ravi.ID}, {DueBefore: dueOn("2026-03-01")},
		{Status: decisions.StatusNew, DueBefore: dueOn("2026-03-01")}} {
		// The page's keys come from an index in the board's order, read
		// alone (no row is read to be skipped); its rows by their key.
		where, args := boardWhere(org.ID, q)
		p := plan("SELECT organisation_id, subject_type, subject_id, provision FROM decisions WHERE "+where+byDue+" LIMIT 50", args...)
		if strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "USING COVERING INDEX decisions_board") {
			t.Errorf("board %+v:\n%s", q, p)
		}
		queries, args := boardQueries(org.ID, q)
		if p := plan(queries[1], append(args, 50, 0)...); !strings.Contains(p, "SEARCH d USING INDEX sqlite_autoindex_decisions_1 (organisation_id=? AND subject_type=? AND subject_id=? AND provision=?)") {
			t.Errorf("board %+v, its page:\n%s", q, p)
		}
		list, total, err := db.Board(ctx, org.ID, decisions.BoardQuery{Status: q.Status, OwnerID: q.OwnerID, DueBefore: q.DueBefore, Limit: 50})
		if err != nil || len(list) != 50 || total < 50 {
			t.Errorf("board %+v: %d of %d, %v", q, len(list), total, err)
		}
	}
	orgs, err := db.UserOrganisations(ctx, ravi.ID)
	if err != nil || len(orgs) == 0 {
		t.Fatal(orgs, err)
	}
	query, args := myWorkQueries(ravi.ID, []string{orgs[0].ID})
	if p := plan(query[0], append([]any{"2026-01-01"}, args...)...); !strings.Contains(p, "USING INDEX decisions_owner (owner_id=? AND status=?)") {
		t.Errorf("my work's count:\n%s", p)
	}
	// one organisation's work is read in its order from the board's owner index
	if p := plan(query[1], append(args, 100, 0)...); !strings.Contains(p, "USING INDEX decisions_board_owner (organisation_id=? AND owner_id=?)") || strings.Contains(p, "TEMP B-TREE") {
		t.Errorf("my work's page:\n%s", p)
	}
	work, total, _, err := db.MyWork(ctx, ravi.ID, catalog.Page{})
	if err != nil || total != 3000 || len(work) != catalog.MaxLimit || work[0].DueDate == nil {
		t.Errorf("ravi's work: %d of %d, %v", len(work), total, err)
	}
	last, _, _, err := db.MyWork(ctx, ravi.ID, catalog.Page{Limit: 10, Offset: total - 10})
	if err != nil || len(last) != 10 || last[9].DueDate != nil {
		t.Errorf("ravi's work, last page: %d, %v", len(last), err)
	}
}

// TestDecisions_Race: members deciding at once on the version they read
// (none yet, then version 1): one write wins each time, the others are
// stale, never lost silently.
func TestDecisions_Race(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithNow(func() time.Time { return storetest.Now }))
		asha := newAlertUser(t, db, "asha")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID}
		subject := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
		for read := range 2 {
			const writers = 6
			errs := make(chan error, writers)
			var wg sync.WaitGroup
			for i := range writers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := db.PutDecision(ctx, by, decisions.Decision{Subject: subject, Applicability: decisions.Applicable,
						Note: catalog.OptString(fmt.Sprint("writer ", i)), Version: read})
					errs <- err
				}()
			}
			wg.Wait()
			close(errs)
			won := 0
			for err := range errs {
				switch {
				case err == nil:
					won++
				case !errors.Is(err, decisions.ErrStale):
					t.Errorf("read %d: %v", read, err)
				}
			}
			if d, err := db.Decision(ctx, org.ID, subject); won != 1 || err != nil || d.Version != read+1 {
				t.Errorf("read %d: %d writes won; stored %+v, %v", read, won, d, err)
			}
		}
	})
}

// Every change of a decision (made, changed, a comment, a reassignment)
// writes its row to the organisation's audit trail with the values before
// and after; a stale write writes none; the chain verifies.
func TestDecisions_Audited(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		ctx := t.Context()
		db := open(t, WithNow(storetest.Clock))
		asha, ravi := newAlertUser(t, db, "asha"), newAlertUser(t, db, "ravi")
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
		if err != nil {
			t.Fatal(err)
		}
		by := teams.Actor{UserID: asha.ID, OrganisationID: org.ID, RequestID: "req-1", ClientAddr: "203.0.113.9"}
		join(t, db, by, ravi.Email, ravi.ID, teams.RoleMember, nil)
		circ := decisions.Subject{Type: decisions.SubjectCircular, ID: "c-1"}
		d, err := db.PutDecision(ctx, by, decisions.Decision{Subject: circ, Applicability: decisions.Applicable, OwnerID: catalog.OptString(asha.ID)})
		if err != nil {
			t.Fatal(err)
		}
		d.Status = decisions.StatusAssessing
		if _, err := db.PutDecision(ctx, by, d); err != nil {
			t.Fatal(err)
		}
		if _, err := db.PutDecision(ctx, by, d); !errors.Is(err, decisions.ErrStale) { // read at version 1 again
			t.Fatalf("stale write: %v", err)
		}
		if _, _, err := db.AddComment(ctx, by, circ, "Over to @ravi."); err != nil {
			t.Fatal(err)
		}
		if n, err := db.Reassign(ctx, by, asha.ID, ravi.ID); err != nil || n != 1 {
			t.Fatalf("reassign: %d, %v", n, err)
		}
		var actions []string
		for r, err := range db.AuditRows(ctx, org.ID) {
			if err != nil {
				t.Fatal(err)
			}
			actions = append(actions, r.Action)
			if r.Action == "decision.update" && (!strings.Contains(r.Before, `"status":"new"`) || !strings.Contains(r.After, `"status":"assessing"`)) {
				t.Errorf("the update's before and after: %s -> %s", r.Before, r.After)
			}
			if strings.HasPrefix(r.Action, "decision.") && (r.RequestID != "req-1" || r.ClientAddr != "203.0.113.9" || r.SubjectID != "circular c-1" && r.Action != "decision.reassign") {
				t.Errorf("%s: request %q, client %q, subject %q", r.Action, r.RequestID, r.ClientAddr, r.SubjectID)
			}
		}
		want := []string{"organisation.create", "invite.create", "member.join", "decision.create", "decision.update", "comment.create", "decision.reassign"}
		if strings.Join(actions, " ") != strings.Join(want, " ") {
			t.Errorf("audit rows %v, want %v", actions, want)
		}
		if rep, err := audit.Verify(db.AuditRows(ctx, org.ID)); err != nil || rep.Broken != nil || rep.Rows != int64(len(want)) {
			t.Errorf("verify: %+v, %v", rep, err)
		}
	})
}
