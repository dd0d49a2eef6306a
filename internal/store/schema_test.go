package store

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// One schema, two dialects: each has its own migrations, and TestSchema
// holds what they make to one description. It reads both migrated
// databases from their catalogs (schema_read_test.go), rewrites
// PostgreSQL's description in SQLite's terms by the mapping below, the
// one place where the dialects may differ, and reports every column
// (type, nullability, default), index (columns, order, collation,
// uniqueness, WHERE), CHECK and foreign key that still differs. A
// difference is fixed by a new migration pair, or, when it is
// deliberate, declared in the mapping with why.
//
// Not compared: how a table is stored (SQLite's WITHOUT ROWID,
// PostgreSQL's compression and STORAGE), a column's own collation (its
// indexes' are), a view's query (its columns are), and triggers (each
// dialect's are tested by what they do: audit_log's by
// TestAudit_AppendOnly on both stores).

// dialectMapping is how PostgreSQL's schema is written in SQLite's terms.
type dialectMapping struct {
	// types: PostgreSQL's data_type to SQLite's declared type.
	types map[string]string
	// collations: an index's PostgreSQL collation to SQLite's. Only
	// indexes' collations are compared: they are the orders the store
	// reads rows in (ORDER BY, ranges), which must be the same; a
	// column's own collation matters only where it is ordered, and an
	// index is where it is.
	collations map[string]string
	// booleans: PostgreSQL's boolean literals as SQLite stores flags, in
	// the defaults and predicates of boolean columns (types: boolean).
	booleans map[string]string
	// expressions rewrite PostgreSQL's deparsed expressions (CHECKs,
	// partial indexes' WHERE, defaults) into SQLite's spelling as
	// written, in order, after both are tokenised alike (normalExpr).
	expressions []expressionRule
	// postgresOnly are columns and indexes only PostgreSQL has.
	postgresOnly []schemaObject
	// (SQLite's own quirk, that a primary key may hold NULL, is set
	// aside by sqliteAsCompared; AUTOINCREMENT and GENERATED AS IDENTITY
	// are both read as numbered by the database.)
	// exceptions are deliberate differences of one column or index: where
	// SQLite has sqlite and PostgreSQL postgres, they count as the same.
	exceptions []schemaException
}

type expressionRule struct {
	re *regexp.Regexp
	to func(m []string) string
}

// schemaObject names a column (column set) or an index (index set) of a
// table.
type schemaObject struct {
	table, column, index string
	why                  string
}

type schemaException struct {
	schemaObject
	aspect           string // as differences name it: "default", "type", ...
	sqlite, postgres string
}

var mapping = dialectMapping{
	types: map[string]string{
		// Collations are compared on indexes only (collations, below).
		"text": "TEXT",
		// SQLite has one integer type (up to 8 bytes); how wide a
		// PostgreSQL column is (integer for positions, offsets and small
		// counts, bigint for ids, versions and times) is PostgreSQL's own
		// choice, with nothing in SQLite to compare it with.
		"integer": "INTEGER",
		"bigint":  "INTEGER",
		// SQLite has no boolean: flags are INTEGER 0 and 1. The queries
		// write TRUE and FALSE, which SQLite reads as 1 and 0.
		"boolean": "INTEGER",
		"bytea":   "BLOB",
	},
	collations: map[string]string{
		// "C" orders bytes, as SQLite's BINARY does; a column without a
		// collation (a number) is BINARY to SQLite. PostgreSQL's
		// "default" is the database's locale (en_US, say, which ignores
		// punctuation): not SQLite's order.
		"C": "BINARY",
		"":  "BINARY",
	},
	booleans: map[string]string{"false": "0", "true": "1"},
	expressions: []expressionRule{
		// PostgreSQL annotates literals with their types: 'a'::text.
		{regexp.MustCompile(`::[a-z]+( [a-z]+)*(\[\])?`), func([]string) string { return "" }},
		// It deparses x IN ('a', 'b') as x = ANY (ARRAY['a', 'b']).
		{regexp.MustCompile(`(\w+) = ANY \(ARRAY\[([^\]]*)\]\)`), func(m []string) string { return m[1] + " IN (" + m[2] + ")" }},
		// And x BETWEEN a AND b as x >= a AND x <= b.
		{regexp.MustCompile(`(\w+) >= (\S+) AND (\w+) <= (\S+)`), func(m []string) string {
			if m[1] != m[3] {
				return m[0]
			}
			return m[1] + " BETWEEN " + m[2] + " AND " + m[4]
		}},
	},
	postgresOnly: []schemaObject{
		{table: "circulars", column: "rid", why: "SQLite's rowid, the circulars' integer key that the search index (circular_terms.rid) keys them by: PostgreSQL has no rowid (dialect.go renames c.rowid)"},
		{table: "circulars", index: "unique (rid)", why: "the rowid's uniqueness"},
		{table: "circulars", index: "circulars_title_trgm", why: "trigram indexes serve the lists' substring search (LIKE '%term%') in PostgreSQL; SQLite has none and reads the rows"},
		{table: "circulars", index: "circulars_meta_trgm", why: "as circulars_title_trgm"},
	},
	exceptions: []schemaException{
		{schemaObject{table: "circulars", column: "entity_impact", why: "00002 made it '' (the 'PSP=high' text of then); 00005 made it a JSON list, and " +
			"SQLite cannot change a column's default without copying the whole table; every sync writes the column, so no row takes the default"},
			"default", "''", "'[]'"},
	},
}

// sqliteKeywords are the words normalExpr upper-cases; other words are
// names, lower-cased.
var sqliteKeywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "IS": true, "NULL": true, "BETWEEN": true,
	"LIKE": true, "ANY": true, "ARRAY": true, "TRUE": true, "FALSE": true, "ASC": true, "DESC": true}

// normalExpr is an expression tokenised and printed alike whatever its
// dialect and spacing: keywords upper-case, names lower-case and
// unquoted, one space between tokens but none inside brackets or before
// commas. PostgreSQL's deparsed expressions (pretty: no extra
// parentheses) and SQLite's as written come out the same when they are.
func normalExpr(s string) string {
	var b strings.Builder
	prev := ""
	for _, tok := range sqlTokens(s) {
		switch {
		case tok[0] == '"':
			tok = strings.ToLower(strings.Trim(tok, `"`))
		case tok[0] == '\'':
		case sqliteKeywords[strings.ToUpper(tok)]:
			tok = strings.ToUpper(tok)
		case isWordByte(tok[0]):
			tok = strings.ToLower(tok)
		}
		call := tok == "(" && prev != "" && isWordByte(prev[0]) && !sqliteKeywords[prev] // f(x), not IN (x)
		if prev != "" && prev != "(" && prev != "[" && prev != "::" && tok != ")" && tok != "]" && tok != "," && tok != "::" && tok != "[" && !call {
			b.WriteByte(' ')
		}
		b.WriteString(tok)
		prev = tok
	}
	return b.String()
}

// postgresAsSQLite is the PostgreSQL schema s in SQLite's terms by m,
// and the entries of m that matched nothing (stale ones, to remove).
func (m dialectMapping) postgresAsSQLite(s schema) (schema, []string) {
	var stale []string
	out := schema{}
	for name, t := range s {
		nt := newTable(t.view)
		out[name] = nt
		boolean := map[string]bool{}
		for col, c := range t.columns {
			boolean[col] = c.typ == "boolean"
			if typ, ok := m.types[c.typ]; ok {
				c.typ = typ
			}
			c.dflt = m.expression(c.dflt, boolean[col])
			nt.columns[col] = c
		}
		for key, ix := range t.indexes {
			ix.columns = slices.Clone(ix.columns)
			for i, col := range ix.columns {
				ix.columns[i] = normalExpr(col)
			}
			ix.collations = slices.Clone(ix.collations)
			for i, coll := range ix.collations {
				if c, ok := m.collations[coll]; ok {
					ix.collations[i] = c
				}
			}
			ix.where = m.predicate(ix.where, boolean)
			nt.indexes[key] = ix
		}
		for _, check := range t.checks {
			nt.checks = append(nt.checks, m.predicate(check, boolean))
		}
		nt.foreignKeys = maps.Clone(t.foreignKeys)
	}
	for _, o := range m.postgresOnly {
		t := out[o.table]
		if t == nil {
			t = newTable(false)
		}
		_, col := t.columns[o.column]
		_, ix := t.indexes[o.index]
		if !col && !ix {
			stale = append(stale, fmt.Sprintf("postgresOnly %s: not in PostgreSQL's schema", o))
			continue
		}
		delete(t.columns, o.column)
		delete(t.indexes, o.index)
	}
	return out, stale
}

// expression is a default or predicate in SQLite's spelling: rewritten
// by the expression rules, a boolean column's literals as SQLite's 0 and 1.
func (m dialectMapping) expression(e string, boolean bool) string {
	e = normalExpr(e)
	for _, r := range m.expressions {
		e = r.re.ReplaceAllStringFunc(e, func(s string) string { return r.to(r.re.FindStringSubmatch(s)) })
	}
	if b, ok := m.booleans[strings.ToLower(e)]; ok && boolean {
		e = b
	}
	return e
}

// connective splits a predicate into the terms AND and OR join.
var connective = regexp.MustCompile(` (AND|OR) `)

// flagTest is a term testing a flag as PostgreSQL spells it: x, NOT x,
// x = true.
var flagTest = regexp.MustCompile(`^(NOT )?(\w+)( = (TRUE|FALSE))?$`)

// predicate is a CHECK's or partial index's expression in SQLite's
// spelling: where PostgreSQL tests a boolean column x as x, NOT x or
// x = false, SQLite compares the flag: x = 1, x = 0.
func (m dialectMapping) predicate(e string, boolean map[string]bool) string {
	e = m.expression(e, false)
	seps := connective.FindAllString(e, -1)
	var b strings.Builder
	for i, term := range connective.Split(e, -1) {
		if g := flagTest.FindStringSubmatch(term); g != nil && boolean[g[2]] {
			v := m.booleans["true"]
			if g[4] != "" {
				v = m.booleans[strings.ToLower(g[4])]
			}
			if g[1] != "" { // NOT
				v = map[string]string{"0": "1", "1": "0"}[v]
			}
			term = g[2] + " = " + v
		}
		b.WriteString(term)
		if i < len(seps) {
			b.WriteString(seps[i])
		}
	}
	return b.String()
}

func (o schemaObject) String() string {
	switch {
	case o.column != "":
		return o.table + "." + o.column
	case o.index != "":
		return o.table + " index " + o.index
	}
	return o.table
}

// compareSchemas lists how sqlite and postgres (in SQLite's terms)
// differ, each difference naming the table, the column or index and what
// each side has, after m's exceptions; and the exceptions that matched
// nothing.
func (m dialectMapping) compareSchemas(sqlite, postgres schema) []string {
	var diffs []string
	used := make([]bool, len(m.exceptions))
	differ := func(o schemaObject, aspect, lite, pg string) {
		for i, e := range m.exceptions {
			if e.table == o.table && e.column == o.column && e.index == o.index && e.aspect == aspect && e.sqlite == lite && e.postgres == pg {
				used[i] = true
				return
			}
		}
		diffs = append(diffs, fmt.Sprintf("%s: %s: sqlite %s, postgres %s", o, aspect, lite, pg))
	}
	for _, name := range slices.Sorted(maps.Keys(union(sqlite, postgres))) {
		lt, pt := sqlite[name], postgres[name]
		switch {
		case lt == nil:
			diffs = append(diffs, fmt.Sprintf("table %s: only in postgres", name))
			continue
		case pt == nil:
			diffs = append(diffs, fmt.Sprintf("table %s: only in sqlite", name))
			continue
		case lt.view != pt.view:
			differ(schemaObject{table: name}, "view", yesNo(lt.view), yesNo(pt.view))
			continue
		}
		for _, col := range slices.Sorted(maps.Keys(union(lt.columns, pt.columns))) {
			o := schemaObject{table: name, column: col}
			lc, lok := lt.columns[col]
			pc, pok := pt.columns[col]
			if !lok || !pok {
				differ(o, "column", present(lok), present(pok))
				continue
			}
			if lc.typ != pc.typ {
				differ(o, "type", lc.typ, pc.typ)
			}
			if lt.view { // a view's columns have no constraints
				continue
			}
			if lc.notNull != pc.notNull {
				differ(o, "nullability", nullability(lc.notNull), nullability(pc.notNull))
			}
			if lc.dflt != pc.dflt {
				differ(o, "default", orNone(lc.dflt), orNone(pc.dflt))
			}
			if lc.identity != pc.identity {
				differ(o, "numbered by the database", yesNo(lc.identity), yesNo(pc.identity))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(union(lt.indexes, pt.indexes))) {
			o := schemaObject{table: name, index: key}
			li, lok := lt.indexes[key]
			pi, pok := pt.indexes[key]
			if !lok || !pok {
				differ(o, "index", present(lok), present(pok))
				continue
			}
			if !slices.Equal(li.columns, pi.columns) {
				differ(o, "columns", "("+strings.Join(li.columns, ", ")+")", "("+strings.Join(pi.columns, ", ")+")")
			}
			if !slices.Equal(li.collations, pi.collations) {
				differ(o, "collations", "("+strings.Join(li.collations, ", ")+")", "("+strings.Join(pi.collations, ", ")+")")
			}
			if li.unique != pi.unique {
				differ(o, "unique", yesNo(li.unique), yesNo(pi.unique))
			}
			if li.where != pi.where {
				differ(o, "WHERE", orNone(li.where), orNone(pi.where))
			}
			if li.method != pi.method {
				differ(o, "method", orNone(li.method), orNone(pi.method))
			}
		}
		lc, pc := checksByColumns(lt), checksByColumns(pt)
		for _, cols := range slices.Sorted(maps.Keys(union(lc, pc))) {
			if lc[cols] != pc[cols] {
				differ(schemaObject{table: name, column: cols}, "CHECK", orNone(lc[cols]), orNone(pc[cols]))
			}
		}
		for _, key := range slices.Sorted(maps.Keys(union(lt.foreignKeys, pt.foreignKeys))) {
			if lt.foreignKeys[key] != pt.foreignKeys[key] {
				differ(schemaObject{table: name, index: key}, "references", orNone(lt.foreignKeys[key]), orNone(pt.foreignKeys[key]))
			}
		}
	}
	for i, e := range m.exceptions {
		if !used[i] {
			diffs = append(diffs, fmt.Sprintf("exception %s: %s: sqlite %s, postgres %s: the schemas no longer differ so, remove it", e.schemaObject, e.aspect, e.sqlite, e.postgres))
		}
	}
	return diffs
}

// checksByColumns are a table's CHECK expressions by the columns they
// name ("a" or "(a, b)"; "" for none), several on the same columns joined
// by AND in order.
func checksByColumns(t *tableSchema) map[string]string {
	by := map[string][]string{}
	for _, c := range t.checks {
		c = normalExpr(c)
		var cols []string
		for _, tok := range sqlTokens(c) {
			if _, ok := t.columns[tok]; ok && !slices.Contains(cols, tok) {
				cols = append(cols, tok)
			}
		}
		slices.Sort(cols)
		key := strings.Join(cols, ", ")
		if len(cols) > 1 {
			key = "(" + key + ")"
		}
		by[key] = append(by[key], c)
	}
	out := map[string]string{}
	for key, list := range by {
		slices.Sort(list)
		out[key] = strings.Join(list, " AND ")
	}
	return out
}

func union[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func present(b bool) string {
	if b {
		return "has it"
	}
	return "has none"
}

func nullability(notNull bool) string {
	if notNull {
		return "NOT NULL"
	}
	return "NULL"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// sqliteAsCompared is SQLite's description s as compared: its
// expressions normalised (normalExpr) as the mapping does PostgreSQL's,
// and a primary key's columns NOT NULL, as in PostgreSQL, though SQLite
// lets a rowid table's key other than an INTEGER one hold NULL (a bug it
// keeps for compatibility); the store never writes a NULL key.
func sqliteAsCompared(s schema) schema {
	out := schema{}
	for name, t := range s {
		nt := newTable(t.view)
		out[name] = nt
		for col, c := range t.columns {
			c.dflt = normalExpr(c.dflt)
			nt.columns[col] = c
		}
		for _, col := range t.indexes[primaryKey].columns {
			c := nt.columns[col]
			c.notNull = true
			nt.columns[col] = c
		}
		for key, ix := range t.indexes {
			ix.columns = slices.Clone(ix.columns)
			for i, col := range ix.columns {
				ix.columns[i] = normalExpr(col)
			}
			ix.where = normalExpr(ix.where)
			nt.indexes[key] = ix
		}
		for _, check := range t.checks {
			nt.checks = append(nt.checks, normalExpr(check))
		}
		nt.foreignKeys = t.foreignKeys
	}
	return out
}

// schemaDiffs is every difference between the dialects' schemas under
// m, and m's entries that matched nothing.
func (m dialectMapping) schemaDiffs(sqlite, postgres schema) []string {
	mapped, stale := m.postgresAsSQLite(postgres)
	return append(stale, m.compareSchemas(sqliteAsCompared(sqlite), mapped)...)
}

// TestSchema migrates a SQLite database (in a temporary folder) and a
// PostgreSQL one (pgtest's cluster; under CI=true it must run) and
// compares their schemas.
func TestSchema(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	lite := openAndClose(t, t.TempDir()+"/regpulse.db", nil)
	pg := openPostgresTest(t)
	sqlite, err := readSQLiteSchema(ctx, lite.db.db)
	if err != nil {
		t.Fatal(err)
	}
	postgres, err := readPostgresSchema(ctx, pg.db.db)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("SameInBothDialects", func(t *testing.T) {
		for _, d := range mapping.schemaDiffs(sqlite, postgres) {
			t.Error(d)
		}
	})
	// Both readers read every kind of thing compared, so that the
	// comparison cannot pass because neither saw any of a kind.
	t.Run("ReadersSeeEachKind", func(t *testing.T) {
		if len(sqlite) < 30 || len(sqlite) != len(postgres) {
			t.Errorf("read %d SQLite tables and views and %d PostgreSQL ones, want all of them", len(sqlite), len(postgres))
		}
		mapped, _ := mapping.postgresAsSQLite(postgres)
		table := func(s schema, name string) *tableSchema {
			if t := s[name]; t != nil {
				return t
			}
			return newTable(false)
		}
		for _, probe := range []struct {
			name string
			got  func(s schema) string
			want string
		}{
			{"Type", func(s schema) string { return table(s, "users").columns["is_verified"].typ }, "INTEGER"},
			{"NotNull", func(s schema) string { return nullability(table(s, "users").columns["email"].notNull) }, "NOT NULL"},
			{"Null", func(s schema) string { return nullability(table(s, "users").columns["last_login_at"].notNull) }, "NULL"},
			{"Default", func(s schema) string { return table(s, "users").columns["role"].dflt }, "'user'"},
			{"FlagDefault", func(s schema) string { return table(s, "user_preferences").columns["email_notifications"].dflt }, "1"},
			{"Numbered", func(s schema) string { return yesNo(table(s, "obligation_status_history").columns["id"].identity) }, "yes"},
			{"PrimaryKey", func(s schema) string {
				return strings.Join(table(s, "alert_deliveries").indexes[primaryKey].columns, ", ")
			}, "alert_id, circular_id"},
			{"Unique", func(s schema) string { return yesNo(table(s, "users").indexes["unique (email_key)"].unique) }, "yes"},
			{"Descending", func(s schema) string { return strings.Join(table(s, "news").indexes["news_published"].columns, ", ") }, "published_date DESC, slug"},
			{"Collation", func(s schema) string {
				return strings.Join(table(s, "users").indexes["unique (email_key)"].collations, ", ")
			}, "BINARY"},
			{"PartialWhere", func(s schema) string { return table(s, "alerts").indexes["alerts_preferences"].where }, "kind = 'preferences'"},
			{"FlagWhere", func(s schema) string { return table(s, "alert_arrivals").indexes["alert_arrivals_unmatched"].where }, "matched = 0"},
			{"Check", func(s schema) string { return checksByColumns(table(s, "impact_records"))["compliance_score"] }, "compliance_score BETWEEN 0 AND 100"},
			{"CheckList", func(s schema) string { return checksByColumns(table(s, "users"))["role"] }, "role IN ('user', 'admin')"},
			{"ForeignKey", func(s schema) string { return table(s, "alerts").foreignKeys["foreign key (user_id)"] }, "users (id) ON DELETE CASCADE"},
			{"View", func(s schema) string { return yesNo(table(s, "obligations_shown").view) }, "yes"},
		} {
			t.Run(probe.name, func(t *testing.T) {
				if got := probe.got(sqliteAsCompared(sqlite)); got != probe.want {
					t.Errorf("sqlite: %q, want %q", got, probe.want)
				}
				if got := probe.got(mapped); got != probe.want {
					t.Errorf("postgres: %q, want %q", got, probe.want)
				}
			})
		}
	})
}

// schemaFixture is one table described as each reader describes it, the
// same under the mapping: a column of each kind, a primary key, a UNIQUE
// constraint, a descending partial index on a flag, CHECKs of a list
// and a range, and a foreign key.
func schemaFixture() (sqlite, postgres schema) {
	lite := newTable(false)
	lite.columns = map[string]columnSchema{
		"id":   {typ: "INTEGER", identity: true},
		"kind": {typ: "TEXT", notNull: true},
		"flag": {typ: "INTEGER", notNull: true, dflt: "0"},
		"list": {typ: "TEXT", notNull: true, dflt: "'[]'"},
		"n":    {typ: "INTEGER"},
		"note": {typ: "TEXT", notNull: true, dflt: "''"},
	}
	lite.indexes = map[string]indexSchema{
		primaryKey:    {columns: []string{"id"}, collations: []string{"BINARY"}, unique: true},
		"unique (n)":  {columns: []string{"n"}, collations: []string{"BINARY"}, unique: true},
		"t_kind":      {columns: []string{"kind", "n DESC"}, collations: []string{"BINARY", "BINARY"}, where: "flag = 0"},
		"t_positions": {columns: []string{`"position"`}, collations: []string{"BINARY"}},
	}
	lite.checks = []string{"kind IN ('a','b')", "n BETWEEN 0 AND 100"}
	lite.foreignKeys = map[string]string{"foreign key (kind)": "kinds (id) ON DELETE CASCADE"}

	pg := newTable(false)
	pg.columns = map[string]columnSchema{
		"id":   {typ: "bigint", notNull: true, identity: true},
		"kind": {typ: "text", notNull: true},
		"flag": {typ: "boolean", notNull: true, dflt: "false"},
		"list": {typ: "text", notNull: true, dflt: "'[]'::text"},
		"n":    {typ: "integer"},
		"note": {typ: "text", notNull: true, dflt: "''::text"},
		"rid":  {typ: "bigint", notNull: true, identity: true},
	}
	pg.indexes = map[string]indexSchema{
		primaryKey:     {columns: []string{"id"}, collations: []string{""}, unique: true},
		"unique (n)":   {columns: []string{"n"}, collations: []string{""}, unique: true},
		"t_kind":       {columns: []string{"kind", "n DESC"}, collations: []string{"C", ""}, where: "NOT flag"},
		"t_positions":  {columns: []string{`"position"`}, collations: []string{""}},
		"unique (rid)": {columns: []string{"rid"}, collations: []string{""}, unique: true},
	}
	pg.checks = []string{"kind = ANY (ARRAY['a'::text, 'b'::text])", "n >= 0 AND n <= 100"}
	pg.foreignKeys = map[string]string{"foreign key (kind)": "kinds (id) ON DELETE CASCADE"}
	return schema{"t": lite}, schema{"t": pg}
}

// fixtureMapping is the mapping's rules with the fixture's own
// PostgreSQL-only column and no exceptions.
func fixtureMapping() dialectMapping {
	m := mapping
	m.postgresOnly = []schemaObject{{table: "t", column: "rid"}, {table: "t", index: "unique (rid)"}}
	m.exceptions = nil
	return m
}

// TestCompareSchemas feeds the comparison the fixture with one thing
// changed on one side, of each kind compared: each is reported, naming
// the table, the column or index and both sides.
func TestCompareSchemas(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(lite, pg *tableSchema)
		m      func(*dialectMapping)
		want   []string
	}{
		{name: "Same", change: func(lite, pg *tableSchema) {}},
		{name: "Type", change: func(_, pg *tableSchema) { setColumn(pg, "n", func(c *columnSchema) { c.typ = "text" }) },
			want: []string{"t.n: type: sqlite INTEGER, postgres TEXT"}},
		{name: "TypeUnmapped", change: func(_, pg *tableSchema) { setColumn(pg, "n", func(c *columnSchema) { c.typ = "numeric" }) },
			want: []string{"t.n: type: sqlite INTEGER, postgres numeric"}},
		{name: "Nullability", change: func(_, pg *tableSchema) { setColumn(pg, "list", func(c *columnSchema) { c.notNull = false }) },
			want: []string{"t.list: nullability: sqlite NOT NULL, postgres NULL"}},
		{name: "NullablePrimaryKey", change: func(_, pg *tableSchema) { setColumn(pg, "id", func(c *columnSchema) { c.notNull = false }) },
			want: []string{"t.id: nullability: sqlite NOT NULL, postgres NULL"}},
		{name: "Default", change: func(_, pg *tableSchema) { setColumn(pg, "list", func(c *columnSchema) { c.dflt = "'{}'::text" }) },
			want: []string{"t.list: default: sqlite '[]', postgres '{}'"}},
		{name: "DefaultMissing", change: func(_, pg *tableSchema) { setColumn(pg, "note", func(c *columnSchema) { c.dflt = "" }) },
			want: []string{"t.note: default: sqlite '', postgres (none)"}},
		{name: "FlagDefault", change: func(_, pg *tableSchema) { setColumn(pg, "flag", func(c *columnSchema) { c.dflt = "true" }) },
			want: []string{"t.flag: default: sqlite 0, postgres 1"}},
		{name: "Numbered", change: func(lite, _ *tableSchema) { setColumn(lite, "id", func(c *columnSchema) { c.identity = false }) },
			want: []string{"t.id: numbered by the database: sqlite no, postgres yes"}},
		{name: "ColumnMissing", change: func(_, pg *tableSchema) { delete(pg.columns, "note") },
			want: []string{"t.note: column: sqlite has it, postgres has none"}},
		{name: "IndexColumns", change: func(_, pg *tableSchema) {
			setIndex(pg, "t_kind", func(ix *indexSchema) { ix.columns = []string{"kind", "n"} })
		},
			want: []string{"t index t_kind: columns: sqlite (kind, n DESC), postgres (kind, n)"}},
		{name: "IndexCollation", change: func(_, pg *tableSchema) {
			setIndex(pg, "t_kind", func(ix *indexSchema) { ix.collations[0] = "default" })
		},
			want: []string{"t index t_kind: collations: sqlite (BINARY, BINARY), postgres (default, BINARY)"}},
		{name: "IndexUnique", change: func(_, pg *tableSchema) { setIndex(pg, "t_kind", func(ix *indexSchema) { ix.unique = true }) },
			want: []string{"t index t_kind: unique: sqlite no, postgres yes"}},
		{name: "IndexWhere", change: func(_, pg *tableSchema) { setIndex(pg, "t_kind", func(ix *indexSchema) { ix.where = "flag" }) },
			want: []string{"t index t_kind: WHERE: sqlite flag = 0, postgres flag = 1"}},
		{name: "IndexWhereMissing", change: func(lite, _ *tableSchema) { setIndex(lite, "t_kind", func(ix *indexSchema) { ix.where = "" }) },
			want: []string{"t index t_kind: WHERE: sqlite (none), postgres flag = 0"}},
		{name: "IndexMethod", change: func(_, pg *tableSchema) { setIndex(pg, "t_kind", func(ix *indexSchema) { ix.method = "gin" }) },
			want: []string{"t index t_kind: method: sqlite (none), postgres gin"}},
		{name: "IndexMissing", change: func(lite, _ *tableSchema) { delete(lite.indexes, "t_kind") },
			want: []string{"t index t_kind: index: sqlite has none, postgres has it"}},
		{name: "UniqueMissing", change: func(_, pg *tableSchema) { delete(pg.indexes, "unique (n)") },
			want: []string{"t index unique (n): index: sqlite has it, postgres has none"}},
		{name: "PrimaryKey", change: func(_, pg *tableSchema) {
			setIndex(pg, primaryKey, func(ix *indexSchema) { ix.columns, ix.collations = []string{"id", "kind"}, []string{"", "C"} })
		}, want: []string{"t index primary key: columns: sqlite (id), postgres (id, kind)",
			"t index primary key: collations: sqlite (BINARY), postgres (BINARY, BINARY)"}},
		{name: "Check", change: func(_, pg *tableSchema) { pg.checks[0] = "kind = ANY (ARRAY['a'::text])" },
			want: []string{"t.kind: CHECK: sqlite kind IN ('a', 'b'), postgres kind IN ('a')"}},
		{name: "CheckMissing", change: func(_, pg *tableSchema) { pg.checks = pg.checks[:1] },
			want: []string{"t.n: CHECK: sqlite n BETWEEN 0 AND 100, postgres (none)"}},
		{name: "CheckRange", change: func(_, pg *tableSchema) { pg.checks[1] = "n >= 0 AND n <= 99" },
			want: []string{"t.n: CHECK: sqlite n BETWEEN 0 AND 100, postgres n BETWEEN 0 AND 99"}},
		{name: "CheckGrouped", change: func(lite, _ *tableSchema) { lite.checks[1] = "(n BETWEEN 0 AND 100)" },
			want: []string{"t.n: CHECK: sqlite (n BETWEEN 0 AND 100), postgres n BETWEEN 0 AND 100"}},
		{name: "CheckAdded", change: func(_, pg *tableSchema) { pg.checks = append(pg.checks, "length(note) < 10") },
			want: []string{"t.note: CHECK: sqlite (none), postgres length(note) < 10"}},
		{name: "ForeignKey", change: func(_, pg *tableSchema) { pg.foreignKeys["foreign key (kind)"] = "kinds (id)" },
			want: []string{"t index foreign key (kind): references: sqlite kinds (id) ON DELETE CASCADE, postgres kinds (id)"}},
		{name: "View", change: func(lite, _ *tableSchema) { lite.view = true },
			want: []string{"t: view: sqlite yes, postgres no"}},
		{name: "Exception", change: func(_, pg *tableSchema) { setColumn(pg, "list", func(c *columnSchema) { c.dflt = "'{}'::text" }) },
			m: func(m *dialectMapping) {
				m.exceptions = []schemaException{{schemaObject{table: "t", column: "list"}, "default", "'[]'", "'{}'"}}
			}},
		{name: "ExceptionStale", change: func(lite, pg *tableSchema) {},
			m: func(m *dialectMapping) {
				m.exceptions = []schemaException{{schemaObject{table: "t", column: "list"}, "default", "'[]'", "'{}'"}}
			}, want: []string{"exception t.list: default: sqlite '[]', postgres '{}': the schemas no longer differ so, remove it"}},
		{name: "PostgresOnlyStale", change: func(_, pg *tableSchema) { delete(pg.indexes, "unique (rid)") },
			want: []string{"postgresOnly t index unique (rid): not in PostgreSQL's schema"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sqlite, postgres := schemaFixture()
			tc.change(sqlite["t"], postgres["t"])
			m := fixtureMapping()
			if tc.m != nil {
				tc.m(&m)
			}
			if diff := cmp.Diff(tc.want, m.schemaDiffs(sqlite, postgres)); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("TableMissing", func(t *testing.T) {
		sqlite, postgres := schemaFixture()
		sqlite["u"], postgres["v"] = newTable(false), newTable(false)
		want := []string{"table u: only in sqlite", "table v: only in postgres"}
		if diff := cmp.Diff(want, fixtureMapping().schemaDiffs(sqlite, postgres)); diff != "" {
			t.Errorf("differences (-want +got):\n%s", diff)
		}
	})
}

func setColumn(t *tableSchema, name string, f func(*columnSchema)) {
	c := t.columns[name]
	f(&c)
	t.columns[name] = c
}

func setIndex(t *tableSchema, name string, f func(*indexSchema)) {
	ix := t.indexes[name]
	ix.collations = slices.Clone(ix.collations)
	f(&ix)
	t.indexes[name] = ix
}
