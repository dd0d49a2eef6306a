package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// Reading a migrated database's schema from its catalogs into a
// description (schema) that the two dialects can be compared in:
// SQLite's from its pragmas and sqlite_master, PostgreSQL's from
// information_schema and pg_catalog. Each keeps its own dialect's
// spelling; postgresAsSQLite (schema_test.go) maps one onto the other.

// schema is a database's tables (and views) by name.
type schema map[string]*tableSchema

type tableSchema struct {
	view    bool
	columns map[string]columnSchema
	// indexes by key: a CREATE INDEX's name, "primary key", or
	// "unique (a, b)" for a UNIQUE constraint's (the dialects name those
	// differently).
	indexes map[string]indexSchema
	// checks are the CHECK constraints' expressions (one dialect's
	// spelling), each as written or deparsed.
	checks []string
	// foreignKeys by "foreign key (a, b)": what the key references
	// and does on delete, as "users (id) ON DELETE CASCADE".
	foreignKeys map[string]string
}

type columnSchema struct {
	typ      string // as the dialect names it: SQLite's declared type, PostgreSQL's data_type
	notNull  bool
	dflt     string // the default's expression; "" for none
	identity bool   // numbered by the database: AUTOINCREMENT, GENERATED AS IDENTITY
}

type indexSchema struct {
	columns []string // in order, " DESC" after a descending one
	// collations of the columns, in order: the order the index keeps
	// (SQLite's BINARY is bytewise; PostgreSQL's "" is a column without
	// one, a number say).
	collations []string
	unique     bool
	where      string // a partial index's predicate; "" for none
	method     string // "" for a B-tree (SQLite's only kind), else PostgreSQL's access method
}

func newTable(view bool) *tableSchema {
	return &tableSchema{view: view, columns: map[string]columnSchema{}, indexes: map[string]indexSchema{}, foreignKeys: map[string]string{}}
}

// skippedTable: the migration tool's tables and SQLite's own, not the store's.
func skippedTable(name string) bool {
	return name == "goose_db_version" || strings.HasPrefix(name, "sqlite_")
}

// readSQLiteSchema reads db's schema: columns from pragma table_xinfo,
// indexes from index_list and index_xinfo, foreign keys from
// foreign_key_list, and what SQLite keeps only as the CREATE statement's
// text (CHECK constraints, AUTOINCREMENT, a partial index's WHERE) from
// sqlite_master.
func readSQLiteSchema(ctx context.Context, db *sql.DB) (schema, error) {
	rows, err := db.QueryContext(ctx, `SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name`)
	if err != nil {
		return nil, err
	}
	type object struct{ typ, name, sql string }
	var objects []object
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.typ, &o.name, &o.sql); err != nil {
			rows.Close()
			return nil, err
		}
		if !skippedTable(o.name) {
			objects = append(objects, o)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s := schema{}
	for _, o := range objects {
		t := newTable(o.typ == "view")
		s[o.name] = t
		create := sqlTokens(o.sql)
		if err := readSQLiteColumns(ctx, db, o.name, create, t); err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		if t.view {
			continue
		}
		t.checks = checkExpressions(create)
		if err := readSQLiteIndexes(ctx, db, o.name, t); err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
		if err := readSQLiteForeignKeys(ctx, db, o.name, t); err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
	}
	return s, nil
}

func readSQLiteColumns(ctx context.Context, db *sql.DB, table string, create []string, t *tableSchema) error {
	rows, err := db.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid`, table)
	if err != nil {
		return err
	}
	defer rows.Close()
	pk := map[int]string{} // by position in the key, from 1
	for rows.Next() {
		var name, typ string
		var notNull bool
		var dflt sql.NullString
		var n int
		if err := rows.Scan(&name, &typ, &notNull, &dflt, &n); err != nil {
			return err
		}
		t.columns[name] = columnSchema{typ: strings.ToUpper(typ), notNull: notNull, dflt: dflt.String}
		if n > 0 {
			pk[n] = name
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(pk) == 0 || t.view {
		return nil
	}
	// The primary key's index, as an INTEGER PRIMARY KEY (the rowid,
	// which has none) would have; index_list's, when there is one,
	// replaces it.
	key := indexSchema{unique: true}
	for n := 1; n <= len(pk); n++ {
		key.columns, key.collations = append(key.columns, pk[n]), append(key.collations, "BINARY")
	}
	t.indexes[primaryKey] = key
	// AUTOINCREMENT is allowed only on a table's one INTEGER PRIMARY KEY.
	if slices.ContainsFunc(create, func(tok string) bool { return strings.EqualFold(tok, "AUTOINCREMENT") }) && len(pk) == 1 {
		c := t.columns[pk[1]]
		c.identity = true
		t.columns[pk[1]] = c
	}
	return nil
}

// primaryKey is the key of a table's primary key in its indexes.
const primaryKey = "primary key"

func readSQLiteIndexes(ctx context.Context, db *sql.DB, table string, t *tableSchema) error {
	rows, err := db.QueryContext(ctx, `SELECT l.name, l."unique", l.origin, COALESCE(m.sql, '')
		FROM pragma_index_list(?) l LEFT JOIN sqlite_master m ON m.type = 'index' AND m.name = l.name`, table)
	if err != nil {
		return err
	}
	type index struct {
		name, origin, sql string
		unique            bool
	}
	var list []index
	for rows.Next() {
		var ix index
		if err := rows.Scan(&ix.name, &ix.unique, &ix.origin, &ix.sql); err != nil {
			rows.Close()
			return err
		}
		list = append(list, ix)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, ix := range list {
		cols, colls, err := sqliteIndexColumns(ctx, db, ix.name)
		if err != nil {
			return err
		}
		d := indexSchema{columns: cols, collations: colls, unique: ix.unique, where: partialWhere(sqlTokens(ix.sql))}
		key := ix.name
		switch ix.origin {
		case "pk":
			key = primaryKey
		case "u":
			key = "unique (" + strings.Join(cols, ", ") + ")"
		}
		t.indexes[key] = d
	}
	return nil
}

func sqliteIndexColumns(ctx context.Context, db *sql.DB, index string) (cols, colls []string, _ error) {
	rows, err := db.QueryContext(ctx, `SELECT COALESCE(name, '<expression>'), "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`, index)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var name, coll string
		var desc bool
		if err := rows.Scan(&name, &desc, &coll); err != nil {
			return nil, nil, err
		}
		if desc {
			name += " DESC"
		}
		cols, colls = append(cols, name), append(colls, coll)
	}
	return cols, colls, rows.Err()
}

func readSQLiteForeignKeys(ctx context.Context, db *sql.DB, table string, t *tableSchema) error {
	rows, err := db.QueryContext(ctx, `SELECT id, "table", "from", COALESCE("to", ''), on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, table)
	if err != nil {
		return err
	}
	defer rows.Close()
	type key struct {
		from, to []string
		table    string
		onDelete string
	}
	var order []int
	keys := map[int]*key{}
	for rows.Next() {
		var id int
		var ref, from, to, onDelete string
		if err := rows.Scan(&id, &ref, &from, &to, &onDelete); err != nil {
			return err
		}
		k := keys[id]
		if k == nil {
			k = &key{table: ref, onDelete: onDelete}
			keys[id] = k
			order = append(order, id)
		}
		k.from, k.to = append(k.from, from), append(k.to, to)
	}
	for _, id := range order {
		k := keys[id]
		t.foreignKeys["foreign key ("+strings.Join(k.from, ", ")+")"] = foreignKeyTarget(k.table, k.to, k.onDelete)
	}
	return rows.Err()
}

// foreignKeyTarget is what a foreign key references and does on delete,
// in the form both readers give.
func foreignKeyTarget(table string, columns []string, onDelete string) string {
	s := table + " (" + strings.Join(columns, ", ") + ")"
	if onDelete = strings.ToUpper(onDelete); onDelete != "" && onDelete != "NO ACTION" {
		s += " ON DELETE " + onDelete
	}
	return s
}

// checkExpressions are the expressions of the CHECK constraints of a
// CREATE TABLE statement's tokens, column or table constraints alike.
func checkExpressions(create []string) []string {
	var out []string
	for i := 0; i < len(create); i++ {
		if !strings.EqualFold(create[i], "CHECK") || i+1 >= len(create) || create[i+1] != "(" {
			continue
		}
		end := closingParen(create, i+1)
		out = append(out, strings.Join(create[i+2:end], " "))
		i = end
	}
	return out
}

// partialWhere is the predicate of a CREATE INDEX statement's tokens
// ("" without one).
func partialWhere(create []string) string {
	i := slices.IndexFunc(create, func(tok string) bool { return strings.EqualFold(tok, "WHERE") })
	if i < 0 {
		return ""
	}
	return strings.Join(create[i+1:], " ")
}

// closingParen is the index of the token closing the parenthesis at open
// (the last token when it is not closed).
func closingParen(toks []string, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i] {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return len(toks) - 1
}

// sqlTokens splits SQL text into tokens: words, numbers, quoted strings
// and identifiers (quotes kept), and operators and punctuation, one
// character each except the two-character operators; comments and
// spaces go.
func sqlTokens(sqlText string) []string {
	var out []string
	s := sqlText
	for len(s) > 0 {
		c := s[0]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s = s[1:]
		case strings.HasPrefix(s, "--"):
			end := strings.IndexByte(s, '\n')
			if end < 0 {
				end = len(s)
			}
			s = s[end:]
		case strings.HasPrefix(s, "/*"):
			end := strings.Index(s, "*/")
			if end < 0 {
				end = len(s) - 2
			}
			s = s[end+2:]
		case c == '\'' || c == '"':
			end := 1
			for end < len(s) {
				if s[end] == c {
					if end+1 < len(s) && s[end+1] == c { // a doubled quote
						end += 2
						continue
					}
					break
				}
				end++
			}
			end = min(end+1, len(s))
			out, s = append(out, s[:end]), s[end:]
		case isWordByte(c):
			end := 1
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			out, s = append(out, s[:end]), s[end:]
		default:
			n := 1
			for _, op := range []string{"::", "<=", ">=", "<>", "!=", "||"} {
				if strings.HasPrefix(s, op) {
					n = 2
				}
			}
			out, s = append(out, s[:n]), s[n:]
		}
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// readPostgresSchema reads db's schema (the current schema's tables and
// views): columns from information_schema.columns, indexes from pg_index,
// CHECK and foreign key constraints from pg_constraint, expressions as
// PostgreSQL deparses them.
func readPostgresSchema(ctx context.Context, db *sql.DB) (schema, error) {
	s := schema{}
	rows, err := db.QueryContext(ctx, `SELECT t.table_name, t.table_type = 'VIEW', c.column_name, c.data_type, c.is_nullable = 'NO',
			COALESCE(c.column_default, ''), c.is_identity = 'YES'
		FROM information_schema.tables t JOIN information_schema.columns c USING (table_schema, table_name)
		WHERE t.table_schema = current_schema() ORDER BY t.table_name, c.ordinal_position`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var table, name string
		var view bool
		var c columnSchema
		if err := rows.Scan(&table, &view, &name, &c.typ, &c.notNull, &c.dflt, &c.identity); err != nil {
			rows.Close()
			return nil, err
		}
		if skippedTable(table) {
			continue
		}
		if s[table] == nil {
			s[table] = newTable(view)
		}
		s[table].columns[name] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if err := readPostgresIndexes(ctx, db, s); err != nil {
		return nil, err
	}
	if err := readPostgresConstraints(ctx, db, s); err != nil {
		return nil, err
	}
	return s, nil
}

func readPostgresIndexes(ctx context.Context, db *sql.DB, s schema) error {
	rows, err := db.QueryContext(ctx, `SELECT t.relname, i.relname, x.indisprimary, x.indisunique, am.amname,
			COALESCE(pg_get_expr(x.indpred, x.indrelid, true), ''),
			EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid AND k.contype = 'u'),
			(SELECT string_agg(pg_get_indexdef(x.indexrelid, n, true) || CASE WHEN x.indoption[n - 1] & 1 = 1 THEN ' DESC' ELSE '' END,
				E'\x1f' ORDER BY n) FROM generate_series(1, x.indnkeyatts) n),
			(SELECT string_agg(COALESCE(co.collname, ''), E'\x1f' ORDER BY n) FROM generate_series(1, x.indnkeyatts) n
				LEFT JOIN pg_collation co ON co.oid = x.indcollation[n - 1])
		FROM pg_index x
		JOIN pg_class i ON i.oid = x.indexrelid
		JOIN pg_class t ON t.oid = x.indrelid
		JOIN pg_am am ON am.oid = i.relam
		WHERE t.relnamespace = current_schema()::regnamespace
		ORDER BY t.relname, i.relname`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var table, name, method, where, cols, colls string
		var primary, unique, constraint bool
		if err := rows.Scan(&table, &name, &primary, &unique, &method, &where, &constraint, &cols, &colls); err != nil {
			return err
		}
		t := s[table]
		if t == nil {
			continue
		}
		columns := strings.Split(cols, "\x1f")
		if method == "btree" {
			method = ""
		}
		key := name
		switch {
		case primary:
			key = primaryKey
		case constraint:
			key = "unique (" + strings.Join(columns, ", ") + ")"
		}
		t.indexes[key] = indexSchema{columns: columns, collations: strings.Split(colls, "\x1f"), unique: unique, where: where, method: method}
	}
	return rows.Err()
}

func readPostgresConstraints(ctx context.Context, db *sql.DB, s schema) error {
	rows, err := db.QueryContext(ctx, `SELECT t.relname, k.contype, pg_get_constraintdef(k.oid, true),
			COALESCE(f.relname, ''), COALESCE(k.confdeltype, ' '),
			COALESCE((SELECT string_agg(a.attname, ', ' ORDER BY n.i) FROM unnest(k.conkey) WITH ORDINALITY n(attnum, i)
				JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = n.attnum), ''),
			COALESCE((SELECT string_agg(a.attname, ', ' ORDER BY n.i) FROM unnest(k.confkey) WITH ORDINALITY n(attnum, i)
				JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = n.attnum), '')
		FROM pg_constraint k
		JOIN pg_class t ON t.oid = k.conrelid
		LEFT JOIN pg_class f ON f.oid = k.confrelid
		WHERE t.relnamespace = current_schema()::regnamespace AND k.contype IN ('c', 'f')
		ORDER BY t.relname, k.conname`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var table, kind, def, ref, onDelete, cols, refCols string
		if err := rows.Scan(&table, &kind, &def, &ref, &onDelete, &cols, &refCols); err != nil {
			return err
		}
		t := s[table]
		if t == nil {
			continue
		}
		switch kind {
		case "c":
			toks := sqlTokens(def) // CHECK (expression)
			t.checks = append(t.checks, strings.Join(toks[2:closingParen(toks, 1)], " "))
		case "f":
			action := map[string]string{"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT"}[onDelete]
			t.foreignKeys["foreign key ("+cols+")"] = foreignKeyTarget(ref, strings.Split(refCols, ", "), action)
		}
	}
	return rows.Err()
}
