package store

import (
	"context"

	"regpulse/internal/catalog"
)

// Obligations: the editors' (circular_obligations, a mirror of content
// the catalog sync writes), the AI layer's proposals
// (extracted_obligations, kept apart and never touched by sync), and
// obligations_shown, the view of both that every read goes through: a
// circular's extracted obligations show only while it has no written ones.
// Here: the editors' table, which the catalog sync keeps, and the reads
// of the obligations shown. The AI layer's are in obligations_extracted.go,
// a user's register in register.go, their statuses in
// obligation_statuses.go.

var obligationColumns = columnsOf[catalog.Obligation]()

// obligationTable keeps the editors' obligations in step with content.
var obligationTable = table[catalog.Obligation]{name: "circular_obligations", cols: obligationColumns}

// writtenObligations are the obligations editors wrote, of every
// circular: not those extracted, which a build's catalog carries on the
// circulars without written ones (generator: Options.Obligations, this
// store) and which are the extraction's rows.
func writtenObligations(cs []catalog.Circular) []catalog.Obligation {
	var out []catalog.Obligation
	for _, c := range cs {
		for _, o := range c.Obligations {
			if o.Origin != catalog.OriginExtracted {
				out = append(out, o)
			}
		}
	}
	return out
}

// obligationsOrder is due date first (undated last), then circular and
// position: the order of every list of obligations.
const obligationsOrder = "o.due_date IS NULL, o.due_date, o.circular_slug, o.position"

// CircularObligations returns the obligations shown for the circular
// circularID, in order (catalog.ErrNotFound for an unknown circular).
func (s *DB) CircularObligations(ctx context.Context, circularID string) (_ []catalog.Obligation, err error) {
	defer wrap(&err, "CircularObligations")
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM circulars WHERE id = ?`, circularID).Scan(&n); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, catalog.ErrNotFound
	}
	out := []catalog.Obligation{}
	err = s.eachObligation(ctx, "SELECT "+obligationColumns.selectList("o", nil)+
		" FROM obligations_shown o WHERE o.circular_id = ? ORDER BY o.position", []any{circularID},
		func(o catalog.Obligation) error { out = append(out, o); return nil })
	return out, err
}

// obligationsQuery is the list q selects.
func obligationsQuery(q catalog.ObligationQuery) listQuery {
	lq := listQuery{op: "ListObligations", sel: obligationColumns.selectList("o", nil), from: "obligations_shown o", order: obligationsOrder}
	if q.EntityType != "" {
		lq.where.add(`(o.applies_to LIKE ? OR o.applies_to LIKE ?)`, `%"`+q.EntityType+`"%`, `%"`+catalog.AllEntities+`"%`)
	}
	if q.DueAfter != nil {
		lq.where.add("o.due_date >= ?", q.DueAfter.String())
	}
	if q.DueBefore != nil {
		lq.where.add("o.due_date <= ?", q.DueBefore.String())
	}
	lq.where.eq("o.source", q.Source)
	lq.where.eq("o.origin", q.Origin)
	switch q.Binding {
	case "true":
		lq.where.add("o.binding = TRUE")
	case "false":
		lq.where.add("o.binding = FALSE")
	}
	return lq
}

// ListObligations returns the page of obligations q selects (by due date,
// undated last) and how many it selects in all.
func (s *DB) ListObligations(ctx context.Context, q catalog.ObligationQuery) ([]catalog.Obligation, int, error) {
	return listPage(ctx, s.db, obligationColumns, obligationsQuery(q), q.Page)
}

// ExportObligations calls fn with every obligation q selects, in the
// list's order, without paging.
func (s *DB) ExportObligations(ctx context.Context, q catalog.ObligationQuery, fn func(catalog.Obligation) error) (err error) {
	defer wrap(&err, "ExportObligations")
	query, args := obligationsQuery(q).selectSQL()
	return s.eachObligation(ctx, query, args, fn)
}

func (s *DB) eachObligation(ctx context.Context, query string, args []any, fn func(catalog.Obligation) error) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var o catalog.Obligation
		if err := rows.Scan(obligationColumns.targets(&o)...); err != nil {
			return err
		}
		if o.AppliesTo == nil {
			o.AppliesTo = catalog.TextList{}
		}
		if err := fn(o); err != nil {
			return err
		}
	}
	return rows.Err()
}
