package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// Circular is a regulator's circular as the API lists it. Optional text
// fields are "" when absent.
type Circular struct {
	ID             string
	Slug           string
	CircularNumber string // "" when the regulator's reference is not known
	Title          string
	Content        string
	Summary        string // the API's stored summary if any, else the catalog's
	Source         string
	Category       string
	PublishedDate  time.Time
	ImpactLevel    string
	EntityImpact   []EntityImpact // in catalog.EntityTypes order
	OfficialURL    string
}

// EntityImpact is a circular's impact on one entity type.
type EntityImpact struct {
	EntityType  string
	ImpactLevel string
}

// CircularSort orders ListCirculars.
type CircularSort string

const (
	// SortDate is newest first.
	SortDate CircularSort = "date"
	// SortRelevance ranks by matches of the search term: 3 per match in the
	// title plus 1 per match in the content, then newest first. Without a
	// search it is SortDate.
	SortRelevance CircularSort = "relevance"
	// SortImpact is high impact first, then newest first.
	SortImpact CircularSort = "impact"
)

// CircularQuery selects circulars. Empty fields do not filter.
type CircularQuery struct {
	Source   string
	Category string
	Impact   string // the circular's impactLevel
	Search   string // case-insensitive substring of number, title, content, category or source
	Sort     CircularSort
	Limit    int // at least 1
}

// relevanceTitleWeight is how much more a match in the title counts than
// one in the content.
const relevanceTitleWeight = 3

// ListCirculars returns the circulars q selects, in q.Sort order (ties:
// newest first, then by slug).
func (s *DB) ListCirculars(ctx context.Context, q CircularQuery) ([]Circular, error) {
	query, args := circularsSQL(q)
	list := make([]Circular, 0, min(max(q.Limit, 0), 64))
	err := s.list(ctx, "ListCirculars", query, args, q.Limit, func(rows *sql.Rows) error {
		var c Circular
		var published, impact string
		if err := rows.Scan(&c.ID, &c.Slug, &c.CircularNumber, &c.Title, &c.Content, &c.Summary,
			&c.Source, &c.Category, &published, &c.ImpactLevel, &impact, &c.OfficialURL); err != nil {
			return err
		}
		var err error
		if c.PublishedDate, err = parseDate(published); err != nil {
			return err
		}
		if c.EntityImpact, err = parseEntityImpact(impact); err != nil {
			return fmt.Errorf("%s: %w", c.ID, err)
		}
		list = append(list, c)
		return nil
	})
	return list, err
}

// circularsSQL is ListCirculars' query, without its LIMIT.
func circularsSQL(q CircularQuery) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	b.WriteString(`SELECT c.id, c.slug, c.circular_number, c.title, c.content,
	COALESCE(NULLIF(s.summary, ''), c.summary), c.source, c.category, c.published_date,
	c.impact_level, c.entity_impact, c.official_url
FROM circulars c LEFT JOIN circular_summaries s ON s.circular_id = c.id
WHERE 1 = 1`)
	if q.Source != "" {
		b.WriteString(" AND c.source = ?")
		args = append(args, q.Source)
	}
	if q.Category != "" {
		b.WriteString(" AND c.category = ?")
		args = append(args, q.Category)
	}
	if q.Impact != "" {
		// impact_rank rather than impact_level: the same rows, and the
		// *_impact indexes serve the filter and sort=impact alike.
		b.WriteString(" AND c.impact_rank = ?")
		args = append(args, catalog.ImpactRank(q.Impact))
	}
	term := searchTerm(q.Search)
	if term != "" {
		b.WriteString(` AND (c.title_lc LIKE ? ESCAPE '\' OR c.content_lc LIKE ? ESCAPE '\' OR c.meta_lc LIKE ? ESCAPE '\')`)
		p := likeContains(term)
		args = append(args, p, p, p)
	}
	switch {
	case q.Sort == SortImpact:
		b.WriteString(" ORDER BY c.impact_rank, c.published_date DESC, c.slug")
	case q.Sort == SortRelevance && term != "":
		// Occurrences of term in x: (length(x) - length(replace(x, term, ''))) / length(term).
		n := utf8.RuneCountInString(term)
		fmt.Fprintf(&b, ` ORDER BY %d * ((length(c.title_lc) - length(replace(c.title_lc, ?, ''))) / %d)
	+ (length(c.content_lc) - length(replace(c.content_lc, ?, ''))) / %d DESC, c.published_date DESC, c.slug`,
			relevanceTitleWeight, n, n)
		args = append(args, term, term)
	default:
		b.WriteString(" ORDER BY c.published_date DESC, c.slug")
	}
	return b.String(), args
}

// encodeEntityImpact writes entity impact as the circulars.entity_impact
// column holds it: "PSP=high,Issuer=low", in catalog.EntityTypes order
// (unknown types last, by name). Types and levels are enumerations without
// ',' or '='.
func encodeEntityImpact(es []catalog.EntityImpact) string {
	rank := func(t string) int {
		if i := slices.Index(catalog.EntityTypes, t); i >= 0 {
			return i
		}
		return len(catalog.EntityTypes)
	}
	sorted := slices.Clone(es)
	slices.SortStableFunc(sorted, func(a, b catalog.EntityImpact) int {
		return cmp.Or(cmp.Compare(rank(a.EntityType), rank(b.EntityType)), strings.Compare(a.EntityType, b.EntityType))
	})
	parts := make([]string, len(sorted))
	for i, e := range sorted {
		parts[i] = e.EntityType + "=" + e.ImpactLevel
	}
	return strings.Join(parts, ",")
}

// parseEntityImpact reads the circulars.entity_impact column; the result
// is never nil.
func parseEntityImpact(s string) ([]EntityImpact, error) {
	out := []EntityImpact{}
	if s == "" {
		return out, nil
	}
	for part := range strings.SplitSeq(s, ",") {
		typ, level, ok := strings.Cut(part, "=")
		if !ok || typ == "" || level == "" {
			return nil, fmt.Errorf("stored entity impact %q", s)
		}
		out = append(out, EntityImpact{EntityType: typ, ImpactLevel: level})
	}
	return out, nil
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
	now := timeText(s.now())
	if _, err := tx.ExecContext(ctx, `INSERT INTO circular_summaries (circular_id, summary, created_at, updated_at)
VALUES (?, ?, ?, ?)
ON CONFLICT (circular_id) DO UPDATE SET summary = excluded.summary, updated_at = excluded.updated_at`,
		circularID, summary, now, now); err != nil {
		return fmt.Errorf("store: PutCircularSummary: %w", err)
	}
	return tx.Commit()
}

// circularTable maps catalog circulars onto the circulars table.
var circularTable = table[catalog.Circular]{
	name: "circulars",
	cols: []string{"id", "slug", "circular_number", "title", "content", "summary", "source", "category",
		"published_date", "impact_level", "impact_rank", "official_url", "entity_impact", "title_lc", "content_lc", "meta_lc",
		"content_hash"},
	id: func(c catalog.Circular) string { return c.ID },
	values: func(c catalog.Circular) ([]any, error) {
		return []any{c.ID, c.Slug, c.CircularNumber, c.Title, c.Content, c.Summary, c.Source, c.Category,
			c.PublishedDate.Format(dateLayout), c.ImpactLevel, catalog.ImpactRank(c.ImpactLevel), c.OfficialURL,
			encodeEntityImpact(c.EntityImpact), searchText(c.Title), searchText(c.Content), searchText(c.CircularNumber, c.Category, c.Source)}, nil
	},
	children: func(ctx context.Context, st *txStmts, c catalog.Circular) error {
		if err := st.exec(ctx, `DELETE FROM circular_entity_impact WHERE circular_id = ?`, c.ID); err != nil {
			return err
		}
		for _, e := range c.EntityImpact {
			if err := st.exec(ctx, `INSERT INTO circular_entity_impact (circular_id, entity_type, impact_level) VALUES (?, ?, ?)`,
				c.ID, e.EntityType, e.ImpactLevel); err != nil {
				return err
			}
		}
		return nil
	},
}
