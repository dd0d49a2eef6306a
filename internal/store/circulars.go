package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

var circularColumns = columnsOf[catalog.Circular]()

// relevanceTitleWeight is how much more a match in the title counts than
// one in the content (catalog.SortRelevance).
const relevanceTitleWeight = 3

// ListCirculars returns the page of circulars q selects, in q.Sort order,
// and how many it selects in all. A summary the API stored for a circular
// (PutCircularSummary) replaces the catalog's.
func (s *DB) ListCirculars(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
	return listPage(ctx, s.db, circularColumns, circularsQuery(q), q.Page)
}

// circularsQuery is ListCirculars' query.
func circularsQuery(q catalog.CircularQuery) listQuery {
	lq := listQuery{
		op: "ListCirculars",
		sel: circularColumns.selectList("c", map[string]string{
			"summary": "COALESCE(NULLIF(s.summary, ''), c.summary)",
		}),
		from:      "circulars c LEFT JOIN circular_summaries s ON s.circular_id = c.id",
		countFrom: "circulars c",
	}
	lq.where.eq("c.source", q.Source)
	lq.where.eq("c.category", q.Category)
	lq.where.eq("c.document_type", q.Type)
	if q.Impact != "" {
		// impact_rank rather than impact_level: the same rows, and the
		// *_impact indexes serve the filter and sort=impact alike.
		lq.where.add("c.impact_rank = ?", catalog.ImpactRank(q.Impact))
	}
	term := searchTerm(q.Search)
	if term != "" {
		p := likeContains(term)
		lq.where.add(`(c.title_lc LIKE ? ESCAPE '\' OR c.content_lc LIKE ? ESCAPE '\' OR c.meta_lc LIKE ? ESCAPE '\')`, p, p, p)
		lq.countEach = true
	}
	switch {
	case q.Sort == catalog.SortImpact:
		lq.order = "c.impact_rank, c.published_date DESC, c.slug"
	case q.Sort == catalog.SortRelevance && term != "":
		// Occurrences of term in x: (length(x) - length(replace(x, term, ''))) / length(term).
		n := utf8.RuneCountInString(term)
		lq.order = fmt.Sprintf(`%d * ((length(c.title_lc) - length(replace(c.title_lc, ?, ''))) / %d)
	+ (length(c.content_lc) - length(replace(c.content_lc, ?, ''))) / %d DESC, c.published_date DESC, c.slug`,
			relevanceTitleWeight, n, n)
		lq.orderArgs = []any{term, term}
	default:
		lq.order = "c.published_date DESC, c.slug"
	}
	return lq
}

// PutCircularSummary stores (or replaces) the API's summary of a circular.
// It returns ErrNotFound when no circular has that id. Sync never deletes it.
func (s *DB) PutCircularSummary(ctx context.Context, circularID, summary string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var one int
	err = tx.QueryRowContext(ctx, `SELECT 1 FROM circulars WHERE id = ?`, circularID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("store: PutCircularSummary: %w", err)
	}
	now, _ := timeColumn(s.now()).Value()
	if _, err := tx.ExecContext(ctx, `INSERT INTO circular_summaries (circular_id, summary, created_at, updated_at)
VALUES (?, ?, ?, ?)
ON CONFLICT (circular_id) DO UPDATE SET summary = excluded.summary, updated_at = excluded.updated_at`,
		circularID, summary, now, now); err != nil {
		return fmt.Errorf("store: PutCircularSummary: %w", err)
	}
	// Search finds a circular by the summary it is shown with.
	if err := reindexCircular(ctx, tx, circularID); err != nil {
		return fmt.Errorf("store: PutCircularSummary: %w", err)
	}
	return tx.Commit()
}

// circularTable keeps the circulars, with the lower-cased copies search
// reads and the rank that orders impact levels.
var circularTable = table[catalog.Circular]{
	name:  "circulars",
	cols:  circularColumns,
	extra: []string{"impact_rank", "title_lc", "content_lc", "meta_lc"},
	extraValues: func(c catalog.Circular) []any {
		return []any{catalog.ImpactRank(c.ImpactLevel), searchText(c.Title), searchText(c.Content),
			searchText(string(c.CircularNumber), c.Category, c.Source)}
	},
	written: indexCirculars,
}
