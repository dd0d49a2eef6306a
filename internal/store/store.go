// Package store is RegPulse's persistence. All SQL lives here. The default
// implementation is SQLite (modernc.org/sqlite, pure Go); given a
// PostgreSQL URL (DATABASE_URL) it is PostgreSQL (jackc/pgx), with the same
// queries (conn.go, dialect.go) and its own full-text index. Its methods take
// and return the domain types (catalog's entries and queries, impact.Record,
// dashboard.Stats), so api.Store needs nothing from this package.
//
// The curated content (internal/catalog) is mirrored into tables by
// SyncCatalog (sync.go), one transaction per sync, keyed by the entries'
// stable ids; a table has a column per field of its entity (columns.go).
// Tables the API fills itself (circular_summaries) are never touched by a
// sync and have no foreign key to the mirror, so their rows survive any
// change or removal of the entry. One file per query area: circulars.go,
// news.go, directory.go, impact.go, dashboard.go, search.go (the
// circulars' full-text index, kept in step by the sync), audit.go (the
// organisations' hash-chained audit trail, appended in the writers'
// transactions).
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"regpulse/internal/catalog"

	"modernc.org/sqlite" // registers the "sqlite" driver
)

// SQLite's lower() lower-cases ASCII only; text_lower is Go's, for every
// connection the driver opens (dialect.go renames it lower on PostgreSQL).
func init() {
	sqlite.MustRegisterDeterministicScalarFunction("text_lower", 1, func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
		switch v := args[0].(type) {
		case string:
			return string(appendLower(nil, v)), nil
		case nil:
			return nil, nil
		default:
			return nil, fmt.Errorf("text_lower: a %T, want text", v)
		}
	})
}

//go:embed migrations/*.sql migrations/postgres/*.sql
var migrations embed.FS

// DB is an open store with its migrations applied.
type DB struct {
	db         *conn
	now        func() time.Time // the clock of timestamps and of the impact records' window
	search     searchState      // the in-memory search index (search.go)
	provisions provisionState   // the in-memory index of the provisions in force (search_provisions.go)
	site       string           // the site's absolute URL, of the webhooks' links (webhook_producers.go)
}

// Option configures Open.
type Option func(*DB)

// WithNow makes the store read the time from now instead of time.Now
// (tests use a fixed clock).
func WithNow(now func() time.Time) Option {
	return func(s *DB) {
		if now != nil {
			s.now = now
		}
	}
}

// ErrNotFound is returned when a looked-up row does not exist. It is
// catalog.ErrNotFound, so the API can tell it without this package.
var ErrNotFound = catalog.ErrNotFound

// Open opens the store at target and applies every pending migration.
// A postgres:// or postgresql:// URL is a PostgreSQL database (DATABASE_URL);
// anything else is the path of a SQLite database, created if needed, and
// ":memory:" a private in-memory one.
func Open(ctx context.Context, target string, opts ...Option) (*DB, error) {
	var d *sql.DB
	var err error
	dl := sqliteDialect
	if isPostgresURL(target) {
		dl = postgresDialect
		d, err = openPostgres(ctx, target)
	} else {
		d, err = openSQLite(ctx, target)
	}
	if err != nil {
		return nil, err
	}
	s := &DB{db: &conn{db: d, d: dl}, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

// Dialect is "sqlite" or "postgres": which database the store is.
func (s *DB) Dialect() string { return s.db.d.name }

// sqliteIdleConns is how many idle connections a SQLite store keeps.
const sqliteIdleConns = 64

func openSQLite(ctx context.Context, path string) (*sql.DB, error) {
	dsn := ":memory:"
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		dsn = "file:" + (&url.URL{Path: path}).EscapedPath()
	}
	// WAL lets readers run beside the writer; busy_timeout makes a writer
	// wait instead of failing at once; SQLite leaves foreign keys off unless
	// asked. _txlock=immediate takes the write lock at BEGIN, avoiding
	// deadlocks between two read-then-write transactions. A page cache of
	// up to 64 MiB per connection (SQLite's default is 2 MiB) keeps a
	// large sync's transaction from spilling pages to the WAL and reading
	// them back. Reads map the file (up to 1 GiB) rather than copy each
	// page in with a system call: the pages are the operating system's
	// cache, shared by the connections (BenchmarkTeams: the board and "my
	// work" read pages scattered over a million decisions, twice as fast).
	dsn += "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=cache_size(-65536)&_pragma=mmap_size(1073741824)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if path == ":memory:" {
		db.SetMaxOpenConns(1) // each connection would be its own empty database
	} else {
		// Keep the connections concurrent requests open rather than
		// database/sql's default of 2: a new connection costs its
		// pragmas and reading the schema again, and under 50 clients
		// searching most queries paid it (BenchmarkSearchLoad: 23
		// searches a second instead of hundreds). Reads map the file, so
		// an idle connection holds little of its own.
		db.SetMaxIdleConns(sqliteIdleConns)
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, db, sqliteDialect); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// Close closes the database.
func (s *DB) Close() error { return s.db.db.Close() }

// Ping checks that the database answers.
func (s *DB) Ping(ctx context.Context) error { return s.db.db.PingContext(ctx) }

// pragma reads a PRAGMA value (for tests of the connection settings).
func (s *DB) pragma(ctx context.Context, name string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
	return v, err
}
