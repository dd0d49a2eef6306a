package index

import (
	"math/bits"
	"slices"
	"sync"

	"regpulse/internal/search"
)

// The bit walk: what a search does when its matches are a large share of
// the index (every term common, or the some-terms tier). Instead of
// reading every posting of the query to score every match, it
//   - makes, 64 documents at a time, the bitsets of each tier's matches
//     from the keys' bitsets (bits.go), and counts the total, the tiers
//     and the facets by popcount: exact, with no posting read;
//   - ranks, in each tier the page reaches, only as many documents as it
//     needs: the tier's 64-document blocks in order of a bound on what
//     they rank by (bm25 from each key's largest counts and shortest
//     document in the block, or the block's newest date), stopping at the
//     first block whose bound cannot beat the last of the page. A document
//     is scored from its postings, found by rank in the keys' bitsets, by
//     the same sums as visit's, so the page is the one every document
//     scored would give.

// bitScratch is a bit walk's memory, kept for the next search.
type bitScratch struct {
	numbers []uint64
	// tiers are, by tier, the matches passing the filters (TierNumber's
	// are visited apart).
	tiers  [search.TierAny + 1][]uint64
	temp   []keyBits // the bitsets of the query's rarer keys, by key
	keys   []keyBits // of every key of the query
	blocks []block
	kbound []float64 // by key, its bound in the block being ranked
}

var bitScratchPool = sync.Pool{New: func() any { return new(bitScratch) }}

// block is a 64-document word of matches and the bound on what they
// rank by.
type block struct {
	w     int
	bound float64
}

// maxBitKeys: a query of more keys walks by document, since its rarer
// keys' bitsets would take more memory than the walk saves.
const maxBitKeys = 64

// boundSlack makes a block's bm25 bound safe against rounding: the bound
// and a score are sums of the same kind of terms, each rounded.
const boundSlack = 1 + 1e-9

// zeroed is b's memory as n zero words.
func zeroed(b []uint64, n int) []uint64 {
	if cap(b) < n {
		return make([]uint64, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// bitWalk counts and ranks the matches of the query but numbers (visited
// already), narrow as run's.
func (r *run) bitWalk(narrow bool, numbers []uint32) {
	x, q := r.x, r.q
	nw := words(x.docs.len())
	s := bitScratchPool.Get().(*bitScratch)
	defer bitScratchPool.Put(s)
	db := x.docBitsOf()
	for len(s.temp) < len(q.keys) {
		s.temp = append(s.temp, nil)
	}
	s.keys = s.keys[:0]
	for i, k := range q.keys {
		kb, kept := x.keyBitsOf(k.id, s.temp[i])
		if !kept {
			s.temp[i] = kb
		}
		s.keys = append(s.keys, kb)
	}
	s.numbers = zeroed(s.numbers, nw)
	for _, d := range numbers {
		s.numbers[d/64] |= 1 << (d % 64)
	}
	for t := search.TierStrong; t <= search.TierAny; t++ {
		s.tiers[t] = zeroed(s.tiers[t], nw)
	}
	filter := func(id int, sets [][]uint64, w int) uint64 {
		switch {
		case id == -1:
			return ^uint64(0)
		case id < 0:
			return 0
		}
		return sets[id][w]
	}
	everyTerm := uint64(0) // a term without keys: no document holds them all
	if q.complete {
		everyTerm = ^uint64(0)
	}
	strongTier, allTier, anyTier := s.tiers[search.TierStrong], s.tiers[search.TierAll], s.tiers[search.TierAny]
	for w := range nw {
		held, strong, some := everyTerm, ^uint64(0), uint64(0)
		for i := 0; i < len(s.keys); {
			var held1, strong1 uint64 // this term's
			for t := q.keys[i].term; i < len(s.keys) && q.keys[i].term == t; i++ {
				kw := s.keys[i].at(w)
				held1 |= kw.bits
				strong1 |= kw.strong
			}
			held &= held1
			strong &= strong1
			some |= held1
		}
		live := db.live[w] &^ s.numbers[w]
		held &= live
		m := held
		if !narrow {
			m = some & live
		}
		if m == 0 {
			continue
		}
		sf, cf := filter(q.source, db.source, w), filter(q.category, db.category, w)
		// Each facet counts with the other filter applied.
		for i, set := range db.source {
			r.bySource[i] += bits.OnesCount64(m & set[w] & cf)
		}
		for i, set := range db.category {
			r.byCategory[i] += bits.OnesCount64(m & set[w] & sf)
		}
		f := sf & cf
		strongTier[w], allTier[w], anyTier[w] = held&strong&f, held&^strong&f, m&^held&f
		r.total += bits.OnesCount64(m & f)
		r.counts[search.TierStrong] += bits.OnesCount64(strongTier[w])
		r.counts[search.TierAll] += bits.OnesCount64(allTier[w])
		r.counts[search.TierAny] += bits.OnesCount64(anyTier[w])
	}
	if q.p.Query.ByDate {
		r.rankBits(s, db, -1, &r.ranked[0])
		return
	}
	before := r.counts[search.TierNumber]
	for t := search.TierStrong; t <= search.TierAny; t++ {
		// A tier behind k matches of the tiers before it cannot reach the
		// page; one that can needs its first k-before.
		if need := q.k - before; need > 0 && r.counts[t] > 0 {
			r.ranked[t].k = need
			r.rankBits(s, db, t, &r.ranked[t])
		}
		before += r.counts[t]
	}
}

// rankBits ranks into h the matches of tier (every tier's for -1, a
// by-date plan), block by block in order of their bound, until no
// further block can reach h. Within a block, a document is scored only
// when the bounds of the keys it holds can reach h.
func (r *run) rankBits(s *bitScratch, db *docBits, tier int, h *topK) {
	x, q := r.x, r.q
	matches := func(w int) uint64 {
		if tier >= 0 {
			return s.tiers[tier][w]
		}
		return s.tiers[search.TierStrong][w] | s.tiers[search.TierAll][w] | s.tiers[search.TierAny][w]
	}
	byDate := tier < 0 || q.p.Latest && tier <= search.TierStrong
	strong := tier <= search.TierStrong // scored over the strong columns
	s.kbound = slices.Grow(s.kbound[:0], len(s.keys))[:len(s.keys)]
	blocks := s.blocks[:0]
	for w := range len(db.live) {
		if matches(w) == 0 {
			continue
		}
		bound := float64(db.newest[w])
		if !byDate {
			bound = 0
			for i := range s.keys {
				bound += r.keyBound(s.keys, i, w, strong)
			}
		}
		blocks = append(blocks, block{w, bound})
	}
	s.blocks = blocks
	// A heap of the blocks, the highest bound first: most searches stop
	// after a few, so sorting them all would cost more.
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && blocks[c+1].bound > blocks[c].bound {
				c++
			}
			if blocks[c].bound <= blocks[i].bound {
				return
			}
			blocks[i], blocks[c] = blocks[c], blocks[i]
			i = c
		}
	}
	for i := len(blocks)/2 - 1; i >= 0; i-- {
		down(i, len(blocks))
	}
	date := x.docs.date
	for n := len(blocks); n > 0; n-- {
		bl := blocks[0]
		blocks[0] = blocks[n-1]
		down(0, n-1)
		full := len(h.h) == h.k
		if full {
			// The blocks left rank after the last kept.
			last := h.h[0]
			if byDate && bl.bound < float64(date[last.doc]) || !byDate && bl.bound*boundSlack < last.score {
				return
			}
		}
		w := bl.w
		m := matches(w)
		if !byDate {
			for i := range s.keys {
				s.kbound[i] = r.keyBound(s.keys, i, w, strong)
			}
			if full {
				m &= r.required(s, w, strong, h.h[0].score)
			}
		}
		for ; m != 0; m &= m - 1 {
			d := uint32(w*64 + bits.TrailingZeros64(m))
			if !byDate && len(h.h) == h.k && (r.docBound(s, d, strong)*boundSlack < h.h[0].score ||
				r.lengthBound(s, d, strong)*boundSlack < h.h[0].score) {
				continue
			}
			t := tier
			if t < 0 {
				t = s.tierOf(d)
			}
			score, scoreStrong := r.score(s.keys, d)
			if t <= search.TierStrong {
				score = scoreStrong
			}
			h.push(hit{d, t, score})
		}
	}
}

// required are the documents of word w holding every key without which
// the bounds of the others (s.kbound) cannot reach score: a document
// must hold those to reach it.
func (r *run) required(s *bitScratch, w int, strong bool, score float64) uint64 {
	m := ^uint64(0)
	for k := range s.keys {
		var others float64
		for i, b := range s.kbound {
			if i != k {
				others += b
			}
		}
		if others*boundSlack < score {
			kw := s.keys[k].at(w)
			if strong {
				m &= kw.strong
			} else {
				m &= kw.bits
			}
		}
	}
	return m
}

// lengthBound bounds document d's score more closely than docBound, at
// the cost of a division per key it holds: each key's term with the
// block's largest counts, but d's own length.
func (r *run) lengthBound(s *bitScratch, d uint32, strong bool) float64 {
	q := r.q
	w, bit := int(d/64), uint64(1)<<(d%64)
	norm := q.normA + q.normB*float64(r.x.docs.length[d])
	var sum float64
	for i := range s.keys {
		kw := s.keys[i].at(w)
		f, idf := float64(kw.maxS), q.keys[i].idfStrong
		if strong && kw.strong&bit == 0 || !strong && kw.bits&bit == 0 {
			continue
		}
		if !strong {
			f, idf = f+search.WeightContent*float64(kw.maxT), q.keys[i].idf
		}
		sum += idf * f * (k1 + 1) / (f + norm)
	}
	return sum
}

// docBound bounds document d's score by its block's bounds (s.kbound) of
// the keys it holds.
func (r *run) docBound(s *bitScratch, d uint32, strong bool) float64 {
	w, bit := d/64, uint64(1)<<(d%64)
	var sum float64
	for i := range s.keys {
		kw := s.keys[i].at(int(w))
		if held := kw.bits; strong && kw.strong&bit != 0 || !strong && held&bit != 0 {
			sum += s.kbound[i]
		}
	}
	return sum
}

// tierOf is the tier of match d.
func (s *bitScratch) tierOf(d uint32) int {
	bit := uint64(1) << (d % 64)
	for t := search.TierStrong; t < search.TierAny; t++ {
		if s.tiers[t][d/64]&bit != 0 {
			return t
		}
	}
	return search.TierAny
}

// score is document d's bm25 over all columns and over the strong ones,
// summed as visit sums them.
func (r *run) score(keys []keyBits, d uint32) (score, scoreStrong float64) {
	q := r.q
	w, bit := int(d/64), uint64(1)<<(d%64)
	norm := q.normA + q.normB*float64(r.x.docs.length[d])
	for i := range keys {
		if w >= len(keys[i]) || keys[i][w].bits&bit == 0 {
			continue
		}
		k := &q.keys[i]
		v := k.list.vals[keys[i][w].posting(d)]
		f := allCount(v)
		score += k.idf * f * (k1 + 1) / (f + norm)
		if fs := strongCount(v); fs > 0 {
			scoreStrong += k.idfStrong * fs * (k1 + 1) / (fs + norm)
		}
	}
	return score, scoreStrong
}

// keyBound is at least key i's term in the score (strong: over the
// strong columns) of every document of word w: the term of its largest
// counts and its shortest document in the word.
func (r *run) keyBound(keys []keyBits, i, w int, strong bool) float64 {
	q := r.q
	kw := keys[i].at(w)
	f, idf := float64(kw.maxS), q.keys[i].idfStrong
	if !strong {
		f, idf = f+search.WeightContent*float64(kw.maxT), q.keys[i].idf
	}
	if f == 0 {
		return 0
	}
	return idf * f * (k1 + 1) / (f + q.normA + q.normB*float64(kw.minLen))
}
