package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/register"
)

// A user's register: the binding obligations shown that apply to one of
// the user's entity types, with the status the user set
// (obligation_statuses.go); its lists, one item, and its tally by impact
// level and status, which the compliance score is computed from.

// registerFrom joins each obligation to the user's status (the first
// argument is the user's id).
const registerFrom = "obligations_shown o LEFT JOIN obligation_statuses s ON s.obligation_id = o.id AND s.user_id = ?"

// registerWhere selects the binding obligations applying to types whose
// circular is still in force on now's date: one replaced or withdrawn
// leaves its obligations neither due nor overdue, and out of the score.
func registerWhere(userID string, types []string, now time.Time) where {
	w := where{args: []any{userID}}
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

var registerSelect = obligationColumns.selectList("o", nil) + ", COALESCE(s.status, '" + register.StatusTodo + "'), COALESCE(s.note, ''), s.updated_at"

// Register returns the page of a user's register q selects, by due date
// (undated last), and how many it selects in all. A user with no entity
// type has only the obligations of all regulated entities.
func (s *DB) Register(ctx context.Context, userID string, q register.Query) (_ []register.Item, _ int, err error) {
	defer wrap(&err, "Register")
	if q.Limit < 1 || q.Offset < 0 {
		return nil, 0, fmt.Errorf("page %+v, want limit at least 1 and offset at least 0", q.Page)
	}
	since, err := trackingSince(ctx, s.db, userID)
	if err != nil {
		return nil, 0, err
	}
	w := registerWhere(userID, q.EntityTypes, q.Now)
	if q.Status != "" {
		w.add("COALESCE(s.status, '"+register.StatusTodo+"') = ?", q.Status)
	}
	w.group(q.Group, since, q.Now)
	if term := searchTerm(q.Search); term != "" {
		p := likeContains(term)
		w.add(`(text_lower(o.what) LIKE ? ESCAPE '\' OR text_lower(o.source_text) LIKE ? ESCAPE '\' OR text_lower(o.circular_title) LIKE ? ESCAPE '\')`, p, p, p)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT "+registerSelect+", COUNT(*) OVER () FROM "+registerFrom+w.sql()+
		" ORDER BY "+obligationsOrder+" LIMIT ? OFFSET ?", append(w.args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	items := []register.Item{}
	total := 0
	for rows.Next() {
		it, err := scanItem(rows, since, q.Now, &total)
		if err != nil {
			return nil, 0, err
		}
		items = append(items, it)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	if len(items) == 0 && q.Offset > 0 {
		err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+registerFrom+w.sql(), w.args...).Scan(&total)
		if err != nil {
			return nil, 0, err
		}
	}
	return items, total, nil
}

// group selects the obligations of due-date group g (register.Group's
// rule in SQL) of a register tracking since since, as of now.
func (w *where) group(g string, since, now time.Time) {
	since0, today, monthEnd := dateText(register.Today(since)), dateText(register.Today(now)), dateText(register.MonthEnd(now))
	switch g {
	case register.GroupInForce:
		w.add("o.due_date < ?", since0)
	case register.GroupOverdue:
		w.add("o.due_date >= ? AND o.due_date < ?", since0, today)
	case register.GroupThisMonth:
		w.add("o.due_date >= ? AND o.due_date >= ? AND o.due_date < ?", since0, today, monthEnd)
	case register.GroupLater:
		w.add("o.due_date >= ? AND o.due_date >= ?", since0, monthEnd)
	case register.GroupNoDate:
		w.add("o.due_date IS NULL")
	}
}

// trackingSince is the day the user's register began tracking: the day
// their account was made. (An organisation's register will track from
// the organisation's.)
func trackingSince(ctx context.Context, db querier, userID string) (time.Time, error) {
	var created string
	if err := db.QueryRowContext(ctx, "SELECT created_at FROM users WHERE id = ?", userID).Scan(&created); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return time.Time{}, catalog.ErrNotFound
		}
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, created)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored created_at %q: %w", created, err)
	}
	return t, nil
}

// scanItem reads a row of registerSelect (and, when count is set, the
// count after it), for a register tracking since since.
func scanItem(rows interface{ Scan(...any) error }, since, now time.Time, count *int) (register.Item, error) {
	var it register.Item
	var updated sql.NullString
	dest := append(obligationColumns.targets(&it.Obligation), &it.Status, &it.Note, &updated)
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
	if it.AppliesTo == nil {
		it.AppliesTo = catalog.TextList{}
	}
	it.DueGroup = register.Group(it.DueDate, since, now)
	return it, nil
}

// registerItem is obligation id of a user's register, or
// catalog.ErrNotFound when it is not there (unknown, not binding, not
// for the user's entity types): a user reaches only their own register.
func registerItem(ctx context.Context, db querier, userID, id string, types []string, now time.Time) (register.Item, error) {
	since, err := trackingSince(ctx, db, userID)
	if err != nil {
		return register.Item{}, err
	}
	w := registerWhere(userID, types, now)
	w.add("o.id = ?", id)
	it, err := scanItem(db.QueryRowContext(ctx, "SELECT "+registerSelect+" FROM "+registerFrom+w.sql(), w.args...), since, now, nil)
	if errors.Is(err, sql.ErrNoRows) {
		return it, catalog.ErrNotFound
	}
	return it, err
}

// RegisterItem returns obligation id as it stands in the user's register
// (catalog.ErrNotFound when the register does not hold it).
func (s *DB) RegisterItem(ctx context.Context, userID, id string, types []string) (_ register.Item, err error) {
	defer wrap(&err, "RegisterItem")
	return registerItem(ctx, s.db, userID, id, types, s.now())
}

// RegisterTally counts the user's register by impact level and status:
// what the compliance score is computed from (register.ScoreOf).
func (s *DB) RegisterTally(ctx context.Context, userID string, types []string) (_ register.Tally, err error) {
	defer wrap(&err, "RegisterTally")
	w := registerWhere(userID, types, s.now())
	rows, err := s.db.QueryContext(ctx, "SELECT o.impact_level, COALESCE(s.status, '"+register.StatusTodo+"'), COUNT(*) FROM "+
		registerFrom+w.sql()+" GROUP BY o.impact_level, COALESCE(s.status, '"+register.StatusTodo+"')", w.args...)
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
