// Package store is RegPulse's persistence. All SQL lives here. The default
// implementation is SQLite (modernc.org/sqlite, pure Go). Its methods take
// and return the domain types (catalog's entries and queries, impact.Record,
// dashboard.Stats), so api.Store needs nothing from this package and a
// PostgreSQL implementation can take its place.
//
// The curated content (internal/catalog) is mirrored into tables by
// SyncCatalog (sync.go), one transaction per sync, keyed by the entries'
// stable ids; a table has a column per field of its entity (columns.go).
// Tables the API fills itself (circular_summaries) are never touched by a
// sync and have no foreign key to the mirror, so their rows survive any
// change or removal of the entry. One file per query area: circulars.go,
// news.go, directory.go, impact.go, dashboard.go, search.go (the
// circulars' full-text index, kept in step by the sync).
package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/pressly/goose/v3"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
	"regpulse/internal/catalog"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is an open store with its migrations applied.
type DB struct {
	db  *sql.DB
	now func() time.Time // the clock of timestamps and of the impact records' window
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

// Open opens (creating if needed) the SQLite database at path and applies
// every pending migration. ":memory:" opens a private in-memory store.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
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
	// deadlocks between two read-then-write transactions.
	dsn += "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	if path == ":memory:" {
		db.SetMaxOpenConns(1) // each connection would be its own empty database
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	s := &DB{db: db, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s, nil
}

func migrate(ctx context.Context, db *sql.DB) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	// Work on several branches numbers migrations apart and lands them in
	// any order: a database that has a later one must still get an
	// earlier one that arrived after it.
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub, goose.WithAllowOutofOrder(true))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// Close closes the database.
func (s *DB) Close() error { return s.db.Close() }

// Ping checks that the database answers.
func (s *DB) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// pragma reads a PRAGMA value (for tests of the connection settings).
func (s *DB) pragma(ctx context.Context, name string) (string, error) {
	var v string
	err := s.db.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
	return v, err
}
