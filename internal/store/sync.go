package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// SyncStats says what a sync changed, per kind of entry.
type SyncStats struct {
	Circulars   KindStats
	News        KindStats
	Companies   KindStats
	Regulations KindStats
	Networks    KindStats
	Sibos       KindStats
	// Impact counts the impact tracking records by what the sync did.
	Impact KindStats
}

// KindStats counts the entries of one kind by what a sync did to them.
type KindStats struct {
	Added, Changed, Removed, Unchanged int
}

func (k KindStats) String() string {
	return fmt.Sprintf("+%d ~%d -%d =%d", k.Added, k.Changed, k.Removed, k.Unchanged)
}

// String is a one-line summary for logs: +added ~changed -removed =unchanged.
func (s SyncStats) String() string {
	return fmt.Sprintf("circulars %s, news %s, companies %s, regulations %s, networks %s, sibos %s, impact records %s",
		s.Circulars, s.News, s.Companies, s.Regulations, s.Networks, s.Sibos, s.Impact)
}

// SyncCatalog makes the catalog tables equal to cat in one transaction:
// entries added to, changed in and removed from content/ are inserted,
// rewritten and deleted; unchanged entries are not written. Data the API
// stores about an entry (circular_summaries) is keyed by the entry's stable
// id and never touched, so it survives any change of the entry, and its
// removal too (see migrations/00003). The impact tracking records are
// computed from the catalog as of now (impact.go). On error nothing changes.
func (s *DB) SyncCatalog(ctx context.Context, cat *catalog.Catalog) (SyncStats, error) {
	var stats SyncStats
	if cat == nil {
		return stats, errors.New("store: SyncCatalog: nil catalog")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return stats, fmt.Errorf("store: SyncCatalog: %w", err)
	}
	defer tx.Rollback()
	if s.db.d.syncLock != "" {
		if _, err := tx.ExecContext(ctx, s.db.d.syncLock); err != nil {
			return stats, fmt.Errorf("store: SyncCatalog: lock: %w", err)
		}
	}
	st := newTxStmts(tx)
	defer st.close()

	steps := []struct {
		name string
		run  func() (KindStats, error)
		into *KindStats
	}{
		{"circulars", func() (KindStats, error) { return circularTable.sync(ctx, tx, st, cat.Circulars) }, &stats.Circulars},
		{"news", func() (KindStats, error) { return newsTable.sync(ctx, tx, st, cat.News) }, &stats.News},
		{"companies", func() (KindStats, error) { return companyTable.sync(ctx, tx, st, cat.Companies) }, &stats.Companies},
		{"regulations", func() (KindStats, error) { return regulationTable.sync(ctx, tx, st, cat.Regulations) }, &stats.Regulations},
		{"networks", func() (KindStats, error) { return networkTable.sync(ctx, tx, st, cat.Networks) }, &stats.Networks},
		{"sibos", func() (KindStats, error) { return sibosTable.sync(ctx, tx, st, cat.Sibos) }, &stats.Sibos},
		{"impact records", func() (KindStats, error) {
			return impactTable.sync(ctx, tx, st, impact.Records(cat.Circulars, s.now()))
		}, &stats.Impact},
	}
	for _, step := range steps {
		ks, err := step.run()
		if err != nil {
			return SyncStats{}, fmt.Errorf("store: SyncCatalog: %s: %w", step.name, err)
		}
		*step.into = ks
	}
	if err := tx.Commit(); err != nil {
		return SyncStats{}, fmt.Errorf("store: SyncCatalog: %w", err)
	}
	return stats, nil
}

// SyncContentDir loads the catalog from dir (catalog.Load) and syncs it.
// It is what the commands run at start and after each rebuild.
func (s *DB) SyncContentDir(ctx context.Context, dir string) (SyncStats, error) {
	cat, err := catalog.Load(dir)
	if err != nil {
		return SyncStats{}, err
	}
	return s.SyncCatalog(ctx, cat)
}

// table keeps one kind of entity in its table.
type table[T any] struct {
	name string
	cols columns[T]
	// extra are columns that are not fields of T (lower-cased copies for
	// search, sort keys), with extraValues giving their values.
	extra       []string
	extraValues func(T) []any
	// hashed, when set, is the part of an entity its content hash covers
	// (default: all of it).
	hashed func(T) any
	// written, when set, runs after a sync with the entries it added or
	// changed (the circulars' full-text index).
	written func(ctx context.Context, st *txStmts, items []T) error
}

func (t table[T]) id(v T) string { return t.cols.value(v, "id").(string) }

// hashVersion changes when the mapping of entries to rows changes, so the
// next sync rewrites every row.
const hashVersion = "regpulse-store-2\n"

// entryHash identifies an entry's content: the hash of its JSON.
func entryHash(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	h.Write([]byte(hashVersion))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sync makes t's rows equal to items.
func (t table[T]) sync(ctx context.Context, tx *txConn, st *txStmts, items []T) (KindStats, error) {
	var ks KindStats
	stored, err := t.hashes(ctx, tx)
	if err != nil {
		return ks, err
	}
	ids := make(map[string]bool, len(items))
	for _, it := range items {
		id := t.id(it)
		if ids[id] {
			return ks, fmt.Errorf("duplicate id %s", id)
		}
		ids[id] = true
	}
	// Removed entries go first, so nothing new can collide with them.
	var removed []string
	for id := range stored {
		if !ids[id] {
			removed = append(removed, id)
		}
	}
	slices.Sort(removed)
	for _, id := range removed {
		if err := st.exec(ctx, "DELETE FROM "+t.name+" WHERE id = ?", id); err != nil {
			return ks, err
		}
		ks.Removed++
	}
	var written []T
	for _, it := range items {
		id := t.id(it)
		var hashed any = it
		if t.hashed != nil {
			hashed = t.hashed(it)
		}
		h, err := entryHash(hashed)
		if err != nil {
			return ks, fmt.Errorf("%s: %w", id, err)
		}
		prev, exists := stored[id]
		switch {
		case !exists:
			ks.Added++
		case prev != h:
			ks.Changed++
		default:
			ks.Unchanged++
			continue
		}
		if err := t.write(ctx, st, it, h); err != nil {
			return ks, fmt.Errorf("%s: %w", id, err)
		}
		written = append(written, it)
	}
	if t.written != nil && len(written) > 0 {
		if err := t.written(ctx, st, written); err != nil {
			return ks, err
		}
	}
	return ks, nil
}

// write inserts or overwrites v's row, with its content hash.
func (t table[T]) write(ctx context.Context, st *txStmts, v T, hash string) error {
	vals, err := t.cols.values(v)
	if err != nil {
		return err
	}
	if t.extraValues != nil {
		vals = append(vals, t.extraValues(v)...)
	}
	upsert := upsertSQL(t.name, slices.Concat(t.cols.names, t.extra, []string{"content_hash"}))
	return st.exec(ctx, upsert, append(vals, hash)...)
}

// hashes reads the stored content hash of every row, by id.
func (t table[T]) hashes(ctx context.Context, tx *txConn) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id, content_hash FROM "+t.name)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string]string{}
	for rows.Next() {
		var id, h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		m[id] = h
	}
	return m, rows.Err()
}
