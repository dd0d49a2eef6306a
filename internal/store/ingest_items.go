package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/ingeststate"
)

// Ingest's identities and draft queue (ingest_items, migration 00041):
// every instrument and copy ingest has seen, looked up per arriving item
// by its indexes (IngestCandidates: a run never reads the whole table),
// written as items arrive. *DB is ingeststate.Items.

var _ ingeststate.Items = (*DB)(nil)

const ingestItemColumns = `id, source_name, source, link, link_key, ref_key, title_date_key, simhash, variant,
	canonical_id, title, published_date, status, file_path, draft, first_seen_at`

// IngestItems is every row, oldest first (for pull and the editor's
// lists; a run looks items up by IngestCandidates instead).
func (s *DB) IngestItems(ctx context.Context) (_ []ingeststate.Item, err error) {
	defer wrap(&err, "IngestItems")
	return s.ingestItemsWhere(ctx, "")
}

// IngestCandidates are the rows an arriving item with identity id may be
// a copy of, by any rule (its link; any of its reference keys; its title
// and date; a SimHash band: the Go side decides), and the first copies of
// those, oldest first: each found by an index, never by a scan.
func (s *DB) IngestCandidates(ctx context.Context, id ingeststate.Identity) (_ []ingeststate.Item, err error) {
	defer wrap(&err, "IngestCandidates")
	conds := []string{"link_key = ?"}
	args := []any{id.Link}
	if id.TitleDate != "" {
		conds, args = append(conds, "title_date_key = ?"), append(args, id.TitleDate)
	}
	if refs := strings.Fields(id.Ref); len(refs) > 0 {
		conds = append(conds, "id IN (SELECT item_id FROM ingest_item_refs WHERE ref IN (?"+strings.Repeat(", ?", len(refs)-1)+"))")
		for _, r := range refs {
			args = append(args, r)
		}
	}
	if id.SimHash != 0 {
		for n := range 4 {
			conds = append(conds, fmt.Sprintf("simhash_b%d = ?", n))
			args = append(args, simBand(id.SimHash, n))
		}
	}
	where := "(" + strings.Join(conds, " OR ") + ")"
	return s.ingestItemsWhere(ctx, "WHERE "+where+" OR id IN (SELECT canonical_id FROM ingest_items WHERE "+where+")",
		append(args, args...)...)
}

// HasIngestItems reports whether any row exists (none: the first run,
// which seeds the table from the content).
func (s *DB) HasIngestItems(ctx context.Context) (_ bool, err error) {
	defer wrap(&err, "HasIngestItems")
	var n int
	err = s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM ingest_items LIMIT 1) t").Scan(&n)
	return n > 0, err
}

func simBand(h uint64, n int) int64 { return int64(uint16(h >> (16 * n))) }

func (s *DB) ingestItemsWhere(ctx context.Context, where string, args ...any) ([]ingeststate.Item, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+ingestItemColumns+" FROM ingest_items "+where+" ORDER BY id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ingeststate.Item
	for rows.Next() {
		var it ingeststate.Item
		var ref sql.NullString
		var canonical sql.NullInt64
		var sim int64
		var date, seen string
		if err := rows.Scan(&it.ID, &it.Feed, &it.Source, &it.URL, &it.Link, &ref, &it.TitleDate, &sim, &it.Variant,
			&canonical, &it.Title, &date, &it.Status, &it.FilePath, &it.Draft, &seen); err != nil {
			return nil, err
		}
		it.Ref, it.CanonicalID, it.SimHash = ref.String, canonical.Int64, uint64(sim)
		if date != "" {
			if it.Date, err = time.Parse(time.DateOnly, date); err != nil {
				return nil, err
			}
		}
		if seen != "" {
			if it.FirstSeen, err = time.Parse(time.RFC3339Nano, seen); err != nil {
				return nil, err
			}
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// AddIngestItems inserts items in one transaction and returns their ids
// in order: 0 for an item whose link is already a row (left as it was)
// or that has no link (nothing to key it by).
func (s *DB) AddIngestItems(ctx context.Context, items []ingeststate.Item) (_ []int64, err error) {
	defer wrap(&err, "AddIngestItems")
	ids := make([]int64, len(items))
	if len(items) == 0 {
		return ids, nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	st := newTxStmts(tx)
	defer st.close()
	for i, it := range items {
		if it.Link == "" {
			continue
		}
		var ref sql.NullString
		if it.Ref != "" {
			ref = sql.NullString{String: it.Ref, Valid: true}
		}
		var canonical sql.NullInt64
		if it.CanonicalID != 0 {
			canonical = sql.NullInt64{Int64: it.CanonicalID, Valid: true}
		}
		variant := it.Variant
		if variant == "" {
			variant = "primary"
		}
		date := ""
		if !it.Date.IsZero() {
			date = dateText(it.Date)
		}
		seen := it.FirstSeen
		if seen.IsZero() {
			seen = s.now()
		}
		b := func(n int) any {
			if it.SimHash == 0 {
				return nil // no fingerprint: in no band
			}
			return simBand(it.SimHash, n)
		}
		row, err := st.queryRow(ctx, `INSERT INTO ingest_items (source_name, source, link, link_key, ref_key, title_date_key,
			simhash, simhash_b0, simhash_b1, simhash_b2, simhash_b3, variant, canonical_id, title, published_date, status,
			file_path, draft, first_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (link_key) DO NOTHING RETURNING id`,
			it.Feed, it.Source, it.URL, it.Link, ref, it.TitleDate, int64(it.SimHash), b(0), b(1), b(2), b(3), variant,
			canonical, it.Title, date, it.Status, it.FilePath, it.Draft, timeText(seen))
		if err != nil {
			return nil, err
		}
		switch err := row.Scan(&ids[i]); {
		case errors.Is(err, sql.ErrNoRows):
			ids[i] = 0
			continue
		case err != nil:
			return nil, err
		}
		for _, r := range strings.Fields(it.Ref) {
			if err := st.exec(ctx, "INSERT INTO ingest_item_refs (ref, item_id) VALUES (?, ?) ON CONFLICT DO NOTHING", r, ids[i]); err != nil {
				return nil, err
			}
		}
	}
	return ids, tx.Commit()
}

// SetIngestDraft replaces a draft's text (ingest added a link to it).
func (s *DB) SetIngestDraft(ctx context.Context, id int64, draft string) (err error) {
	defer wrap(&err, "SetIngestDraft")
	return s.expectOne(ctx, "UPDATE ingest_items SET draft = ? WHERE id = ?", draft, id)
}

// MarkIngestWritten records that the queued draft id is now the file path.
func (s *DB) MarkIngestWritten(ctx context.Context, id int64, path string) (err error) {
	defer wrap(&err, "MarkIngestWritten")
	return s.expectOne(ctx, "UPDATE ingest_items SET status = 'written', file_path = ? WHERE id = ? AND status = 'queued'", path, id)
}

// PendingIngestCopies are the copies whose "also published as" link waits
// for an editor, each with the file of its first copy.
func (s *DB) PendingIngestCopies(ctx context.Context) (_ []ingeststate.Item, err error) {
	defer wrap(&err, "PendingIngestCopies")
	all, err := s.IngestItems(ctx)
	if err != nil {
		return nil, err
	}
	file := map[int64]string{}
	for _, it := range all {
		file[it.ID] = it.FilePath
	}
	var out []ingeststate.Item
	for _, it := range all {
		if it.Status == ingeststate.StatusPending {
			it.FilePath = file[it.CanonicalID]
			out = append(out, it)
		}
	}
	return out, nil
}

// expectOne runs an update that must change exactly one row.
func (s *DB) expectOne(ctx context.Context, query string, args ...any) error {
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.Join(err, errors.New("no such row: "+strings.Fields(query)[1]))
	}
	return nil
}
