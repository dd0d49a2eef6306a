package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"regpulse/internal/catalog"
)

// markSynced records in tx that the catalog was synced at t.
func markSynced(ctx context.Context, tx *txConn, t time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO catalog_status (id, synced_at) VALUES (1, ?)
ON CONFLICT (id) DO UPDATE SET synced_at = excluded.synced_at`, t.UTC().Format(time.RFC3339))
	return err
}

// CatalogFreshness says how current the stored catalog is: the newest
// circular's date and the time of the last successful sync.
func (s *DB) CatalogFreshness(ctx context.Context) (_ catalog.Freshness, err error) {
	defer wrap(&err, "CatalogFreshness")
	var f catalog.Freshness
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(published_date) FROM circulars`).Scan(optDateColumn{&f.NewestCircular}); err != nil {
		return f, err
	}
	var synced string
	err = s.db.QueryRowContext(ctx, `SELECT synced_at FROM catalog_status WHERE id = 1`).Scan(&synced)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return f, nil
	case err != nil:
		return f, err
	}
	if f.UpdatedAt, err = time.Parse(time.RFC3339, synced); err != nil {
		return f, err
	}
	return f, nil
}
