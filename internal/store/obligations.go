package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/register"
)

// Obligations: the editors' (circular_obligations, a mirror of content
// the catalog sync writes), the AI layer's proposals
// (extracted_obligations, kept apart and never touched by sync), and
// obligations_shown, the view of both that every read goes through: a
// circular's extracted obligations show only while it has no written ones.

var obligationColumns = columnsOf[catalog.Obligation]()

// obligationTable keeps the editors' obligations in step with content.
var obligationTable = table[catalog.Obligation]{name: "circular_obligations", cols: obligationColumns}

// writtenObligations are the obligations editors wrote, of every circular.
func writtenObligations(cs []catalog.Circular) []catalog.Obligation {
	var out []catalog.Obligation
	for _, c := range cs {
		out = append(out, c.Obligations...)
	}
	return out
}

// obligationsOrder is due date first (undated last), then circular and
// position: the order of every list of obligations.
const obligationsOrder = "o.due_date IS NULL, o.due_date, o.circular_slug, o.position"

// ExtractedStates returns, by circular id, the state of each circular
// extracted (found obligations or not).
func (s *DB) ExtractedStates(ctx context.Context) (_ map[string]obligations.ExtractedState, err error) {
	defer wrap(&err, "ExtractedStates")
	rows, err := s.db.QueryContext(ctx, `SELECT x.circular_id, x.input_hash,
		EXISTS (SELECT 1 FROM extracted_obligations e WHERE e.circular_id = x.circular_id AND e.accepted = TRUE)
		FROM obligation_extractions x`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]obligations.ExtractedState{}
	for rows.Next() {
		var id string
		var st obligations.ExtractedState
		if err := rows.Scan(&id, &st.InputHash, &st.Accepted); err != nil {
			return nil, err
		}
		prev := out[id]
		out[id] = obligations.ExtractedState{InputHash: st.InputHash, Accepted: prev.Accepted || st.Accepted}
	}
	return out, rows.Err()
}

// PutExtractedObligations replaces the extracted obligations of circular
// circularID with obs, made from an input of hash inputHash. It refuses
// (ErrAccepted) to replace obligations an editor accepted.
func (s *DB) PutExtractedObligations(ctx context.Context, circularID, inputHash string, obs []catalog.Obligation) (err error) {
	defer wrap(&err, "PutExtractedObligations")
	skipped, err := s.putExtracted(ctx, []obligations.ExtractedSet{{CircularID: circularID, InputHash: inputHash, Obligations: obs}})
	if err == nil && len(skipped) > 0 {
		err = ErrAccepted
	}
	return err
}

// PutExtractedSets is PutExtractedObligations for many circulars in one
// transaction (a refresh writes thousands); it leaves alone, and returns,
// the circulars whose obligations an editor accepted.
func (s *DB) PutExtractedSets(ctx context.Context, sets []obligations.ExtractedSet) (accepted []string, err error) {
	defer wrap(&err, "PutExtractedSets")
	return s.putExtracted(ctx, sets)
}

func (s *DB) putExtracted(ctx context.Context, sets []obligations.ExtractedSet) ([]string, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	cols := slices.Concat(obligationColumns.names, []string{"input_hash", "extracted_at"})
	rows := st.batch(func(n int) string { return insertRowsSQL("extracted_obligations", cols, n) }, len(cols))
	at, _ := timeColumn(s.now()).Value()
	var skipped []string
	for _, set := range sets {
		row, err := st.queryRow(ctx, `SELECT COUNT(*) FROM extracted_obligations WHERE circular_id = ? AND accepted = TRUE`, set.CircularID)
		if err != nil {
			return nil, err
		}
		var accepted int
		if err := row.Scan(&accepted); err != nil {
			return nil, err
		}
		if accepted > 0 {
			skipped = append(skipped, set.CircularID)
			continue
		}
		if err := rows.flush(ctx); err != nil { // the rows of earlier sets, before this one's delete
			return nil, err
		}
		if err := st.exec(ctx, `DELETE FROM extracted_obligations WHERE circular_id = ?`, set.CircularID); err != nil {
			return nil, err
		}
		if err := st.exec(ctx, upsertKeySQL("obligation_extractions", []string{"circular_id", "input_hash", "extracted_at"}, 1),
			set.CircularID, set.InputHash, at); err != nil {
			return nil, err
		}
		for _, o := range set.Obligations {
			if o.CircularID != set.CircularID || o.Origin != catalog.OriginExtracted {
				return nil, fmt.Errorf("obligation %s: of circular %s, origin %q: want an extracted one of %s", o.ID, o.CircularID, o.Origin, set.CircularID)
			}
			vals, err := obligationColumns.values(o)
			if err != nil {
				return nil, err
			}
			if err := rows.add(ctx, append(vals, set.InputHash, at)...); err != nil {
				return nil, err
			}
		}
	}
	if err := rows.flush(ctx); err != nil {
		return nil, err
	}
	return skipped, tx.Commit()
}

// ErrAccepted is a change refused because an editor accepted the
// obligations it would replace.
var ErrAccepted = errors.New("the extracted obligations were accepted by an editor")

// AcceptObligations marks the extracted obligations of the circular
// whose id or slug is circular as accepted by an editor, and returns how
// many it marked (catalog.ErrNotFound for an unknown circular).
func (s *DB) AcceptObligations(ctx context.Context, circular string) (_ int, err error) {
	defer wrap(&err, "AcceptObligations")
	var id string
	err = s.db.QueryRowContext(ctx, `SELECT id FROM circulars WHERE id = ? OR slug = ?`, circular, circular).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, catalog.ErrNotFound
	}
	if err != nil {
		return 0, err
	}
	res, err := s.db.ExecContext(ctx, `UPDATE extracted_obligations SET accepted = TRUE WHERE circular_id = ? AND accepted = FALSE`, id)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// CircularObligations returns the obligations shown for the circular
// circularID, in order (catalog.ErrNotFound for an unknown circular).
func (s *DB) CircularObligations(ctx context.Context, circularID string) (_ []catalog.Obligation, err error) {
	defer wrap(&err, "CircularObligations")
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM circulars WHERE id = ?`, circularID).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, catalog.ErrNotFound
	}
	out := []catalog.Obligation{}
	err = s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+
		" FROM obligations_shown o WHERE o.circular_id = ? ORDER BY o.position", []any{circularID},
		func(o catalog.Obligation) error { out = append(out, o); return nil })
	return out, err
}

// obligationsQuery is the list q selects.
func obligationsQuery(q catalog.ObligationQuery) listQuery {
	lq := listQuery{op: "ListObligations", sel: obligationColumns.selectList("o", nil), from: "obligations_shown o", order: obligationsOrder}
	if q.EntityType != "" {
		lq.where.add(`(o.applies_to LIKE ? OR o.applies_to LIKE ?)`, `%"`+q.EntityType+`"%`, `%"`+catalog.AllEntities+`"%`)
	}
	if q.DueAfter != nil {
		lq.where.add("o.due_date >= ?", q.DueAfter.String())
	}
	if q.DueBefore != nil {
		lq.where.add("o.due_date <= ?", q.DueBefore.String())
	}
	lq.where.eq("o.source", q.Source)
	lq.where.eq("o.origin", q.Origin)
	switch q.Binding {
	case "true":
		lq.where.add("o.binding = TRUE")
	case "false":
		lq.where.add("o.binding = FALSE")
	}
	return lq
}

// ListObligations returns the page of obligations q selects (by due date,
// undated last) and how many it selects in all.
func (s *DB) ListObligations(ctx context.Context, q catalog.ObligationQuery) ([]catalog.Obligation, int, error) {
	return listPage(ctx, s.db, obligationColumns, obligationsQuery(q), q.Page)
}

// ExportObligations calls fn with every obligation q selects, in the
// list's order, without paging.
func (s *DB) ExportObligations(ctx context.Context, q catalog.ObligationQuery, fn func(catalog.Obligation) error) (err error) {
	defer wrap(&err, "ExportObligations")
	query, args := obligationsQuery(q).selectSQL()
	return s.eachObligation(ctx, query, args, fn)
}

// AllObligations returns every obligation shown, by circular id, each
// circular's in order: what a build shows.
func (s *DB) AllObligations(ctx context.Context) (_ map[string][]catalog.Obligation, err error) {
	defer wrap(&err, "AllObligations")
	out := map[string][]catalog.Obligation{}
	err = s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+
		" FROM obligations_shown o ORDER BY o.circular_id, o.position", nil,
		func(o catalog.Obligation) error { out[o.CircularID] = append(out[o.CircularID], o); return nil })
	return out, err
}

func (s *DB) eachObligation(ctx context.Context, query string, args []any, fn func(catalog.Obligation) error) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o catalog.Obligation
		if err := rows.Scan(obligationColumns.targets(&o)...); err != nil {
			return err
		}
		if o.AppliesTo == nil {
			o.AppliesTo = catalog.TextList{}
		}
		if err := fn(o); err != nil {
			return err
		}
	}
	return rows.Err()
}

// A user's register: the binding obligations shown that apply to one of
// the user's entity types, with the status the user set.

// registerFrom joins each obligation to the user's status (the first
// argument is the user's id).
const registerFrom = "obligations_shown o LEFT JOIN obligation_statuses s ON s.obligation_id = o.id AND s.user_id = ?"

// registerWhere selects the binding obligations applying to types.
func registerWhere(userID string, types []string) where {
	w := where{args: []any{userID}}
	w.add("o.binding = TRUE")
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
	w := registerWhere(userID, q.EntityTypes)
	if q.Status != "" {
		w.add("COALESCE(s.status, '"+register.StatusTodo+"') = ?", q.Status)
	}
	today, monthEnd := dateText(register.Today(q.Now)), dateText(register.MonthEnd(q.Now))
	switch q.Group {
	case register.GroupOverdue:
		w.add("o.due_date < ?", today)
	case register.GroupThisMonth:
		w.add("o.due_date >= ? AND o.due_date < ?", today, monthEnd)
	case register.GroupLater:
		w.add("o.due_date >= ?", monthEnd)
	case register.GroupNoDate:
		w.add("o.due_date IS NULL")
	}
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
		err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+registerFrom+w.sql(), w.args...).Scan(&total)
		if err != nil {
			return nil, 0, err
		}
	}
	return items, total, nil
}

// scanItem reads a row of registerSelect (and, when count is set, the
// count after it).
func scanItem(rows interface{ Scan(...any) error }, now time.Time, count *int) (register.Item, error) {
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
	it.DueGroup = register.Group(it.DueDate, now)
	return it, nil
}

// registerItem is obligation id of a user's register, or
// catalog.ErrNotFound when it is not there (unknown, not binding, not
// for the user's entity types): a user reaches only their own register.
func registerItem(ctx context.Context, db querier, userID, id string, types []string, now time.Time) (register.Item, error) {
	w := registerWhere(userID, types)
	w.add("o.id = ?", id)
	it, err := scanItem(db.QueryRowContext(ctx, "SELECT "+registerSelect+" FROM "+registerFrom+w.sql(), w.args...), now, nil)
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

// SetObligationStatus sets the status and note of obligation id in the
// user's register and records the change in its history, in one
// transaction (catalog.ErrNotFound when the register does not hold it).
func (s *DB) SetObligationStatus(ctx context.Context, userID, id string, types []string, status, note string) (_ register.Item, err error) {
	defer wrap(&err, "SetObligationStatus")
	if !slices.Contains(register.Statuses, status) {
		return register.Item{}, fmt.Errorf("unknown status %q", status)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return register.Item{}, err
	}
	defer tx.Rollback()
	now := s.now().UTC().Truncate(time.Second)
	if _, err := registerItem(ctx, tx, userID, id, types, now); err != nil {
		return register.Item{}, err
	}
	at, _ := timeColumn(now).Value()
	if _, err := tx.ExecContext(ctx, upsertKeySQL("obligation_statuses", []string{"user_id", "obligation_id", "status", "note", "updated_at"}, 2),
		userID, id, status, note, at); err != nil {
		return register.Item{}, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO obligation_status_history (user_id, obligation_id, status, note, changed_at) VALUES (?, ?, ?, ?, ?)`,
		userID, id, status, note, at); err != nil {
		return register.Item{}, err
	}
	it, err := registerItem(ctx, tx, userID, id, types, now)
	if err != nil {
		return register.Item{}, err
	}
	return it, tx.Commit()
}

// ObligationHistory returns the user's status changes of obligation id,
// oldest first (catalog.ErrNotFound when the register does not hold it).
func (s *DB) ObligationHistory(ctx context.Context, userID, id string, types []string) (_ []register.Change, err error) {
	defer wrap(&err, "ObligationHistory")
	if _, err := registerItem(ctx, s.db, userID, id, types, s.now()); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT status, note, changed_at FROM obligation_status_history
		WHERE user_id = ? AND obligation_id = ? ORDER BY id`, userID, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []register.Change{}
	for rows.Next() {
		var c register.Change
		if err := rows.Scan(&c.Status, &c.Note, (*timeColumn)(&c.ChangedAt)); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// RegisterTally counts the user's register by impact level and status:
// what the compliance score is computed from (register.ScoreOf).
func (s *DB) RegisterTally(ctx context.Context, userID string, types []string) (_ register.Tally, err error) {
	defer wrap(&err, "RegisterTally")
	w := registerWhere(userID, types)
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
