package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// dialect is everything that differs between SQLite and PostgreSQL. The
// queries are written once, in the SQL both share; what one database
// spells differently is rewritten here when a query is bound (conn.go),
// and the rest (the search index's size, the schema's migrations: one folder
// per dialect, with the same versions) is chosen by postgres.
type dialect struct {
	name     string // "sqlite" or "postgres", as errors and tests name it
	postgres bool
	goose    goose.Dialect
	// migrations is the folder of the dialect's migrations in the
	// embedded files.
	migrations string
	// numbered: placeholders are $1, $2, ... rather than ?.
	numbered bool
	// rename rewrites what SQLite and PostgreSQL spell differently.
	rename *strings.Replacer
	// syncLock, run first in a catalog sync's transaction, makes syncs
	// of several instances at once wait for each other.
	syncLock string
	// auditLock, run in a transaction before it appends to an
	// organisation's audit chain (its one argument the organisation's
	// id), makes appenders to one chain wait for each other. SQLite needs
	// none: every transaction takes the one write lock at BEGIN
	// (_txlock=immediate).
	auditLock string
}

var sqliteDialect = &dialect{name: "sqlite", goose: goose.DialectSQLite3, migrations: "migrations"}

var postgresDialect = &dialect{
	name: "postgres", postgres: true, goose: goose.DialectPostgres, migrations: "migrations/postgres", numbered: true,
	rename: strings.NewReplacer(
		"json_object(", "json_build_object(",
		// Text lower-cased as Go's strings.ToLower does: SQLite's lower()
		// knows only ASCII, so the store gives SQLite its own (store.go);
		// PostgreSQL's lower() follows the database's locale (all of
		// Unicode in a UTF-8 one).
		"text_lower(", "lower(",
		// A circular's integer key, the search index's: SQLite's rowid,
		// an identity column in PostgreSQL.
		"c.rowid", "c.rid",
	),
	// Any fixed number, the same in every instance: "RegPulse sync".
	syncLock: "SELECT pg_advisory_xact_lock(7317)",
	// The two-key form is a keyspace apart from syncLock's one key: 7318
	// is "RegPulse audit", the second key the organisation's id hashed
	// (two ids sharing a hash only wait for each other).
	auditLock: "SELECT pg_advisory_xact_lock(7318, hashtext(?))",
}

// isPostgresURL tells a PostgreSQL connection URL from a SQLite path.
func isPostgresURL(target string) bool {
	return strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://")
}

// openPostgres connects to the database at url and applies its
// migrations under goose's session lock (an advisory lock), so instances
// starting at once migrate one after another.
func openPostgres(ctx context.Context, url string) (*sql.DB, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	// A few connections per instance: many instances share the server's
	// connection limit. Each is kept once opened: closing one when more
	// than a few are idle made a busy instance connect again and again.
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	// Retry each second (goose's default is every 5 s): instances wait
	// for one migrating only as long as it takes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		db.Close()
		return nil, err
	}
	if err := migrate(ctx, db, postgresDialect, goose.WithSessionLocker(locker)); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

func migrate(ctx context.Context, db *sql.DB, d *dialect, opts ...goose.ProviderOption) error {
	sub, err := fs.Sub(migrations, d.migrations)
	if err != nil {
		return err
	}
	// Work on several branches numbers migrations apart and lands them in
	// any order: a database that has a later one must still get an
	// earlier one that arrived after it.
	p, err := goose.NewProvider(d.goose, db, sub, append(opts, goose.WithAllowOutofOrder(true))...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	return nil
}

// uniqueViolation reports whether err is a unique constraint's failure
// whose constraint (PostgreSQL) or table.column (SQLite) names column.
func uniqueViolation(err error, column string) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505" && strings.Contains(pg.ConstraintName, column)
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") && strings.Contains(msg, "."+column)
}
