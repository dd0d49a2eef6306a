package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// circularColumns are a circular's fields as queries select them; the
// circulars table holds all but aiSummary (circularTable), which queries
// build from circular_summaries (aiSummarySQL).
var circularColumns = columnsOf[catalog.Circular]()

// circularSelect is circularColumns for FROM circularsFrom.
var circularSelect = circularColumns.selectList("c", map[string]string{"ai_summary": aiSummarySQL})

// circularsFrom joins each circular's stored summary in.
const circularsFrom = "circulars c LEFT JOIN circular_summaries s ON s.circular_id = c.id"

// aiSummarySQL is a circular's stored summary as the JSON object of a
// catalog.GeneratedSummary, or NULL.
const aiSummarySQL = `CASE WHEN s.circular_id IS NULL THEN NULL ELSE json_object('summary', s.summary,
	'provider', s.provider, 'model', s.model, 'generatedAt', s.updated_at) END`

// relevanceTitleWeight is how much more a match in the title counts than
// one in the content (catalog.SortRelevance).
const relevanceTitleWeight = 3

// ListCirculars returns the page of circulars q selects, in q.Sort order,
// and how many it selects in all. A summary the API stored for a circular
// (PutCircularSummary) is its AISummary, beside the editors' Summary.
func (s *DB) ListCirculars(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
	return listPage(ctx, s.db, circularColumns, circularsQuery(q), q.Page)
}

// circularsQuery is ListCirculars' query.
func circularsQuery(q catalog.CircularQuery) listQuery {
	lq := listQuery{
		op:        "ListCirculars",
		sel:       circularSelect,
		from:      circularsFrom,
		countFrom: "circulars c",
	}
	lq.where.eq("c.source", q.Source)
	lq.where.eq("c.category", q.Category)
	lq.where.eq("c.document_type", q.Type)
	lq.where.eq("c.verification", q.Verification)
	if q.Impact != "" {
		// impact_rank rather than impact_level: the same rows, and the
		// *_impact indexes serve the filter and sort=impact alike.
		lq.where.add("c.impact_rank = ?", catalog.ImpactRank(q.Impact))
	}
	term := searchTerm(q.Search)
	if term != "" {
		p := likeContains(term)
		// The text is stored once and lower-cased here (text_lower): a
		// second, lower-cased copy would double what a sync of a large
		// archive writes.
		lq.where.add(`(c.title_lc LIKE ? ESCAPE '\' OR text_lower(c.content) LIKE ? ESCAPE '\' OR c.meta_lc LIKE ? ESCAPE '\')`, p, p, p)
		lq.countEach = true
	}
	switch {
	case q.Sort == catalog.SortImpact:
		lq.order = "c.impact_rank, c.published_date DESC, c.slug"
	case q.Sort == catalog.SortRelevance && term != "":
		// Occurrences of term in x: (length(x) - length(replace(x, term, ''))) / length(term).
		n := utf8.RuneCountInString(term)
		lq.order = fmt.Sprintf(`%d * ((length(c.title_lc) - length(replace(c.title_lc, ?, ''))) / %d)
	+ (length(text_lower(c.content)) - length(replace(text_lower(c.content), ?, ''))) / %d DESC, c.published_date DESC, c.slug`,
			relevanceTitleWeight, n, n)
		lq.orderArgs = []any{term, term}
	default:
		lq.order = "c.published_date DESC, c.slug"
	}
	return lq
}

// Circular returns the circular with id, with its stored summary, or
// ErrNotFound.
func (s *DB) Circular(ctx context.Context, id string) (_ catalog.Circular, err error) {
	defer wrap(&err, "Circular")
	var c catalog.Circular
	err = s.db.QueryRowContext(ctx, "SELECT "+circularSelect+" FROM "+circularsFrom+" WHERE c.id = ?", id).
		Scan(circularColumns.targets(&c)...)
	if errors.Is(err, sql.ErrNoRows) {
		return c, ErrNotFound
	}
	if err != nil {
		return c, err
	}
	return c, nil
}

// CircularRefs names the circulars with the given slugs, by slug; a slug
// the store lacks is left out. (Cards name the circulars replacing theirs:
// catalog.WithReplacements.)
func (s *DB) CircularRefs(ctx context.Context, slugs []string) (_ map[string]catalog.CircularRef, err error) {
	defer wrap(&err, "CircularRefs")
	return circularRefs(ctx, s.db, "slug", slugs)
}

// CircularRefsByID names the circulars with the given ids, by id; an id
// the store lacks is left out. (The team pages name each decision's
// circular, a page of them at once, without reading their texts.)
func (s *DB) CircularRefsByID(ctx context.Context, ids []string) (_ map[string]catalog.CircularRef, err error) {
	defer wrap(&err, "CircularRefsByID")
	return circularRefs(ctx, s.db, "id", ids)
}

// circularRefs are the refs of the circulars whose column (slug or id)
// is one of keys, by that key, read in batches through q (the store, or
// a sync's transaction: reopen.go).
func circularRefs(ctx context.Context, q querier, column string, keys []string) (map[string]catalog.CircularRef, error) {
	out := map[string]catalog.CircularRef{}
	return out, inKeyBatches(keys, func(args []any) error {
		rows, err := q.QueryContext(ctx, `SELECT `+column+`, slug, circular_number, title FROM circulars WHERE `+column+` IN (`+placeholders(len(args))+`)`, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var ref catalog.CircularRef
			var key, number string
			if err := rows.Scan(&key, &ref.Slug, &number, &ref.Title); err != nil {
				return err
			}
			ref.CircularNumber = catalog.OptString(number)
			out[key] = ref
		}
		return rows.Err()
	})
}

// inKeyBatches calls read with keys, each once and sorted, as arguments
// of at most batchRows: the lookups by a list of keys (IN (...)) stay
// within every dialect's limit on a statement's parameters.
func inKeyBatches(keys []string, read func(args []any) error) error {
	keys = slices.Compact(slices.Sorted(slices.Values(keys)))
	for start := 0; start < len(keys); start += batchRows {
		part := keys[start:min(len(keys), start+batchRows)]
		args := make([]any, len(part))
		for i, k := range part {
			args[i] = k
		}
		if err := read(args); err != nil {
			return err
		}
	}
	return nil
}

// PutCircularSummary stores (or replaces) the API's summary of a circular,
// kept beside the editors' summary, never over it. It returns ErrNotFound
// when no circular has that id. Sync never deletes it.
func (s *DB) PutCircularSummary(ctx context.Context, circularID string, sum catalog.GeneratedSummary) (err error) {
	defer wrap(&err, "PutCircularSummary")
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := circularExists(ctx, tx, circularID); err != nil {
		return err
	}
	at, _ := timeColumn(sum.GeneratedAt).Value()
	if _, err := tx.ExecContext(ctx, `INSERT INTO circular_summaries (circular_id, summary, provider, model, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (circular_id) DO UPDATE SET summary = excluded.summary, provider = excluded.provider,
	model = excluded.model, updated_at = excluded.updated_at`,
		circularID, sum.Summary, sum.Provider, sum.Model, at, at); err != nil {
		return err
	}
	// Search finds a circular by the summary it is shown with.
	if err := reindexCircular(ctx, tx, circularID); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if err := s.refreshSearchAfterWrite(ctx); err != nil {
		return fmt.Errorf("search index: %w", err)
	}
	return nil
}

// circularExists is ErrNotFound when no circular has id.
func circularExists(ctx context.Context, tx *txConn, id string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM circulars WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}

// CircularSummaries returns every stored summary of a circular in the
// catalog, by circular id: what a build shows beside the editors' text.
func (s *DB) CircularSummaries(ctx context.Context) (_ map[string]catalog.GeneratedSummary, err error) {
	defer wrap(&err, "CircularSummaries")
	rows, err := s.db.QueryContext(ctx, "SELECT c.id, "+aiSummarySQL+" FROM "+circularsFrom+" WHERE s.circular_id IS NOT NULL")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]catalog.GeneratedSummary{}
	for rows.Next() {
		var id string
		var sum *catalog.GeneratedSummary
		if err := rows.Scan(&id, optObjectColumn{reflect.ValueOf(&sum).Elem()}); err != nil {
			return nil, err
		}
		out[id] = *sum
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// circularTable keeps the circulars, with the lower-cased copies search
// reads and the rank that orders impact levels.
var circularTable = table[catalog.Circular]{
	name:  "circulars",
	cols:  circularColumns.without("ai_summary"),
	extra: []string{"impact_rank", "title_lc", "meta_lc"},
	extraValues: func(c catalog.Circular) []any {
		return []any{catalog.ImpactRank(c.ImpactLevel), searchText(c.Title),
			searchText(string(c.CircularNumber), c.Category, c.Source)}
	},
	index:    beginCircularIndex,
	removing: unindexCirculars,
}
