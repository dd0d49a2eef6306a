package store

import (
	"context"
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
	// Directions are the Master Directions, Versions their versions,
	// Provisions the texts their provisions have had (provision_spans).
	Directions KindStats
	Versions   KindStats
	Provisions KindStats
	// Obligations are the ones editors wrote (circular_obligations).
	Obligations KindStats
	// Impact counts the impact tracking records by what the sync did.
	Impact KindStats
	// Reopened counts the organisations' decisions reopened because
	// their text changed (reopen.go).
	Reopened int
}

// KindStats counts the entries of one kind by what a sync did to them.
type KindStats struct {
	Added, Changed, Removed, Unchanged int
}

// touched reports whether a sync added, changed or removed any.
func (k KindStats) touched() bool { return k.Added+k.Changed+k.Removed > 0 }

func (k KindStats) String() string {
	return fmt.Sprintf("+%d ~%d -%d =%d", k.Added, k.Changed, k.Removed, k.Unchanged)
}

// String is a one-line summary for logs: +added ~changed -removed =unchanged.
func (s SyncStats) String() string {
	return fmt.Sprintf("circulars %s, news %s, companies %s, regulations %s, networks %s, sibos %s, impact records %s, obligations %s, master directions %s, their versions %s, provision texts %s, decisions reopened %d",
		s.Circulars, s.News, s.Companies, s.Regulations, s.Networks, s.Sibos, s.Impact, s.Obligations, s.Directions, s.Versions, s.Provisions, s.Reopened)
}

// SyncCatalog makes the catalog tables equal to cat in one transaction:
// entries added to, changed in and removed from content/ are inserted,
// rewritten and deleted; unchanged entries are not written. Data the API
// stores about an entry (circular_summaries) is keyed by the entry's stable
// id and never touched, so it survives any change of the entry, and its
// removal too (see migrations/00003). The impact tracking records are
// computed from the catalog as of now (impact.go). The organisations'
// decisions whose text changed reopen (reopen.go). On error nothing changes.
func (s *DB) SyncCatalog(ctx context.Context, cat *catalog.Catalog) (_ SyncStats, err error) {
	defer wrap(&err, "SyncCatalog")
	var stats SyncStats
	if cat == nil {
		return stats, errors.New("nil catalog")
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return stats, err
	}
	defer tx.Rollback()
	if s.db.d.syncLock != "" {
		if _, err := tx.ExecContext(ctx, s.db.d.syncLock); err != nil {
			return stats, fmt.Errorf("lock: %w", err)
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
		{"obligations", func() (KindStats, error) {
			return obligationTable.sync(ctx, tx, st, writtenObligations(cat.Circulars))
		}, &stats.Obligations},
		{"news", func() (KindStats, error) { return newsTable.sync(ctx, tx, st, cat.News) }, &stats.News},
		{"companies", func() (KindStats, error) { return companyTable.sync(ctx, tx, st, cat.Companies) }, &stats.Companies},
		{"regulations", func() (KindStats, error) { return regulationTable.sync(ctx, tx, st, cat.Regulations) }, &stats.Regulations},
		{"networks", func() (KindStats, error) { return networkTable.sync(ctx, tx, st, cat.Networks) }, &stats.Networks},
		{"sibos", func() (KindStats, error) { return sibosTable.sync(ctx, tx, st, cat.Sibos) }, &stats.Sibos},
		{"master directions", func() (KindStats, error) { return directionTable.sync(ctx, tx, st, cat.Directions) }, &stats.Directions},
		{"direction versions", func() (KindStats, error) {
			return versionTable.sync(ctx, tx, st, publishedVersions(cat.Directions))
		}, &stats.Versions},
		{"provision texts", func() (KindStats, error) { return spanTable.sync(ctx, tx, st, spanRows(cat.Directions)) }, &stats.Provisions},
		{"impact records", func() (KindStats, error) {
			return impactTable.sync(ctx, tx, st, impact.Records(cat.Circulars, s.now()))
		}, &stats.Impact},
	}
	for _, step := range steps {
		ks, err := step.run()
		if err != nil {
			return SyncStats{}, fmt.Errorf("%s: %w", step.name, err)
		}
		*step.into = ks
	}
	if stats.Directions.touched() || stats.Provisions.touched() {
		if err := stampProvisions(ctx, st); err != nil {
			return SyncStats{}, fmt.Errorf("search index: %w", err)
		}
	}
	if stats.Circulars.Added > 0 {
		if err := recordArrivals(ctx, tx, s.now()); err != nil {
			return SyncStats{}, fmt.Errorf("alert arrivals: %w", err)
		}
	}
	if stats.Versions.Added > 0 {
		if err := recordVersionArrivals(ctx, tx, s.now()); err != nil {
			return SyncStats{}, fmt.Errorf("direction version arrivals: %w", err)
		}
	}
	if err := logPublications(ctx, tx, st, cat, stats, s.now(), &syncEvents{s: s, tx: tx, cat: cat}); err != nil {
		return SyncStats{}, fmt.Errorf("publication log: %w", err)
	}
	if stats.Reopened, err = s.reopenDecisions(ctx, tx); err != nil {
		return SyncStats{}, fmt.Errorf("reopening decisions: %w", err)
	}
	if err := markSynced(ctx, tx, s.now()); err != nil {
		return SyncStats{}, fmt.Errorf("catalog status: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return SyncStats{}, err
	}
	if err := s.refreshSearchAfterWrite(ctx); err != nil {
		return stats, fmt.Errorf("search index: %w", err)
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
	// index, when set, keeps an index of the rows in step (the circulars'
	// full-text index): begun with every entry a sync adds or changes
	// before their rows are written, told after each chunk of them is;
	// removing runs before the rows of the ids a sync removes are deleted.
	index    func(ctx context.Context, st *txStmts, items []T) (rowIndex, error)
	removing func(ctx context.Context, st *txStmts, ids []string) error
}

// rowIndex is an index's work for one sync (table.index).
type rowIndex interface {
	// written indexes items[start:end] once their rows are written.
	written(ctx context.Context, start, end int) error
	// stop ends the work, done or not.
	stop()
}

// syncChunk is how many entries are written before an index is told.
const syncChunk = 1024

func (t table[T]) id(v T) string { return t.cols.value(v, "id").(string) }

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
	if t.removing != nil && len(removed) > 0 {
		if err := t.removing(ctx, st, removed); err != nil {
			return ks, err
		}
	}
	for _, id := range removed {
		if err := st.exec(ctx, "DELETE FROM "+t.name+" WHERE id = ?", id); err != nil {
			return ks, err
		}
		ks.Removed++
	}
	hashes, err := eachParallel(items, func(it T) (string, error) {
		var v any = it
		if t.hashed != nil {
			v = t.hashed(it)
		}
		h, err := entryHash(v)
		if err != nil {
			return "", fmt.Errorf("%s: %w", t.id(it), err)
		}
		return h, nil
	})
	if err != nil {
		return ks, err
	}
	var written []T
	var writtenHash []string
	for i, it := range items {
		prev, exists := stored[t.id(it)]
		switch {
		case !exists:
			ks.Added++
		case prev != hashes[i]:
			ks.Changed++
		default:
			ks.Unchanged++
			continue
		}
		written = append(written, it)
		writtenHash = append(writtenHash, hashes[i])
	}
	if len(written) == 0 {
		return ks, nil
	}
	var idx rowIndex
	if t.index != nil {
		if idx, err = t.index(ctx, st, written); err != nil {
			return ks, err
		}
		defer idx.stop()
	}
	cols := slices.Concat(t.cols.names, t.extra, []string{"content_hash"})
	rows := st.batch(func(n int) string { return upsertRowsSQL(t.name, cols, 1, n) }, len(cols))
	// Each row's values are made on every core while earlier rows are
	// written.
	positions := make([]int, len(written))
	for i := range positions {
		positions[i] = i
	}
	values := startAhead(ctx, positions, syncChunk, 2, func(i int) ([]any, error) {
		it := written[i]
		vals, err := t.cols.values(it)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.id(it), err)
		}
		if t.extraValues != nil {
			vals = append(vals, t.extraValues(it)...)
		}
		return append(vals, writtenHash[i]), nil
	})
	defer values.stop()
	for start := 0; start < len(written); start += syncChunk {
		end := min(len(written), start+syncChunk)
		chunk, err := values.take(ctx, start/syncChunk)
		if err != nil {
			return ks, err
		}
		for _, vals := range chunk {
			if err := rows.add(ctx, vals...); err != nil {
				return ks, err
			}
		}
		if err := rows.flush(ctx); err != nil {
			return ks, err
		}
		if idx != nil {
			if err := idx.written(ctx, start, end); err != nil {
				return ks, err
			}
		}
	}
	return ks, nil
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
