package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// The circulars' full-text index (migrations/00008): an FTS5 table of the
// circulars' index keys (search.Index), kept in step by every sync
// (indexCirculars) and by stored summaries (PutCircularSummary), ranked
// with bm25() and search's column weights and tiers.

// indexCirculars (re)indexes circulars a sync wrote and records their words.
func indexCirculars(ctx context.Context, st *txStmts, cs []catalog.Circular) error {
	words := map[string]string{}
	for _, c := range cs {
		if err := indexCircular(ctx, st, c, words); err != nil {
			return fmt.Errorf("%s: index: %w", c.ID, err)
		}
	}
	return putWords(ctx, st, words)
}

// indexCircular replaces c's row in the index, with the summaries pages
// show (the editors' and a stored one), and adds its words to words.
func indexCircular(ctx context.Context, st *txStmts, c catalog.Circular, words map[string]string) error {
	// Only the rowid and the stored summary: reading c.summary from the
	// row would walk the overflow pages of its long text.
	row, err := st.queryRow(ctx, `SELECT c.rowid, COALESCE(s.summary, '')
FROM circulars c LEFT JOIN circular_summaries s ON s.circular_id = c.id WHERE c.id = ?`, c.ID)
	if err != nil {
		return err
	}
	var rowid int64
	var summary string
	if err := row.Scan(&rowid, &summary); err != nil {
		return err
	}
	// Pages show the editors' summary and the generated one beside it:
	// both are found.
	summary = strings.TrimSpace(string(c.Summary) + " " + summary)
	d := search.Index(c, summary)
	if st.tx.d.postgres {
		if err := putIndexRow(ctx, st, rowid, c.Source, c.Category, dateText(c.PublishedDate.Time), c.Slug, d); err != nil {
			return err
		}
		for _, w := range d.Words {
			words[w.Word] = w.Key
		}
		return nil
	}
	if err := st.exec(ctx, `DELETE FROM circular_search WHERE rowid = ?`, rowid); err != nil {
		return err
	}
	if err := st.exec(ctx, `INSERT INTO circular_search (rowid, number, title, summary, content) VALUES (?, ?, ?, ?, ?)`,
		rowid, d.Number, d.Title, d.Summary, d.Content); err != nil {
		return err
	}
	if err := st.exec(ctx, `INSERT INTO circular_search_rows (rid, source, category, published_date, slug) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (rid) DO UPDATE SET source = excluded.source, category = excluded.category,
	published_date = excluded.published_date, slug = excluded.slug`,
		rowid, c.Source, c.Category, dateText(c.PublishedDate.Time), c.Slug); err != nil {
		return err
	}
	for _, w := range d.Words {
		words[w.Word] = w.Key
	}
	return nil
}

// putWords records indexed words with their keys.
func putWords(ctx context.Context, st *txStmts, words map[string]string) error {
	for w, k := range words {
		if err := st.exec(ctx, `INSERT INTO search_words (word, key) VALUES (?, ?) ON CONFLICT (word) DO NOTHING`, w, k); err != nil {
			return err
		}
	}
	return nil
}

// reindexCircular indexes the stored circular with id again (its summary
// changed).
func reindexCircular(ctx context.Context, tx *txConn, id string) error {
	st := newTxStmts(tx)
	defer st.close()
	c, err := scanOne(ctx, tx, circularTable.cols, `SELECT `+circularTable.cols.selectList("", nil)+` FROM circulars WHERE id = ?`, id)
	if err != nil {
		return err
	}
	words := map[string]string{}
	if err := indexCircular(ctx, st, c, words); err != nil {
		return err
	}
	return putWords(ctx, st, words)
}

// scanOne reads one row of query into a T.
func scanOne[T any](ctx context.Context, tx *txConn, cols columns[T], query string, args ...any) (T, error) {
	var v T
	err := tx.QueryRowContext(ctx, query, args...).Scan(cols.targets(&v)...)
	if errors.Is(err, sql.ErrNoRows) {
		return v, ErrNotFound
	}
	return v, err
}

// Search runs a full-text search of the circulars (see package search for
// the rules): the page of q, the answer drawn from the best matches, the
// facet counts and any correction. With q.ByDate the page is the newest
// q.Limit circulars holding every term.
func (s *DB) Search(ctx context.Context, q search.Query) (search.Response, error) {
	p, err := search.Prepare(ctx, q, vocabulary{s.db, s.db.d.postgres})
	if err != nil {
		return search.Response{}, err
	}
	r, err := s.find(ctx, p)
	if err != nil {
		return search.Response{}, fmt.Errorf("store: Search: %w", err)
	}
	return search.Respond(p, r), nil
}

// ftsQuery renders a plan's parts in FTS5's query syntax. Every key is
// letters and digits only (search.Tokens), quoted all the same.
type ftsQuery struct {
	number, strong, all, any string
}

func newFTSQuery(p search.Plan) ftsQuery {
	var f ftsQuery
	if len(p.Number) > 0 {
		f.number = `{number} : "` + strings.Join(p.Number, " ") + `"`
	}
	groups := make([]string, 0, len(p.Terms))
	for _, t := range p.Terms {
		alts := make([]string, len(t.Keys))
		for i, k := range t.Keys {
			alts[i] = `"` + k + `"`
		}
		groups = append(groups, "("+strings.Join(alts, " OR ")+")")
	}
	if len(groups) > 0 {
		f.all = strings.Join(groups, " AND ")
		f.strong = "{number title summary} : (" + f.all + ")"
		f.any = strings.Join(groups, " OR ")
	}
	return f
}

// raw are the expressions of the tiers (search.TierNumber ...
// search.TierAny), "" for a tier the query has not; narrow leaves out the
// some-terms tier.
func (f ftsQuery) raw(narrow bool) []string {
	out := []string{f.number, f.strong, f.all}
	if !narrow && f.any != f.all {
		out = append(out, f.any)
	}
	return out
}

// tiers are the MATCH expressions of each tier, each without the rows of
// the tiers before it.
func (f ftsQuery) tiers(narrow bool) []string {
	var out, before []string
	for _, expr := range f.raw(narrow) {
		if expr == "" {
			out = append(out, "")
			continue
		}
		e := "(" + expr + ")"
		if len(before) > 0 {
			e += " NOT (" + strings.Join(before, " OR ") + ")"
		}
		out = append(out, e)
		before = append(before, "("+expr+")")
	}
	return out
}

// everything is the expression of every match.
func (f ftsQuery) everything(narrow bool) string {
	return everyMatch(" OR ", narrow, f.number, f.all, f.any)
}

// everyMatch joins, with a store's or, the expressions of the number's
// matches, of those holding all terms and (unless narrow) of those
// holding some.
func everyMatch(or string, narrow bool, number, all, some string) string {
	var parts []string
	for _, e := range []string{number, all} {
		if e != "" {
			parts = append(parts, "("+e+")")
		}
	}
	if !narrow && some != "" && some != all {
		parts = append(parts, "("+some+")")
	}
	return strings.Join(parts, or)
}

// bm25Weights are search's column weights in the index's column order.
var bm25Weights = fmt.Sprintf("%g, %g, %g, %g", search.WeightNumber, search.WeightTitle, search.WeightSummary, search.WeightContent)

// matches counts what a search matches (r.Total and r.Facets) and gives
// the expression of every match. Circulars holding only some terms are
// results only when too few hold them all (search.TierAny) and the query
// can widen (no circular number, more than one term): ranking every
// circular that holds any word of a question would cost the most and help
// the least. everything is a store's expression, narrow or wide; count
// counts an expression's matches. Both stores search this way.
func matches(p search.Plan, canWiden bool, everything func(narrow bool) string,
	count func(expr string) (search.Facets, int, error)) (r search.Results, expr string, narrow bool, err error) {
	narrow = true
	if expr = everything(narrow); expr == "" {
		return r, expr, narrow, nil
	}
	if r.Facets, r.Total, err = count(expr); err != nil {
		return r, expr, narrow, err
	}
	if !p.Query.ByDate && r.Total < search.PageSize && canWiden {
		narrow = false
		expr = everything(narrow)
		r.Facets, r.Total, err = count(expr)
	}
	return r, expr, narrow, err
}

func (s *DB) find(ctx context.Context, p search.Plan) (search.Results, error) {
	if s.db.d.postgres {
		return s.findPostgres(ctx, p)
	}
	f := newFTSQuery(p)
	r, _, narrow, err := matches(p, f.number == "" && f.any != f.all, f.everything,
		func(expr string) (search.Facets, int, error) { return s.facets(ctx, expr, p.Query) })
	if err != nil || r.Total == 0 {
		return r, err
	}
	var w where
	w.eq("r.source", p.Query.Source)
	w.eq("r.category", p.Query.Category)
	tiers := f.tiers(narrow)
	counts, err := s.tierCounts(ctx, f.raw(narrow), r.Total, w)
	if err != nil {
		return r, err
	}
	order := "m.tier, m.score, r.published_date DESC, r.slug"
	switch {
	case p.Query.ByDate:
		order = "r.published_date DESC, m.tier, m.score, r.slug"
	case p.Latest:
		// Newest first, but only among the strong matches: a date order
		// over everything that mentions UPI would bury the relevant ones.
		order = fmt.Sprintf("m.tier, CASE WHEN m.tier <= %d THEN r.published_date END DESC, m.score, r.published_date DESC, r.slug", search.TierStrong)
	}
	// hits ranks only the tiers the page falls in (all of them for the
	// date order): bm25() over every circular that holds a common word is
	// the search's largest cost, and the first page rarely needs more
	// than the strong matches. The order is decided over the narrow rows
	// table; only the page's circulars are read whole.
	hits := func(limit, offset int) ([]search.Hit, error) {
		var unions []string
		var args []any
		skip, start := -1, 0
		for tier, expr := range tiers {
			n := counts[tier]
			if expr == "" || n == 0 {
				continue
			}
			if p.Query.ByDate || (start+n > offset && start < offset+limit) {
				if skip < 0 {
					skip = start
				}
				unions = append(unions, fmt.Sprintf(`SELECT rowid AS rid, %d AS tier, bm25(circular_search, %s) AS score FROM circular_search WHERE circular_search MATCH ?`, tier, bm25Weights))
				args = append(args, expr)
			}
			start += n
		}
		if len(unions) == 0 {
			return nil, nil
		}
		query := `WITH m AS (` + strings.Join(unions, "\nUNION ALL\n") + `)
SELECT m.rid, m.tier FROM m JOIN circular_search_rows r ON r.rid = m.rid` + w.sql() + `
ORDER BY ` + order + ` LIMIT ? OFFSET ?`
		return s.hits(ctx, query, append(append(args, w.args...), limit, offset-skip)...)
	}
	return pageHits(r, p, hits)
}

// pageHits fills r with the hits p asks for, through hits(limit, offset)
// (one store's ranked query): the newest matches of a by-date query, or
// the page's hits and the answer's top sources. Both stores page alike.
func pageHits(r search.Results, p search.Plan, hits func(limit, offset int) ([]search.Hit, error)) (search.Results, error) {
	var err error
	if p.Query.ByDate {
		r.Hits, err = hits(max(p.Query.Limit, 1), 0)
		return r, err
	}
	page := max(p.Query.Page, 1)
	if r.Hits, err = hits(search.PageSize, (page-1)*search.PageSize); err != nil {
		return r, err
	}
	if page == 1 {
		r.Top = r.Hits[:min(len(r.Hits), search.AnswerSources)]
	} else if r.Top, err = hits(search.AnswerSources, 0); err != nil {
		return r, err
	}
	return r, nil
}

// tierCounts is how many circulars passing w each tier holds. Counting
// each tier by its own expression (with its NOTs) would cost a pass over
// every match per tier; the tiers so far, cumulatively (number; number or
// strong; ...), are mostly few, and all of them together are total.
func (s *DB) tierCounts(ctx context.Context, raw []string, total int, w where) ([]int, error) {
	counts := make([]int, len(raw))
	var so []string
	prev := 0
	for t, expr := range raw {
		if expr == "" {
			continue
		}
		so = append(so, "("+expr+")")
		cum := total
		if t < len(raw)-1 {
			q := `SELECT COUNT(*) FROM circular_search JOIN circular_search_rows r ON r.rid = circular_search.rowid WHERE circular_search MATCH ?`
			if len(w.conds) > 0 {
				q += " AND " + strings.Join(w.conds, " AND ")
			}
			if err := s.db.QueryRowContext(ctx, q, append([]any{strings.Join(so, " OR ")}, w.args...)...).Scan(&cum); err != nil {
				return nil, err
			}
		}
		counts[t] = cum - prev
		prev = cum
	}
	return counts, nil
}

// hits runs a query of (rowid, tier) rows and reads those circulars, in
// the query's order.
func (s *DB) hits(ctx context.Context, query string, args ...any) ([]search.Hit, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var rids []any
	tiers := map[int64]int{}
	for rows.Next() {
		var rid int64
		var tier int
		if err := rows.Scan(&rid, &tier); err != nil {
			return nil, err
		}
		rids = append(rids, rid)
		tiers[rid] = tier
	}
	if err := rows.Err(); err != nil || len(rids) == 0 {
		return nil, err
	}
	rows.Close()
	crows, err := s.db.QueryContext(ctx, `SELECT c.rowid, `+circularSelect+` FROM `+circularsFrom+`
WHERE c.rowid IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(rids)), ", ")+`)`, rids...)
	if err != nil {
		return nil, err
	}
	defer crows.Close()
	byRid := map[int64]catalog.Circular{}
	for crows.Next() {
		var rid int64
		var c catalog.Circular
		if err := crows.Scan(append([]any{&rid}, circularColumns.targets(&c)...)...); err != nil {
			return nil, err
		}
		byRid[rid] = c
	}
	if err := crows.Err(); err != nil {
		return nil, err
	}
	out := make([]search.Hit, 0, len(rids))
	for _, rid := range rids {
		out = append(out, search.Hit{Circular: byRid[rid.(int64)], Tier: tiers[rid.(int64)]})
	}
	return out, nil
}

// facets counts the matches of expr by source and by category, each with
// the other filter of q applied, and the matches of both filters.
func (s *DB) facets(ctx context.Context, expr string, q search.Query) (search.Facets, int, error) {
	return s.countFacets(ctx, `SELECT r.source, r.category, COUNT(*)
FROM circular_search JOIN circular_search_rows r ON r.rid = circular_search.rowid
WHERE circular_search MATCH ? GROUP BY r.source, r.category`, expr, q)
}

// countFacets runs query, counting matches of expr by source and
// category, into the facets of q.
func (s *DB) countFacets(ctx context.Context, query, expr string, q search.Query) (search.Facets, int, error) {
	f := search.Facets{Source: map[string]int{}, Category: map[string]int{}}
	rows, err := s.db.QueryContext(ctx, query, expr)
	if err != nil {
		return f, 0, err
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var src, cat string
		var n int
		if err := rows.Scan(&src, &cat, &n); err != nil {
			return f, 0, err
		}
		okSrc := q.Source == "" || q.Source == src
		okCat := q.Category == "" || q.Category == cat
		if okCat {
			f.Source[src] += n
		}
		if okSrc {
			f.Category[cat] += n
		}
		if okSrc && okCat {
			total += n
		}
	}
	return f, total, rows.Err()
}

// vocabulary answers search.Vocabulary from the index.
type vocabulary struct {
	db       querier
	postgres bool
}

func (v vocabulary) Docs(ctx context.Context, keys []string) (map[string]int, error) {
	if v.postgres {
		return pgDocs(ctx, v.db, keys)
	}
	out := map[string]int{}
	if len(keys) == 0 {
		return out, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	rows, err := v.db.QueryContext(ctx, `SELECT term, doc FROM circular_search_vocab WHERE term IN (`+
		strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: search vocabulary: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}

// prefixEnd is above every text that starts with a prefix, as a bound.
const prefixEnd = "\uffff"

func (v vocabulary) Prefixed(ctx context.Context, prefix string, n int) ([]search.Word, error) {
	return v.words(ctx, `SELECT word, key FROM search_words WHERE word >= ? AND word < ? ORDER BY length(word), word LIMIT ?`,
		prefix, prefix+prefixEnd, n)
}

func (v vocabulary) Near(ctx context.Context, first string, minLen, maxLen int) ([]search.Word, error) {
	return v.words(ctx, `SELECT word, key FROM search_words WHERE word >= ? AND word < ? AND length(word) BETWEEN ? AND ?`,
		first, first+prefixEnd, minLen, maxLen)
}

func (v vocabulary) words(ctx context.Context, query string, args ...any) ([]search.Word, error) {
	rows, err := v.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("store: search vocabulary: %w", err)
	}
	defer rows.Close()
	var out []search.Word
	for rows.Next() {
		var w search.Word
		if err := rows.Scan(&w.Word, &w.Key); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// SearchIndexSize is the bytes the full-text index and its word list
// take in the database (for operations and benchmarks).
func (s *DB) SearchIndexSize(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	if s.db.d.postgres {
		err := s.db.QueryRowContext(ctx, `SELECT pg_total_relation_size('circular_search') + pg_total_relation_size('search_words')`).Scan(&n)
		return n.Int64, err
	}
	err := s.db.QueryRowContext(ctx, `SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'circular_search%' OR name LIKE 'search_words%'`).Scan(&n)
	return n.Int64, err
}
