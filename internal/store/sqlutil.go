package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// dateText is t's calendar date as date columns hold it.
func dateText(t time.Time) string { return t.Format(dateLayout) }

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
	n := len(fields) - 1
	for _, f := range fields {
		n += len(f)
	}
	b := make([]byte, 0, n)
	for i, f := range fields {
		if i > 0 {
			b = append(b, fieldSep...)
		}
		b = appendLower(b, f)
	}
	return string(b)
}

// appendLower appends s lower-cased: ASCII byte by byte (a sync
// lower-cases a hundred thousand long texts), the rest as strings.ToLower.
func appendLower(b []byte, s string) []byte {
	start := len(b)
	b = append(b, s...)
	for i := start; i < len(b); i++ {
		c := b[i]
		if c >= utf8.RuneSelf {
			return append(b[:start], strings.ToLower(s)...)
		}
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// likeContains is a LIKE pattern (with ESCAPE '\') matching any text that
// contains term literally: %, _ and \ in term match only themselves.
func likeContains(term string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(term) + "%"
}

// upsertRowsSQL inserts n rows of cols or, for those whose key (the
// first keys columns) exists, overwrites the other columns. ON CONFLICT
// ... DO UPDATE is both SQLite and PostgreSQL.
func upsertRowsSQL(table string, cols []string, keys, n int) string {
	var b strings.Builder
	b.WriteString(insertRowsSQL(table, cols, n))
	fmt.Fprintf(&b, " ON CONFLICT (%s) DO UPDATE SET ", strings.Join(cols[:keys], ", "))
	for i, c := range cols[keys:] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = excluded.%s", c, c)
	}
	return b.String()
}

// upsertKeySQL is upsertRowsSQL for one row.
func upsertKeySQL(table string, cols []string, keys int) string {
	return upsertRowsSQL(table, cols, keys, 1)
}

// insertRowsSQL inserts n rows of cols.
func insertRowsSQL(table string, cols []string, n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	return fmt.Sprintf("INSERT INTO %s (%s) VALUES %s", table, strings.Join(cols, ", "),
		strings.TrimSuffix(strings.Repeat(row+", ", n), ", "))
}

// batchParams bounds the values of one batched statement, below both
// databases' limits (SQLite 32766, PostgreSQL 65535); batchRows the rows;
// batchBytes the text and bytes, so that a batch of long circulars is not
// a statement of many megabytes (which the driver copies as it grows).
const (
	batchParams = 16384
	batchRows   = 256
	batchBytes  = 1 << 20
)

// rowBatch writes rows a few hundred at a time, each batch one statement:
// one round trip instead of one per row (a sync writes up to a hundred
// thousand).
type rowBatch struct {
	st    *txStmts
	sql   func(rows int) string
	width int
	max   int
	args  []any
	bytes int // text and bytes in args
}

// batch starts a rowBatch of rows of width values, written by the
// statement sql(n) for n rows.
func (t *txStmts) batch(sql func(rows int) string, width int) *rowBatch {
	return &rowBatch{st: t, sql: sql, width: width, max: max(1, min(batchRows, batchParams/width))}
}

// add adds a row, writing the batch when it is full.
func (b *rowBatch) add(ctx context.Context, vals ...any) error {
	if len(vals) != b.width {
		return fmt.Errorf("store: a row of %d values, want %d", len(vals), b.width)
	}
	b.args = append(b.args, vals...)
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			b.bytes += len(v)
		case []byte:
			b.bytes += len(v)
		}
	}
	if len(b.args) == b.max*b.width || b.bytes >= batchBytes {
		return b.flush(ctx)
	}
	return nil
}

// flush writes the rows added since the last flush.
func (b *rowBatch) flush(ctx context.Context) error {
	if len(b.args) == 0 {
		return nil
	}
	err := b.st.exec(ctx, b.sql(len(b.args)/b.width), b.args...)
	clear(b.args)
	b.args, b.bytes = b.args[:0], 0
	return err
}

// txStmts prepares each statement of a transaction once, however many
// rows it writes (a sync can write a hundred thousand).
type txStmts struct {
	tx    *txConn
	stmts map[string]*sql.Stmt
	// indexVersion is the search_version the transaction's changes to
	// the search index take (searchVersion), 0 until taken.
	indexVersion int64
}

func newTxStmts(tx *txConn) *txStmts { return &txStmts{tx: tx, stmts: map[string]*sql.Stmt{}} }

func (t *txStmts) exec(ctx context.Context, query string, args ...any) error {
	st, err := t.prepared(ctx, query)
	if err != nil {
		return err
	}
	_, err = st.ExecContext(ctx, args...)
	return err
}

// queryRow runs a query expected to return at most one row.
func (t *txStmts) queryRow(ctx context.Context, query string, args ...any) (*sql.Row, error) {
	st, err := t.prepared(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryRowContext(ctx, args...), nil
}

func (t *txStmts) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	st, ok := t.stmts[query]
	if !ok {
		var err error
		if st, err = t.tx.PrepareContext(ctx, query); err != nil {
			return nil, err
		}
		t.stmts[query] = st
	}
	return st, nil
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

// listQuery is one page of a list: SELECT sel FROM from WHERE ... ORDER BY
// order, and the count of everything it matches.
type listQuery struct {
	op   string // the store method, for errors
	sel  string
	from string
	// countFrom, when set, is from without what only the selected columns
	// need (a LEFT JOIN), for counting.
	countFrom string
	where     where
	order     string
	// orderArgs are the arguments of order's placeholders.
	orderArgs []any
	// countEach counts in the page's own query (COUNT(*) OVER ()) rather
	// than in a second one: for queries whose every matching row costs
	// work anyway (a search reads each candidate's text), one pass instead
	// of two.
	countEach bool
}

// selectSQL is q's query without its LIMIT, and its arguments.
func (q listQuery) selectSQL() (string, []any) {
	return "SELECT " + q.sel + " FROM " + q.from + q.where.sql() + " ORDER BY " + q.order,
		append(slices.Clone(q.where.args), q.orderArgs...)
}

// listPage runs q for page and scans each row into a T with cols. total is
// the number of rows q matches on every page. Without countEach it is
// counted only when the page does not tell it: when the page is full or
// starts past the first row.
func listPage[T any](ctx context.Context, db querier, cols columns[T], q listQuery, page catalog.Page) (_ []T, _ int, err error) {
	defer wrap(&err, q.op)
	if page.Limit < 1 || page.Offset < 0 {
		return nil, 0, fmt.Errorf("page %+v, want limit at least 1 and offset at least 0", page)
	}
	if q.countEach {
		q.sel += ", COUNT(*) OVER ()"
	}
	query, args := q.selectSQL()
	rows, err := db.QueryContext(ctx, query+" LIMIT ? OFFSET ?", append(args, page.Limit, page.Offset)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	list := make([]T, 0, min(page.Limit, 64))
	var counted int
	for rows.Next() {
		var v T
		dest := cols.targets(&v)
		if q.countEach {
			dest = append(dest, &counted)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, err
		}
		list = append(list, v)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	total := page.Offset + len(list)
	switch {
	case q.countEach && len(list) > 0:
		total = counted
	case len(list) == page.Limit || (len(list) == 0 && page.Offset > 0):
		from := cmp.Or(q.countFrom, q.from)
		err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+from+q.where.sql(), q.where.args...).Scan(&total)
		if err != nil {
			return nil, 0, fmt.Errorf("count: %w", err)
		}
	}
	return list, total, nil
}

// scanAll reads every row of query into a T with cols.
func scanAll[T any](ctx context.Context, db querier, cols columns[T], query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(cols.targets(&v)...); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
