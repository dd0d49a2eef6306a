package index

import (
	"sync"

	"regpulse/internal/search"
)

// acc is one document's sums in accumulate: its scores over all columns
// and over the strong ones, and bit t set when term t is held (in the
// strong columns).
type acc struct {
	score, scoreStrong float64
	held, strong       uint64
}

// accumulatorPool keeps accumulate's arrays for the next search.
var accumulatorPool = sync.Pool{New: func() any { return new([]acc) }}

// accumulate walks the matches key by key over arrays of every document
// (each posting list read once, in order) rather than document by
// document over all the lists at once: the cheaper walk when the matches
// are most of the index (the some-terms tier, or common terms). narrow
// keeps only the documents holding every term; isNumber tells those
// visit scored already. The sums are the same as visit's, added in the
// same order. Only for queries of at most 64 terms (a bit each).
func (r *run) accumulate(narrow bool, isNumber func(uint32) bool) {
	x, q := r.x, r.q
	n := x.docs.len()
	pooled := accumulatorPool.Get().(*[]acc)
	defer accumulatorPool.Put(pooled)
	if cap(*pooled) < n {
		*pooled = make([]acc, n)
	}
	sums := (*pooled)[:n]
	lengths := x.docs.length[:n]
	for _, k := range q.keys {
		bit := uint64(1) << k.term
		vals := k.list.vals
		docs := k.list.docs[:len(vals)]
		for i, d := range docs {
			v := vals[i]
			a := &sums[d]
			norm := q.normA + q.normB*float64(lengths[d])
			f := allCount(v)
			a.score += k.idf * f * (k1 + 1) / (f + norm)
			a.held |= bit
			if fs := strongCount(v); fs > 0 {
				a.scoreStrong += k.idfStrong * fs * (k1 + 1) / (fs + norm)
				a.strong |= bit
			}
		}
	}
	all := uint64(1)<<q.terms - 1
	if q.terms == 64 {
		all = ^uint64(0)
	}
	deleted, cells := x.docs.deleted[:n], x.docs.cell[:n]
	for d := range sums {
		a := sums[d]
		if a.held == 0 {
			continue
		}
		sums[d] = acc{}
		if deleted[d] || narrow && (a.held != all || isNumber(uint32(d))) {
			continue
		}
		tier, score := search.TierAny, a.score
		switch {
		case a.held == all && a.strong == all:
			tier, score = search.TierStrong, a.scoreStrong
		case a.held == all:
			tier = search.TierAll
		}
		// record, by hand: this loop runs for most documents.
		c := cells[d]
		r.byCell[c]++
		if r.okCell[c] {
			r.total++
			r.counts[tier]++
			r.rank(uint32(d), tier, score)
		}
	}
}
