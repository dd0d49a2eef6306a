package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// Queries are written once, with SQLite's ? placeholders; conn and txConn
// run them on either database, rewriting ? to PostgreSQL's $1, $2, ...
// when the dialect asks for it. What else differs between the two lives
// in dialect.go.

// querier is what conn and txConn have in common.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// conn is the store's database handle.
type conn struct {
	db *sql.DB
	d  *dialect
}

func (c *conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.db.QueryContext(ctx, c.d.bind(query), args...)
}

func (c *conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.db.QueryRowContext(ctx, c.d.bind(query), args...)
}

func (c *conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.db.ExecContext(ctx, c.d.bind(query), args...)
}

func (c *conn) BeginTx(ctx context.Context, opts *sql.TxOptions) (*txConn, error) {
	tx, err := c.db.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &txConn{Tx: tx, d: c.d}, nil
}

// txConn is a transaction of a conn.
type txConn struct {
	*sql.Tx
	d *dialect
}

func (t *txConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.Tx.QueryContext(ctx, t.d.bind(query), args...)
}

func (t *txConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.Tx.QueryRowContext(ctx, t.d.bind(query), args...)
}

func (t *txConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.Tx.ExecContext(ctx, t.d.bind(query), args...)
}

func (t *txConn) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return t.Tx.PrepareContext(ctx, t.d.bind(query))
}

// bound caches rewritten queries: most are built once and run often.
var bound sync.Map

// bind is query as the dialect spells it: with its ? placeholders
// numbered ($1, $2, ...) when it numbers them (a ? inside a quoted literal
// or identifier stays), and its renames applied.
func (d *dialect) bind(query string) string {
	if !d.numbered {
		return query
	}
	if q, ok := bound.Load(query); ok {
		return q.(string)
	}
	q := numberPlaceholders(d.rename.Replace(query))
	bound.Store(query, q)
	return q
}

func numberPlaceholders(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte // the quote character we are inside, or 0
	for i := 0; i < len(query); i++ {
		ch := query[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0 // a doubled quote closes and reopens: same result
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(ch)
	}
	return b.String()
}
