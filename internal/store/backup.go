package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Backups (regpulse backup, regpulse restore). A backup is always a
// SQLite database file of RegPulse's schema: made by VACUUM INTO from a
// SQLite store (online, consistent: one read transaction), or from
// PostgreSQL by copying every table of RegPulse's into a new SQLite
// file inside one REPEATABLE READ transaction (a consistent snapshot
// while the server writes). A restore copies every table of a backup
// into an empty store of either kind, so the same pair moves a
// deployment from SQLite to PostgreSQL and back. Tables are found, not
// listed: a table a later migration adds is backed up with no change
// here. The search index's tables are copied too (circulars keep their
// integer key, SQLite's rowid, PostgreSQL's rid), so a restored store
// searches at once.

// ErrNotEmpty is Restore's refusal of a store that holds data already.
var ErrNotEmpty = errors.New("the store is not empty: restore into a new database (or a new --data folder)")

// seededTables are filled by the migrations themselves: a new store has
// their rows, which a restore replaces.
var seededTables = []string{"search_version"}

// skippedTables are the migration tool's own bookkeeping: each store
// keeps its own.
// keptKeys are the PostgreSQL identity keys a restore keeps, by table:
// a circular's rid (the search index's key) and the publication log's
// seq (its consumers' cursor).
var keptKeys = map[string]string{"circulars": "rid", "publication_log": "seq"}

var skippedTables = []string{"goose_db_version", "sqlite_sequence"}

// Backup writes a consistent copy of the store to path, a new SQLite
// database file (path must not exist).
func (s *DB) Backup(ctx context.Context, path string) (err error) {
	defer wrap(&err, "Backup")
	if _, err := os.Stat(path); err == nil {
		return fmt.Errorf("%s exists already: a backup never overwrites a file", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if !s.db.d.postgres {
		// VACUUM INTO reads in one transaction: a snapshot, whatever
		// writers do meanwhile; the file it writes is compact.
		_, err := s.db.ExecContext(ctx, "VACUUM INTO ?", path)
		return err
	}
	tmp := path + ".partial"
	os.Remove(tmp)
	defer os.Remove(tmp)
	dst, err := Open(ctx, tmp)
	if err != nil {
		return err
	}
	defer dst.Close()
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := copyTables(ctx, tx, s.db.d, dst); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	// The file is complete: WAL checkpointed at close, then renamed in.
	return os.Rename(tmp, path)
}

// Restore copies every table of the backup at path into the store, in
// one transaction: all or nothing. The store must be empty (ErrNotEmpty):
// a restore never merges. A backup of an older schema is brought up to
// date first, on a copy (the backup file is left as it was); one of a
// newer RegPulse is refused.
func (s *DB) Restore(ctx context.Context, path string) (err error) {
	defer wrap(&err, "Restore")
	if err := checkBackupFile(path); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "regpulse-restore-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	copyPath := filepath.Join(tmp, "backup.db")
	if err := copyFile(path, copyPath); err != nil {
		return err
	}
	if err := checkSchemaVersion(ctx, copyPath); err != nil {
		return err
	}
	src, err := Open(ctx, copyPath) // migrates an older backup's copy
	if err != nil {
		return fmt.Errorf("open the backup %s: %w", path, err)
	}
	defer src.Close()
	tables, err := s.db.d.tables(ctx, s.db)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if slices.Contains(seededTables, t) {
			continue
		}
		var n int
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+t).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w (table %s has %d rows)", ErrNotEmpty, t, n)
		}
	}
	rtx, err := src.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer rtx.Rollback()
	if err := copyTables(ctx, rtx, src.db.d, s); err != nil {
		return err
	}
	if err := rtx.Commit(); err != nil {
		return err
	}
	// The in-memory search index is read again at the next search.
	return s.refreshSearchAfterWrite(ctx)
}

// checkBackupFile refuses what is not a SQLite database before anything
// opens it (Open would create an empty one at a wrong path).
func checkBackupFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 16)
	if _, err := io.ReadFull(f, head); err != nil || string(head) != "SQLite format 3\x00" {
		return fmt.Errorf("%s is not a RegPulse backup (a SQLite database file, as regpulse backup writes)", path)
	}
	return nil
}

// checkSchemaVersion refuses a backup whose schema is newer than this
// program's migrations.
func checkSchemaVersion(ctx context.Context, path string) error {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT MAX(version_id) FROM goose_db_version WHERE is_applied").Scan(&v); err != nil {
		return fmt.Errorf("%s is not a RegPulse backup: %w", path, err)
	}
	latest, err := latestMigration(sqliteDialect)
	if err != nil {
		return err
	}
	if v.Int64 > latest {
		return fmt.Errorf("the backup's schema (version %d) is newer than this RegPulse's (%d): restore it with the version that made it, or a later one", v.Int64, latest)
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// latestMigration is the newest schema version d's migrations know.
func latestMigration(d *dialect) (int64, error) {
	entries, err := fs.ReadDir(migrations, d.migrations)
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		var v int64
		if _, err := fmt.Sscanf(e.Name(), "%d_", &v); err == nil && v > latest {
			latest = v
		}
	}
	return latest, nil
}

// copyTables (src: a transaction of either store, so that every table is
// read from one snapshot) copies every table the two stores share (in dst's order of
// creation, so that a row's references exist before it) from the
// snapshot src of a store of dialect sd into dst, in one transaction of
// dst's. The seeded tables' rows are replaced.
func copyTables(ctx context.Context, src querier, sd *dialect, dst *DB) error {
	srcTables, err := sd.tables(ctx, src)
	if err != nil {
		return err
	}
	dstTables, err := dst.db.d.tables(ctx, dst.db)
	if err != nil {
		return err
	}
	tx, err := dst.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	// The SQLite side's order is the order of creation, in which a
	// table's references come before it (one side is always SQLite: the
	// backup file).
	order, other := dstTables, srcTables
	if dst.db.d.postgres {
		order, other = srcTables, dstTables
	}
	for _, t := range order {
		if !slices.Contains(other, t) {
			continue
		}
		if slices.Contains(seededTables, t) {
			if _, err := tx.ExecContext(ctx, "DELETE FROM "+t); err != nil {
				return err
			}
		}
		if err := copyTable(ctx, src, sd, st, dst.db.d, t); err != nil {
			return fmt.Errorf("table %s: %w", t, err)
		}
	}
	for t, key := range keptKeys {
		if !dst.db.d.postgres || !slices.Contains(dstTables, t) {
			continue
		}
		// The keys were copied: new rows' keys continue after the largest.
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+t+`', '`+key+`'),
			COALESCE((SELECT MAX(`+key+`) FROM `+t+`), 0) + 1, false)`); err != nil {
			return err
		}
	}
	st.close()
	return tx.Commit()
}

// copyTable copies table t's rows, the columns both stores have (and a
// circular's integer key: rowid in SQLite, rid in PostgreSQL).
func copyTable(ctx context.Context, src querier, sd *dialect, st *txStmts, dd *dialect, t string) error {
	srcCols, err := sd.columns(ctx, src, t)
	if err != nil {
		return err
	}
	dstCols, err := dd.columns(ctx, st.tx, t)
	if err != nil {
		return err
	}
	var names, selects []string
	var boolCol []bool
	for _, c := range dstCols {
		if _, ok := srcCols[c.name]; !ok {
			continue
		}
		names = append(names, c.name)
		selects = append(selects, c.name)
		boolCol = append(boolCol, c.boolean)
	}
	if t == "circulars" {
		names = append(names, dd.circularKey())
		selects = append(selects, sd.circularKey())
		boolCol = append(boolCol, false)
	}
	if len(names) == 0 {
		return nil
	}
	rows, err := src.QueryContext(ctx, "SELECT "+strings.Join(selects, ", ")+" FROM "+t)
	if err != nil {
		return err
	}
	defer rows.Close()
	insert := func(n int) string {
		q := insertRowsSQL(t, names, n)
		if dd.postgres && keptKeys[t] != "" {
			// The key is GENERATED ALWAYS: the backup's keys are kept.
			q = strings.Replace(q, ") VALUES ", ") OVERRIDING SYSTEM VALUE VALUES ", 1)
		}
		return q
	}
	b := st.batch(insert, len(names))
	for rows.Next() {
		vals := make([]any, len(names))
		ptrs := make([]any, len(names))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		for i, v := range vals {
			vals[i] = portable(v, boolCol[i])
		}
		if err := b.add(ctx, vals...); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return b.flush(ctx)
}

// portable converts a value read from one database for the other: SQLite
// keeps booleans as integers, PostgreSQL wants true or false.
func portable(v any, boolean bool) any {
	if !boolean {
		return v
	}
	switch b := v.(type) {
	case int64:
		return b != 0
	case string:
		return b == "1" || strings.EqualFold(b, "true")
	}
	return v
}

// circularKey is how a query names a circular's integer key.
func (d *dialect) circularKey() string {
	if d.postgres {
		return "rid"
	}
	return "rowid"
}

// tables are the store's own tables, in order of creation in SQLite (of
// name in PostgreSQL), without the migration tool's.
func (d *dialect) tables(ctx context.Context, q querier) ([]string, error) {
	query := `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY rowid`
	if d.postgres {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()
			AND table_type = 'BASE TABLE' ORDER BY table_name`
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if !slices.Contains(skippedTables, name) {
			out = append(out, name)
		}
	}
	return out, rows.Err()
}

type column struct {
	name    string
	boolean bool
}

// columns are table t's columns in order, and whether each is boolean.
func (d *dialect) columns(ctx context.Context, q querier, t string) (map[string]column, error) {
	query := `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`
	if d.postgres {
		query = `SELECT column_name, data_type FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`
	}
	rows, err := q.QueryContext(ctx, query, t)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]column{}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return nil, err
		}
		out[name] = column{name: name, boolean: strings.EqualFold(typ, "boolean")}
	}
	return out, rows.Err()
}
