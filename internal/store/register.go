package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/register"
)

// A register: the binding obligations shown that apply to one of its
// owner's entity types, with the status its owner set, as a user's
// (obligation_statuses.go) or, for an organisation, as its decisions on
// obligations have them (register.StatusOfDecision); its lists, one
// item, and its tally by impact level and status, which the compliance
// score is computed from. The day the register began tracking (the
// user's or the organisation's creation) is read in the same query, from
// the owner's row.

// registerSource is whose register a query reads: from joins each
// obligation (o) to its owner's row (t, whose created_at is when the
// register began tracking) and to its status row (s); status, note and
// updated are the SQL of the item's status, note and the time of its
// last change.
type registerSource struct {
	from                  string
	args                  []any
	status, note, updated string
}

// userRegister is the user's register: the statuses they set.
func userRegister(userID string) registerSource {
	return registerSource{
		from: "obligations_shown o JOIN users t ON t.id = ? LEFT JOIN obligation_statuses s ON s.obligation_id = o.id AND s.user_id = t.id",
		args: []any{userID}, status: "COALESCE(s.status, '" + register.StatusTodo + "')", note: "COALESCE(s.note, '')", updated: "s.updated_at",
	}
}

// organisationRegister is organisation orgID's register: its decisions
// on obligations, their statuses mapped by register.StatusOfDecision.
func organisationRegister(orgID string) registerSource {
	status := "CASE s.status"
	for _, d := range decisions.Statuses {
		status += " WHEN '" + d + "' THEN '" + register.StatusOfDecision(d) + "'"
	}
	status += " ELSE '" + register.StatusTodo + "' END"
	return registerSource{
		from: "obligations_shown o JOIN organisations t ON t.id = ? LEFT JOIN decisions s ON s.organisation_id = t.id AND s.subject_type = '" +
			decisions.SubjectObligation + "' AND s.subject_id = o.id AND s.provision = ''",
		args: []any{orgID}, status: status, note: "COALESCE(s.note, '')", updated: "s.decided_at",
	}
}

// trackedSince is the SQL of the day the register began tracking: the
// UTC date its owner's row was made (created_at is RFC 3339 in UTC).
const trackedSince = "substr(t.created_at, 1, 10)"

// registerWhere selects the binding obligations of src applying to types
// whose circular is still in force on now's date: one replaced or
// withdrawn leaves its obligations neither due nor overdue, and out of
// the score.
func registerWhere(src registerSource, types []string, now time.Time) where {
	w := where{args: append([]any{}, src.args...)}
	w.add("o.binding = TRUE")
	w.add("(o.circular_withdrawn_on IS NULL OR o.circular_withdrawn_on > ?)", dateText(register.Today(now)))
	conds := []string{"o.applies_to LIKE ?"}
	args := []any{`%"` + catalog.AllEntities + `"%`}
	for _, t := range types {
		conds = append(conds, "o.applies_to LIKE ?")
		args = append(args, `%"`+t+`"%`)
	}
	w.add("("+strings.Join(conds, " OR ")+")", args...)
	return w
}

// selectList is what scanItem reads of src's rows.
func (src registerSource) selectList() string {
	return obligationColumns.selectList("o", nil) + ", " + src.status + ", " + src.note + ", " + src.updated + ", t.created_at"
}

// Register returns the page of a user's register q selects, by due date
// (undated last), and how many it selects in all. A user with no entity
// type has only the obligations of all regulated entities.
func (s *DB) Register(ctx context.Context, userID string, q register.Query) (_ []register.Item, _ int, err error) {
	defer wrap(&err, "Register")
	return s.registerPage(ctx, userRegister(userID), q)
}

// OrganisationRegister is Register of organisation orgID's register: its
// decisions' statuses, tracked since it was made; q.EntityTypes are the
// organisation's.
func (s *DB) OrganisationRegister(ctx context.Context, orgID string, q register.Query) (_ []register.Item, _ int, err error) {
	defer wrap(&err, "OrganisationRegister")
	return s.registerPage(ctx, organisationRegister(orgID), q)
}

func (s *DB) registerPage(ctx context.Context, src registerSource, q register.Query) ([]register.Item, int, error) {
	if q.Limit < 1 || q.Offset < 0 {
		return nil, 0, fmt.Errorf("page %+v, want limit at least 1 and offset at least 0", q.Page)
	}
	w := registerWhere(src, q.EntityTypes, q.Now)
	if q.Status != "" {
		w.add(src.status+" = ?", q.Status)
	}
	w.group(q.Group, q.Now)
	if term := searchTerm(q.Search); term != "" {
		p := likeContains(term)
		w.add(`(text_lower(o.what) LIKE ? ESCAPE '\' OR text_lower(o.source_text) LIKE ? ESCAPE '\' OR text_lower(o.circular_title) LIKE ? ESCAPE '\')`, p, p, p)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+src.selectList()+", COUNT(*) OVER () FROM "+src.from+w.sql()+
		" ORDER BY "+obligationsOrder+" LIMIT ? OFFSET ?", append(w.args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	items := []register.Item{}
	total := 0
	for rows.Next() {
		it, err := scanItem(rows, q.Now, &total)
		if err != nil {
			return nil, 0, err
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(items) == 0 && q.Offset > 0 {
		err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+src.from+w.sql(), w.args...).Scan(&total)
		if err != nil {
			return nil, 0, err
		}
	}
	return items, total, nil
}

// group selects the obligations of due-date group g (register.Group's
// rule in SQL) of a register, as of now; the day it began tracking is
// its owner's row's (trackedSince).
func (w *where) group(g string, now time.Time) {
	today, monthEnd := dateText(register.Today(now)), dateText(register.MonthEnd(now))
	switch g {
	case register.GroupInForce:
		w.add("o.due_date < " + trackedSince)
	case register.GroupOverdue:
		w.add("o.due_date >= "+trackedSince+" AND o.due_date < ?", today)
	case register.GroupThisMonth:
		w.add("o.due_date >= "+trackedSince+" AND o.due_date >= ? AND o.due_date < ?", today, monthEnd)
	case register.GroupLater:
		w.add("o.due_date >= "+trackedSince+" AND o.due_date >= ?", monthEnd)
	case register.GroupNoDate:
		w.add("o.due_date IS NULL")
	}
}

// scanItem reads a row of a registerSource's selectList (and, when
// count is set, the count after it).
func scanItem(rows interface{ Scan(...any) error }, now time.Time, count *int) (register.Item, error) {
	var it register.Item
	var updated sql.NullString
	var created string
	dest := append(obligationColumns.targets(&it.Obligation), &it.Status, &it.Note, &updated, &created)
	if count != nil {
		dest = append(dest, count)
	}
	if err := rows.Scan(dest...); err != nil {
		return it, err
	}
	if updated.Valid {
		t, err := time.Parse(time.RFC3339, updated.String)
		if err != nil {
			return it, fmt.Errorf("status time %q: %w", updated.String, err)
		}
		it.StatusUpdatedAt = &t
	}
	since, err := time.Parse(time.RFC3339Nano, created)
	if err != nil {
		return it, fmt.Errorf("stored created_at %q: %w", created, err)
	}
	if it.AppliesTo == nil {
		it.AppliesTo = catalog.TextList{}
	}
	it.DueGroup = register.Group(it.DueDate, since, now)
	return it, nil
}

// registerItem is obligation id of src's register, or
// catalog.ErrNotFound when it is not there (unknown, not binding, not
// for the owner's entity types): a user reaches only their own register.
func registerItem(ctx context.Context, db querier, src registerSource, id string, types []string, now time.Time) (register.Item, error) {
	w := registerWhere(src, types, now)
	w.add("o.id = ?", id)
	it, err := scanItem(db.QueryRowContext(ctx, "SELECT "+src.selectList()+" FROM "+src.from+w.sql(), w.args...), now, nil)
	if errors.Is(err, sql.ErrNoRows) {
		return it, catalog.ErrNotFound
	}
	return it, err
}

// RegisterItem returns obligation id as it stands in the user's register
// (catalog.ErrNotFound when the register does not hold it).
func (s *DB) RegisterItem(ctx context.Context, userID, id string, types []string) (_ register.Item, err error) {
	defer wrap(&err, "RegisterItem")
	return registerItem(ctx, s.db, userRegister(userID), id, types, s.now())
}

// RegisterTally counts the user's register by impact level and status:
// what the compliance score is computed from (register.ScoreOf).
func (s *DB) RegisterTally(ctx context.Context, userID string, types []string) (_ register.Tally, err error) {
	defer wrap(&err, "RegisterTally")
	return s.registerTally(ctx, userRegister(userID), types)
}

// OrganisationRegisterTally is RegisterTally of organisation orgID's
// register, for its types.
func (s *DB) OrganisationRegisterTally(ctx context.Context, orgID string, types []string) (_ register.Tally, err error) {
	defer wrap(&err, "OrganisationRegisterTally")
	return s.registerTally(ctx, organisationRegister(orgID), types)
}

func (s *DB) registerTally(ctx context.Context, src registerSource, types []string) (register.Tally, error) {
	w := registerWhere(src, types, s.now())
	rows, err := s.db.QueryContext(ctx, "SELECT o.impact_level, "+src.status+", COUNT(*) FROM "+
		src.from+w.sql()+" GROUP BY o.impact_level, "+src.status, w.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	t := register.Tally{}
	for rows.Next() {
		var level, status string
		var n int
		if err := rows.Scan(&level, &status, &n); err != nil {
			return nil, err
		}
		if t[level] == nil {
			t[level] = map[string]int{}
		}
		t[level][status] += n
	}
	return t, rows.Err()
}
