package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"regpulse/internal/search"
	"regpulse/internal/search/index"
)

// Searching the circulars: the index of circular_terms and search_words
// (written by search_index.go) is read into memory once
// (internal/search/index, the same on both stores) and kept in step by
// search_version: before each search the store reads the version, and
// when another instance (or this one) changed the index it applies the
// rows stamped since. Only the page's circulars are read from the
// database, and only those no search read since they last changed
// (search_circulars.go).

// searchState is the store's in-memory index and the version it holds.
type searchState struct {
	mu  sync.Mutex // one load or refresh at a time
	cur atomic.Pointer[loadedIndex]
	// snapshot opens the snapshot the first load starts from, if usable
	// (WithSearchSnapshot); nil once tried, or when there is none.
	snapshot     func() (*index.Index, index.Stamp, error)
	snapshotName string
	log          *slog.Logger
	// circulars are the circulars searches returned (search_circulars.go).
	circulars circularCache
}

// WithSearchSnapshot makes the first load of the search index start from
// the snapshot at path (written by WriteSearchSnapshot, shipped beside a
// function) and read from the store only the rows changed since it was
// written. A snapshot of another generation of the database, newer than
// the database, of another format or whose checksum does not match is
// ignored, with a warning on log, and the index is read from the store
// as without one. "" starts from the store.
func WithSearchSnapshot(path string, log *slog.Logger) Option {
	return func(s *DB) {
		if path == "" {
			return
		}
		s.search.snapshot = func() (*index.Index, index.Stamp, error) { return index.OpenSnapshotFile(path) }
		s.search.snapshotName, s.search.log = path, log
	}
}

// WithSearchSnapshotData is WithSearchSnapshot of a snapshot mapped
// privately from a file (built into the binary: index.OpenMappedSnapshot,
// never data on the heap), called name in the log; empty data is none.
func WithSearchSnapshotData(name string, data []byte, log *slog.Logger) Option {
	return func(s *DB) {
		if len(data) == 0 {
			return
		}
		s.search.snapshot = func() (*index.Index, index.Stamp, error) {
			idx, st, err := index.OpenMappedSnapshot(data)
			if err != nil {
				err = fmt.Errorf("%s: %w", name, err)
			}
			return idx, st, err
		}
		s.search.snapshotName, s.search.log = name, log
	}
}

type loadedIndex struct {
	idx        *index.Index
	generation string
	version    int64
	// problems are the rows the index could not read (a defect of
	// whoever wrote them); every other circular is searched all the same.
	problems error
}

// Search runs a full-text search of the circulars (see package search for
// the rules and package index for how it is run): the page of q, the
// answer drawn from the best matches, the facet counts and any
// correction. With q.ByDate the page is the newest q.Limit circulars
// holding every term.
func (s *DB) Search(ctx context.Context, q search.Query) (_ search.Response, err error) {
	defer wrap(&err, "Search")
	if err := q.Check(); err != nil {
		return search.Response{}, err
	}
	stamp, err := s.storedSearchVersion(ctx)
	if err != nil {
		return search.Response{}, err
	}
	idx, err := s.searchIndexAt(ctx, stamp)
	if err != nil {
		return search.Response{}, err
	}
	p, err := search.Prepare(ctx, q, idx)
	if err != nil {
		return search.Response{}, err
	}
	// The provisions are searched beside the circulars, on another core
	// when one is free.
	type provisionsFound struct {
		hits []search.Hit
		err  error
	}
	provisions := make(chan provisionsFound, 1)
	go func() {
		hits, err := s.searchProvisions(ctx, stamp, p)
		provisions <- provisionsFound{hits, err}
	}()
	found := idx.Find(p)
	r := search.Results{Total: found.Total, Facets: found.Facets}
	keys := make([]int64, 0, len(found.Hits)+len(found.Top))
	for _, m := range append(found.Hits, found.Top...) {
		keys = append(keys, m.Key)
	}
	byKey, err := s.circularsByKey(ctx, stamp, keys)
	pf := <-provisions
	if err = errors.Join(err, pf.err); err != nil {
		return search.Response{}, err
	}
	r.Provisions = pf.hits
	hits := func(ms []index.Match) []search.Hit {
		var out []search.Hit
		for _, m := range ms {
			// A circular removed since the index was read is left out.
			if c, ok := byKey[m.Key]; ok {
				out = append(out, search.Hit{Circular: c.c, Stamp: c.stamp, Tier: m.Tier})
			}
		}
		return out
	}
	r.Hits, r.Top = hits(found.Hits), hits(found.Top)
	return search.Respond(p, r), nil
}

// LoadSearchIndex reads the search index into memory now, rather than at
// the first search, and says how large it is: servers call it at start.
// Rows the index could not read are an error too, with the stats of
// the rest.
func (s *DB) LoadSearchIndex(ctx context.Context) (_ index.Stats, err error) {
	defer wrap(&err, "LoadSearchIndex")
	idx, err := s.searchIndex(ctx)
	if err != nil {
		return index.Stats{}, err
	}
	if p := s.search.cur.Load().problems; p != nil {
		return idx.Stats(), fmt.Errorf("%w", p)
	}
	return idx.Stats(), nil
}

// WarmSearch reads the search index, then the provisions', in the
// background, so that the first search does not wait for them (a
// server's start), and logs their size or what went wrong.
func (s *DB) WarmSearch(ctx context.Context, log *slog.Logger) {
	go func() {
		start := time.Now()
		st, err := s.LoadSearchIndex(ctx)
		if err != nil {
			log.Error("search index: some circulars cannot be searched", "err", err)
			if st.Docs == 0 {
				return
			}
		}
		log.Info("search index read", "circulars", st.Docs, "keys", st.Keys, "postings", st.Postings,
			"MB", st.Bytes>>20, "took", time.Since(start).Round(time.Millisecond))
		start = time.Now()
		n, err := s.LoadProvisionIndex(ctx)
		if err != nil {
			log.Error("search index: the Master Directions' provisions cannot be searched", "err", err)
			return
		}
		log.Info("search index of provisions read", "in force", n, "took", time.Since(start).Round(time.Millisecond))
	}()
}

// searchIndex is the in-memory index of the circulars, brought up to the
// stored version (searchIndexAt).
func (s *DB) searchIndex(ctx context.Context) (*index.Index, error) {
	stamp, err := s.storedSearchVersion(ctx)
	if err != nil {
		return nil, err
	}
	return s.searchIndexAt(ctx, stamp)
}

// searchIndexAt is the in-memory index of the circulars, brought up to
// stamp: loaded whole the first time (or when the database was rebuilt),
// else given the rows stamped since. While another search refreshes it,
// a search answers from the index as it is.
func (s *DB) searchIndexAt(ctx context.Context, stamp searchStamp) (*index.Index, error) {
	gen, version := stamp.generation, stamp.version
	cur := s.search.cur.Load()
	if cur != nil && cur.generation == gen && cur.version == version {
		return cur.idx, nil
	}
	if cur != nil {
		if !s.search.mu.TryLock() {
			return cur.idx, nil
		}
	} else {
		s.search.mu.Lock()
	}
	defer s.search.mu.Unlock()
	if err := s.refreshSearch(ctx, gen, version); err != nil {
		return nil, err
	}
	return s.search.cur.Load().idx, nil
}

// refreshSearch brings the index to version of generation gen; the caller
// holds s.search.mu.
func (s *DB) refreshSearch(ctx context.Context, gen string, version int64) error {
	cur := s.search.cur.Load()
	if cur != nil && cur.generation == gen && cur.version >= version {
		return nil
	}
	if cur == nil && s.search.snapshot != nil {
		idx, since := s.openSearchSnapshot(gen, version)
		s.search.snapshot = nil // one try: a later reload reads the store
		if idx != nil {
			_, problems, err := s.applySearchRows(ctx, idx, since)
			if err != nil {
				return err
			}
			s.search.circulars.reset(gen, version)
			s.search.cur.Store(&loadedIndex{idx: idx, generation: gen, version: version, problems: problems})
			return nil
		}
	}
	if cur == nil || cur.generation != gen || cur.version > version {
		idx := index.New()
		_, problems, err := s.applySearchRows(ctx, idx, -1)
		if err != nil {
			return err
		}
		s.search.circulars.reset(gen, version)
		s.search.cur.Store(&loadedIndex{idx: idx, generation: gen, version: version, problems: problems})
		return nil
	}
	changed, problems, err := s.applySearchRows(ctx, cur.idx, cur.version)
	if err != nil {
		return err
	}
	s.search.circulars.changed(changed, version)
	s.search.cur.Store(&loadedIndex{idx: cur.idx, generation: gen, version: version,
		problems: errors.Join(cur.problems, problems)})
	return nil
}

// openSearchSnapshot opens the store's snapshot, when it is of generation
// gen and no newer than version: the index it holds and the version it
// was written at (the rows stamped after it are still to apply). Else it
// logs why the snapshot is ignored and returns nil.
func (s *DB) openSearchSnapshot(gen string, version int64) (*index.Index, int64) {
	log := s.search.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path := s.search.snapshotName
	start := time.Now()
	idx, st, err := s.search.snapshot()
	switch {
	case err != nil:
		log.Warn("search index snapshot ignored: the index is read from the database", "err", err)
		return nil, 0
	case st.Generation != gen:
		log.Warn("search index snapshot ignored: written from another generation of the database (rebuilt or migrated since)",
			"path", path, "snapshot", st.Generation, "database", gen)
		return nil, 0
	case st.Version > version:
		log.Warn("search index snapshot ignored: newer than the database", "path", path,
			"snapshot version", st.Version, "database version", version)
		return nil, 0
	}
	log.Info("search index snapshot opened", "path", path, "version", st.Version, "database version", version,
		"took", time.Since(start).Round(time.Microsecond))
	return idx, st.Version
}

// WriteSearchSnapshot writes the search index, brought up to date, as a
// snapshot at path (replacing it whole or not at all), stamped with the
// database's generation and the index's version, for WithSearchSnapshot.
// An index some circulars' rows could not be read into is not written:
// a process starting from it would never read them.
func (s *DB) WriteSearchSnapshot(ctx context.Context, path string) (_ index.Stamp, _ index.Stats, err error) {
	defer wrap(&err, "WriteSearchSnapshot")
	stamp, err := s.storedSearchVersion(ctx)
	if err != nil {
		return index.Stamp{}, index.Stats{}, err
	}
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	if err := s.refreshSearch(ctx, stamp.generation, stamp.version); err != nil {
		return index.Stamp{}, index.Stats{}, err
	}
	cur := s.search.cur.Load()
	if cur.problems != nil {
		return index.Stamp{}, index.Stats{}, fmt.Errorf("some circulars cannot be searched: %w", cur.problems)
	}
	st := index.Stamp{Generation: cur.generation, Version: cur.version}
	if err := cur.idx.WriteSnapshotFile(path, st); err != nil {
		return index.Stamp{}, index.Stats{}, err
	}
	return st, cur.idx.Stats(), nil
}

// refreshSearchAfterWrite brings a loaded index up to date after this
// store changed it, so that the change shows in the next search.
func (s *DB) refreshSearchAfterWrite(ctx context.Context) error {
	if s.search.cur.Load() == nil {
		return nil // loaded, up to date, at the first search
	}
	stamp, err := s.storedSearchVersion(ctx)
	if err != nil {
		return err
	}
	if s.provisions.cur.Load() != nil {
		if _, err := s.provisionIndex(ctx, stamp); err != nil {
			return err
		}
	}
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	return s.refreshSearch(ctx, stamp.generation, stamp.version)
}

// searchStamp is search_version: the database's generation, the version
// of the last change to the index, and that of the last change to the
// Master Directions' provisions (search_provisions.go).
type searchStamp struct {
	generation          string
	version, provisions int64
}

func (s *DB) storedSearchVersion(ctx context.Context) (st searchStamp, err error) {
	err = s.db.QueryRowContext(ctx, `SELECT generation, version, provisions FROM search_version WHERE id = 1`).Scan(
		&st.generation, &st.version, &st.provisions)
	return st, err
}

// loadChunk is how many documents are applied to the index at once.
const loadChunk = 4096

// applySearchRows applies to idx the rows of the index stamped after
// version (-1: every row, skipping removed ones). changed are the keys of
// the rows read (none for -1). problems are the rows idx could not read;
// it applied the others.
func (s *DB) applySearchRows(ctx context.Context, idx *index.Index, version int64) (changed []int64, problems, err error) {
	query := `SELECT rid, source, category, published_date, slug, terms FROM circular_terms WHERE version > ?`
	if version < 0 {
		query += ` AND terms IS NOT NULL`
	}
	rows, err := s.db.QueryContext(ctx, query, version)
	if err != nil {
		return nil, nil, fmt.Errorf("search index: %w", err)
	}
	defer rows.Close()
	// The rows are read while the index takes the chunks read before:
	// reading and indexing cost about the same at a cold start.
	var removed []int64
	chunks := make(chan []index.Doc, 2)
	applied := make(chan []error, 1)
	go func() {
		var errs []error
		for docs := range chunks {
			if err := idx.Apply(docs, nil, nil); err != nil {
				errs = append(errs, err)
			}
		}
		applied <- errs
	}()
	errs, err := func() ([]error, error) {
		defer func() { close(chunks) }()
		var docs []index.Doc
		for rows.Next() {
			var d index.Doc
			if err := rows.Scan(&d.Key, &d.Source, &d.Category, &d.Date, &d.Slug, &d.Terms); err != nil {
				return nil, err
			}
			if version >= 0 {
				changed = append(changed, d.Key)
			}
			if d.Terms == nil {
				removed = append(removed, d.Key)
				continue
			}
			docs = append(docs, d)
			if len(docs) == loadChunk {
				chunks <- docs
				docs = make([]index.Doc, 0, loadChunk)
			}
		}
		chunks <- docs
		return nil, rows.Err()
	}()
	errs = append(errs, <-applied...)
	if err != nil {
		return nil, nil, fmt.Errorf("search index: %w", err)
	}
	if err := idx.Apply(nil, removed, nil); err != nil {
		errs = append(errs, err)
	}
	words, err := s.db.QueryContext(ctx, `SELECT word, key FROM search_words WHERE version > ?`, version)
	if err != nil {
		return nil, nil, fmt.Errorf("search index: %w", err)
	}
	defer words.Close()
	var ws []search.Word
	for words.Next() {
		var w search.Word
		if err := words.Scan(&w.Word, &w.Key); err != nil {
			return nil, nil, fmt.Errorf("search index: %w", err)
		}
		ws = append(ws, w)
	}
	if err := words.Err(); err != nil {
		return nil, nil, fmt.Errorf("search index: %w", err)
	}
	if err := idx.Apply(nil, nil, ws); err != nil {
		errs = append(errs, err)
	}
	return changed, errors.Join(errs...), nil
}

// scanOne reads one row of query into a T.
func scanOne[T any](ctx context.Context, tx *txConn, cols columns[T], query string, args ...any) (T, error) {
	var v T
	err := tx.QueryRowContext(ctx, query, args...).Scan(cols.targets(&v)...)
	if errors.Is(err, sql.ErrNoRows) {
		return v, ErrNotFound
	}
	return v, err
}

// SearchIndexSize is the bytes the search index's rows take in the
// database (for operations and benchmarks); the in-memory index's size is
// LoadSearchIndex's.
func (s *DB) SearchIndexSize(ctx context.Context) (_ int64, err error) {
	defer wrap(&err, "SearchIndexSize")
	var n sql.NullInt64
	if s.db.d.postgres {
		err = s.db.QueryRowContext(ctx, `SELECT pg_total_relation_size('circular_terms') + pg_total_relation_size('search_words')`).Scan(&n)
		return n.Int64, err
	}
	err = s.db.QueryRowContext(ctx, `SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'circular_terms%' OR name LIKE 'search_words%'`).Scan(&n)
	return n.Int64, err
}
