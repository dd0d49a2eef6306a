package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Dates are stored as 'YYYY-MM-DD' text and timestamps as RFC 3339 UTC
// text, so both compare correctly as strings.
const (
	dateLayout = "2006-01-02"
	timeLayout = time.RFC3339
)

func dateText(t time.Time) string { return t.Format(dateLayout) }

func timeText(t time.Time) string { return t.UTC().Format(timeLayout) }

func parseDate(s string) (time.Time, error) {
	t, err := time.Parse(dateLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored date %q: %w", s, err)
	}
	return t, nil
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("stored time %q: %w", s, err)
	}
	return t, nil
}

// parseOptDate reads a nullable date column; NULL is nil.
func parseOptDate(s sql.NullString) (*time.Time, error) {
	if !s.Valid {
		return nil, nil
	}
	t, err := parseDate(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// textList encodes a list of text as a JSON array column ('[]' when empty).
func textList(xs []string) (string, error) {
	if xs == nil {
		xs = []string{}
	}
	b, err := json.Marshal(xs)
	return string(b), err
}

// parseTextList decodes a JSON array column; the result is never nil.
func parseTextList(s string) ([]string, error) {
	var xs []string
	if err := json.Unmarshal([]byte(s), &xs); err != nil {
		return nil, fmt.Errorf("stored list %.40q: %w", s, err)
	}
	if xs == nil {
		xs = []string{}
	}
	return xs, nil
}

// fieldSep joins fields in search columns so that no match spans two of
// them (a search term never contains it: see searchTerm).
const fieldSep = "\x1f"

// searchTerm is the lower-cased form of a search, matched against the
// lower-cased search columns: case-insensitive for all of Unicode, not only
// ASCII as LIKE alone would be.
func searchTerm(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, fieldSep, ""))
}

// searchText lower-cases fields and joins them with fieldSep.
func searchText(fields ...string) string {
	return strings.ToLower(strings.Join(fields, fieldSep))
}

// likeContains is a LIKE pattern (with ESCAPE '\') matching any text that
// contains term literally: %, _ and \ in term match only themselves.
func likeContains(term string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(term) + "%"
}

// upsertSQL inserts a row or, when its id (cols[0]) exists, overwrites the
// other columns. ON CONFLICT ... DO UPDATE is both SQLite and PostgreSQL.
func upsertSQL(table string, cols []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (%s) VALUES (%s) ON CONFLICT (%s) DO UPDATE SET ",
		table, strings.Join(cols, ", "), strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "), cols[0])
	for i, c := range cols[1:] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = excluded.%s", c, c)
	}
	return b.String()
}

// placeholders is "?, ?, ..." for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// txStmts prepares each statement of a transaction once, however many
// rows it writes (a sync can write a hundred thousand).
type txStmts struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func newTxStmts(tx *sql.Tx) *txStmts { return &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}} }

func (t *txStmts) exec(ctx context.Context, query string, args ...any) error {
	st, ok := t.stmts[query]
	if !ok {
		var err error
		if st, err = t.tx.PrepareContext(ctx, query); err != nil {
			return err
		}
		t.stmts[query] = st
	}
	_, err := st.ExecContext(ctx, args...)
	return err
}

func (t *txStmts) close() {
	for _, st := range t.stmts {
		st.Close()
	}
}

// where builds a conjunction of equality filters; empty values are skipped.
type where struct {
	conds []string
	args  []any
}

func (w *where) eq(col, value string) {
	if value != "" {
		w.add(col+" = ?", value)
	}
}

// add appends a condition with its arguments.
func (w *where) add(cond string, args ...any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
}

func (w *where) sql() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// list runs query with LIMIT limit appended and calls scan for each row.
func (s *DB) list(ctx context.Context, op, query string, args []any, limit int, scan func(*sql.Rows) error) error {
	if limit < 1 {
		return fmt.Errorf("store: %s: limit %d, want at least 1", op, limit)
	}
	rows, err := s.db.QueryContext(ctx, query+" LIMIT ?", append(args, limit)...)
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return fmt.Errorf("store: %s: %w", op, err)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	return nil
}
