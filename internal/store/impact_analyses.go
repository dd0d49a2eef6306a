package store

import (
	"context"
	"slices"

	"regpulse/internal/catalog"
)

var analysisColumns = columnsOf[catalog.ImpactAnalysis]()

// PutImpactAnalysis stores (or replaces) the API's impact analysis of a
// circular for an entity type. It returns ErrNotFound when no circular has
// a.CircularID. Sync never deletes it.
func (s *DB) PutImpactAnalysis(ctx context.Context, a catalog.ImpactAnalysis) (err error) {
	defer wrap(&err, "PutImpactAnalysis")
	vals, err := analysisColumns.values(a)
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := circularExists(ctx, tx, a.CircularID); err != nil {
		return err
	}
	// The key is (circular_id, entity_type), the first two columns.
	if _, err := tx.ExecContext(ctx, upsertKeySQL("circular_impact_analyses", analysisColumns.names, 2), vals...); err != nil {
		return err
	}
	return tx.Commit()
}

// ImpactAnalyses returns the stored impact analyses of a circular, in the
// order of catalog.EntityTypes.
func (s *DB) ImpactAnalyses(ctx context.Context, circularID string) (_ []catalog.ImpactAnalysis, err error) {
	defer wrap(&err, "ImpactAnalyses")
	rows, err := s.db.QueryContext(ctx, "SELECT "+analysisColumns.selectList("", nil)+
		" FROM circular_impact_analyses WHERE circular_id = ?", circularID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []catalog.ImpactAnalysis{}
	for rows.Next() {
		var a catalog.ImpactAnalysis
		if err := rows.Scan(analysisColumns.targets(&a)...); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b catalog.ImpactAnalysis) int {
		return slices.Index(catalog.EntityTypes, a.EntityType) - slices.Index(catalog.EntityTypes, b.EntityType)
	})
	return out, nil
}
