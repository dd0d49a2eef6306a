package store

import (
	"context"
	"sync"
	"sync/atomic"

	"regpulse/internal/catalog"
	"regpulse/internal/search/memo"
)

// The circulars searches return, kept in memory by index key (rowid) so
// that a search reads from the database only those it has not met since
// they last changed: most searches land on the same few thousand
// circulars, and reading a page's rows (each with its whole text) was a
// fifth of an uncached search's CPU, and a round trip on PostgreSQL.
//
// Every change to a circular (a sync's, a stored summary's) stamps its
// circular_terms row with the transaction's search_version, and
// refreshSearch applies every row stamped after the index's version: it
// lets go of those circulars here, then records the version it let go
// through. A search reads search_version first, so a circular changed at
// or before that version is visible to it in the database; it takes
// circulars from here only once the changes up to that version have been
// let go (else from the database), and keeps what it read only when no
// change after its version has been let go yet (a later one will be).

// circularCacheBytes bounds the circulars kept (their text mostly).
const circularCacheBytes = 32 << 20

// circularStamps numbers the reads of circulars the cache keeps, across
// every store of the process: a stamp names one circular as read.
var circularStamps atomic.Uint64

type circularCache struct {
	mu         sync.Mutex
	generation string
	through    int64 // the changes up to this version are let go
	kept       *memo.Map[int64, cachedCircular]
}

// cachedCircular is a circular as a search read it, and its stamp.
type cachedCircular struct {
	c     catalog.Circular
	stamp uint64
}

// reset empties the cache for an index of generation gen read whole at
// version.
func (c *circularCache) reset(gen string, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil {
		c.kept = memo.New[int64, cachedCircular](circularCacheBytes)
	}
	c.kept.Clear()
	c.generation, c.through = gen, version
}

// changed lets go of the circulars with keys, whose rows were stamped
// after the version let go through before and up to version at least.
func (c *circularCache) changed(keys []int64, version int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept != nil {
		for _, k := range keys {
			c.kept.Delete(k)
		}
	}
	c.through = max(c.through, version)
}

// get is the circular with key as a search at st may show it.
func (c *circularCache) get(st searchStamp, key int64) (cachedCircular, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil || c.generation != st.generation || c.through < st.version {
		return cachedCircular{}, false
	}
	return c.kept.Get(key)
}

// put keeps the circular with key that a search at st read from the
// database, and gives it its stamp.
func (c *circularCache) put(st searchStamp, key int64, cc catalog.Circular) cachedCircular {
	kept := cachedCircular{c: cc, stamp: circularStamps.Add(1)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.kept == nil || c.generation != st.generation || st.version < c.through {
		return cachedCircular{c: cc} // a change after st is let go already: it may be older
	}
	c.kept.Put(key, kept, circularSize(cc))
	return kept
}

// circularSize is about what a kept circular takes in memory.
func circularSize(c catalog.Circular) int {
	return 2048 + len(c.Content) + len(c.Title) + len(c.Summary)
}

// circularsByKey reads the circulars with the index keys (rowid) keys, as
// a search at st shows them: those kept from the cache, the others from
// the database in one query.
func (s *DB) circularsByKey(ctx context.Context, st searchStamp, keys []int64) (map[int64]cachedCircular, error) {
	out := make(map[int64]cachedCircular, len(keys))
	var args []any
	for _, k := range keys {
		if cc, ok := s.search.circulars.get(st, k); ok {
			out[k] = cc
		} else {
			args = append(args, k)
		}
	}
	if len(args) == 0 {
		return out, nil
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.rowid, `+circularSelect+` FROM `+circularsFrom+`
WHERE c.rowid IN (`+placeholders(len(args))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var key int64
		var c catalog.Circular
		if err := rows.Scan(append([]any{&key}, circularColumns.targets(&c)...)...); err != nil {
			return nil, err
		}
		out[key] = s.search.circulars.put(st, key, c)
	}
	return out, rows.Err()
}
