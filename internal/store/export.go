package store

import (
	"context"

	"regpulse/internal/catalog"
)

// ExportCirculars calls fn with every circular q selects, in q.Sort order,
// ignoring q.Page: the bulk download is the whole list, streamed row by row
// so a large catalog is never held in memory. An error from fn stops the
// export and is returned as it is.
func (s *DB) ExportCirculars(ctx context.Context, q catalog.CircularQuery, fn func(catalog.Circular) error) (err error) {
	defer wrap(&err, "ExportCirculars")
	query, args := circularsQuery(q).selectSQL()
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var c catalog.Circular
		if err := rows.Scan(circularColumns.targets(&c)...); err != nil {
			return err
		}
		if err := fn(c); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return nil
}
