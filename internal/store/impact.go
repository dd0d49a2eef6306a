package store

import (
	"context"
	"slices"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// Impact tracking records are computed by impact.Records from the catalog
// each sync holds (the same computation the generator's page uses) and kept
// here, so the API serves exactly what the page shows. A record's updated_at
// changes only when its values do.

var impactColumns = columnsOf[impact.Record]()

// impactTable keeps the records in the order of catalog.EntityTypes.
var impactTable = table[impact.Record]{
	name:  "impact_records",
	cols:  impactColumns,
	extra: []string{"position"},
	extraValues: func(r impact.Record) []any {
		return []any{slices.Index(catalog.EntityTypes, r.EntityType)}
	},
	// The time of computing is not part of a record's content.
	hashed: func(r impact.Record) any {
		r.UpdatedAt = time.Time{}
		return r
	},
}

// ImpactTracking returns one record per entity type, in the order PSP,
// Issuer, Aggregator. Before the first sync there are no circulars, and
// every type has the record of none.
func (s *DB) ImpactTracking(ctx context.Context) (_ []impact.Record, err error) {
	defer wrap(&err, "ImpactTracking")
	rows, err := s.db.QueryContext(ctx, "SELECT "+impactColumns.selectList("", nil)+" FROM impact_records ORDER BY position, entity_type")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []impact.Record{}
	for rows.Next() {
		var r impact.Record
		if err := rows.Scan(impactColumns.targets(&r)...); err != nil {
			return nil, err
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return impact.Records(nil, s.now()), nil
	}
	return list, nil
}
