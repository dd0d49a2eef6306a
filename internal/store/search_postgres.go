package store

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"regpulse/internal/search"
)

// The circulars' full-text index on PostgreSQL (migrations/postgres):
// circular_search holds a tsvector per circular, written here from the
// same index keys as SQLite's FTS5 table (search.Index), weighted A for
// the number, B the title, C the summary, D the content, with a GIN index.
// The tiers are the same tsquery expressions restricted to weights
// (number: a phrase in A; strong: every term in A, B or C); within a tier
// circulars rank by each term's ts_rank times the term's rarity, as bm25
// does on SQLite. Keys are letters and digits only (search.Tokens), so a
// query is rendered straight into tsquery syntax and cast, not parsed by
// a text search configuration: both stores match the same keys.

// maxPosition is the largest word position a tsvector holds, and
// maxPositions the most positions it keeps per word.
const (
	maxPosition  = 16383
	maxPositions = 256
)

// tsvectorText renders d's columns as a tsvector literal. A gap between
// columns keeps a phrase from spanning two.
func tsvectorText(d search.Document) string {
	positions := map[string][]string{}
	pos := 1
	for i, col := range []string{d.Number, d.Title, d.Summary, d.Content} {
		weight := "ABCD"[i : i+1]
		for _, k := range strings.Fields(col) {
			p := positions[k]
			// Past the last position a word is kept once, so that it is
			// still found.
			if (pos <= maxPosition || len(p) == 0) && len(p) < maxPositions {
				positions[k] = append(p, strconv.Itoa(min(pos, maxPosition))+weight)
			}
			pos++
		}
		pos++
	}
	keys := make([]string, 0, len(positions))
	for k := range positions {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(tsLexeme(k))
		b.WriteByte(':')
		b.WriteString(strings.Join(positions[k], ","))
	}
	return b.String()
}

// tsLexeme quotes a key for tsvector and tsquery input.
func tsLexeme(k string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(k) + "'"
}

// putIndexRow writes a circular's row of the PostgreSQL index.
func putIndexRow(ctx context.Context, st *txStmts, rid int64, source, category, published, slug string, d search.Document) error {
	return st.exec(ctx, `INSERT INTO circular_search (rid, source, category, published_date, slug, doc)
VALUES (?, ?, ?, ?, ?, CAST(? AS tsvector))
ON CONFLICT (rid) DO UPDATE SET source = excluded.source, category = excluded.category,
	published_date = excluded.published_date, slug = excluded.slug, doc = excluded.doc`,
		rid, source, category, published, slug, tsvectorText(d))
}

// pgQuery is a plan's parts as tsquery text: the tiers' expressions and
// each term's own, "" for what the plan has not.
type pgQuery struct {
	number, strong, all, any string
	terms                    []string
}

func newPGQuery(p search.Plan) pgQuery {
	var q pgQuery
	if len(p.Number) > 0 {
		parts := make([]string, len(p.Number))
		for i, k := range p.Number {
			parts[i] = tsLexeme(k) + ":A"
		}
		q.number = strings.Join(parts, " <-> ")
	}
	var strong []string
	for _, t := range p.Terms {
		alts := make([]string, len(t.Keys))
		strongAlts := make([]string, len(t.Keys))
		for i, k := range t.Keys {
			alts[i] = tsLexeme(k)
			strongAlts[i] = tsLexeme(k) + ":ABC"
		}
		q.terms = append(q.terms, "("+strings.Join(alts, " | ")+")")
		strong = append(strong, "("+strings.Join(strongAlts, " | ")+")")
	}
	if len(q.terms) > 0 {
		q.all = strings.Join(q.terms, " & ")
		q.strong = strings.Join(strong, " & ")
		q.any = strings.Join(q.terms, " | ")
	}
	return q
}

// everything is the expression of every match (narrow: without the
// some-terms tier).
func (q pgQuery) everything(narrow bool) string {
	return everyMatch(" | ", narrow, q.number, q.all, q.any)
}

// rankWeights are search's column weights as ts_rank takes them: D, C, B,
// A, each at most 1.
var rankWeights = fmt.Sprintf("{%g, %g, %g, %g}", search.WeightContent/search.WeightNumber,
	search.WeightSummary/search.WeightNumber, search.WeightTitle/search.WeightNumber, 1.0)

// findPostgres is find on PostgreSQL: the same tiers, orders and pages.
func (s *DB) findPostgres(ctx context.Context, p search.Plan) (search.Results, error) {
	q := newPGQuery(p)
	r, expr, _, err := matches(p, q.number == "" && q.any != q.all, q.everything,
		func(expr string) (search.Facets, int, error) { return s.pgFacets(ctx, expr, p.Query) })
	if err != nil || r.Total == 0 {
		return r, err
	}
	// The tier of a match: the first of its tiers' expressions it holds.
	tier := "CASE"
	var args []any
	for t, e := range []string{q.number, q.strong, q.all} {
		if e != "" {
			tier += fmt.Sprintf(" WHEN r.doc @@ CAST(? AS tsquery) THEN %d", t)
			args = append(args, e)
		}
	}
	tier += fmt.Sprintf(" ELSE %d END", search.TierAny)
	score, scoreArgs, err := s.pgScore(ctx, q)
	if err != nil {
		return r, err
	}
	args = append(args, scoreArgs...)
	var w where
	w.add("r.doc @@ CAST(? AS tsquery)", expr)
	w.eq("r.source", p.Query.Source)
	w.eq("r.category", p.Query.Category)
	args = append(args, w.args...)
	order := "m.tier, m.score, r.published_date DESC, r.slug"
	switch {
	case p.Query.ByDate:
		order = "r.published_date DESC, m.tier, m.score, r.slug"
	case p.Latest:
		order = fmt.Sprintf("m.tier, CASE WHEN m.tier <= %d THEN r.published_date END DESC, m.score, r.published_date DESC, r.slug", search.TierStrong)
	}
	query := `WITH m AS (SELECT r.rid, ` + tier + ` AS tier, ` + score + ` AS score FROM circular_search r` + w.sql() + `)
SELECT m.rid, m.tier FROM m JOIN circular_search r ON r.rid = m.rid ORDER BY ` + order + ` LIMIT ? OFFSET ?`
	hits := func(limit, offset int) ([]search.Hit, error) {
		return s.hits(ctx, query, append(slices.Clone(args), limit, offset)...)
	}
	return pageHits(r, p, hits)
}

// pgScore is the ranking expression (lower is better, as bm25's): the sum
// over the terms of the term's weighted ts_rank times its rarity,
// log(1 + N / circulars holding it). ts_rank alone knows nothing of how
// common a word is, so a query's rare word would count no more than its
// common one.
func (s *DB) pgScore(ctx context.Context, q pgQuery) (string, []any, error) {
	if len(q.terms) == 0 {
		return "0", nil, nil
	}
	var n float64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM circular_search`).Scan(&n); err != nil {
		return "", nil, err
	}
	parts := make([]string, len(q.terms))
	args := make([]any, 0, 2*len(q.terms))
	for i, t := range q.terms {
		var docs float64
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM circular_search WHERE doc @@ CAST(? AS tsquery)`, t).Scan(&docs); err != nil {
			return "", nil, err
		}
		idf := math.Log(1 + n/max(docs, 1))
		// Normalisation 1 divides by 1 + log(length): a long circular
		// mentioning a word as often as a short one ranks lower.
		parts[i] = "ts_rank('" + rankWeights + "', r.doc, CAST(? AS tsquery), 1) * CAST(? AS float8)"
		args = append(args, t, idf)
	}
	return "-(" + strings.Join(parts, " + ") + ")", args, nil
}

// pgFacets is facets on PostgreSQL.
func (s *DB) pgFacets(ctx context.Context, expr string, q search.Query) (search.Facets, int, error) {
	return s.countFacets(ctx, `SELECT source, category, COUNT(*) FROM circular_search
WHERE doc @@ CAST(? AS tsquery) GROUP BY source, category`, expr, q)
}

// pgDocs answers search.Vocabulary's Docs from the index: how many
// circulars hold each key (GIN index look-ups).
func pgDocs(ctx context.Context, db querier, keys []string) (map[string]int, error) {
	out := map[string]int{}
	if len(keys) == 0 {
		return out, nil
	}
	parts := make([]string, len(keys))
	args := make([]any, 0, 2*len(keys))
	for i, k := range keys {
		parts[i] = `SELECT CAST(? AS text), COUNT(*) FROM circular_search WHERE doc @@ CAST(? AS tsquery)`
		args = append(args, k, tsLexeme(k))
	}
	rows, err := db.QueryContext(ctx, strings.Join(parts, " UNION ALL "), args...)
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
		if n > 0 {
			out[k] = n
		}
	}
	return out, rows.Err()
}
