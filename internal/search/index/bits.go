package index

import (
	"math"
	"math/bits"
)

// Bitsets of documents, for the searches whose matches are a large share
// of the index (common terms, the some-terms tier): counting them, their
// tiers and facets is then an AND and a popcount per 64 documents rather
// than a walk over every posting, and ranking reads the postings of only
// the 64-document blocks whose bound can still reach the page (walk.go).
//
// A key held by more than one document in bitsShare keeps a keyBits,
// made at its first search and kept up to date as documents are added
// (Apply holds the write lock, so no search reads it meanwhile); a rarer
// key's is made for the search that needs it and dropped. The documents'
// own bitsets (live, per source, per category) are kept alike. Nothing is
// made when an index is loaded or a snapshot opened, and compaction,
// which renumbers the documents, drops them all.

// bitsShare: a key in more than one document in bitsShare keeps its bitset.
const bitsShare = 64

// kword is 64 documents of one key: word w holds documents 64w to 64w+63.
type kword struct {
	// bits are the documents in the key's postings (deleted ones too: a
	// search masks them with the live bitset); strong those whose number,
	// title or summary hold it.
	bits, strong uint64
	// rank is how many postings come before the word's: the place in the
	// list of its first document's posting.
	rank uint32
	// minLen, maxS and maxT bound the bm25 of the word's postings: the
	// shortest document holding the key, the largest strong count and
	// the largest text count (the two halves of a posting).
	minLen     uint32
	maxS, maxT uint16
}

// keyBits is a key's words, one per 64 documents; words past the last
// document holding the key may be missing (read as empty).
type keyBits []kword

// words is how many 64-document words n documents take.
func words(n int) int { return (n + 63) / 64 }

// at is word w, empty past the end.
func (kb keyBits) at(w int) kword {
	if w < len(kb) {
		return kb[w]
	}
	return kword{}
}

// grow extends kb to nw words, each new one's rank following the last.
func (kb keyBits) grow(nw int) keyBits {
	for len(kb) < nw {
		rank := uint32(0)
		if i := len(kb) - 1; i >= 0 {
			rank = kb[i].rank + uint32(bits.OnesCount64(kb[i].bits))
		}
		kb = append(kb, kword{rank: rank, minLen: math.MaxUint32})
	}
	return kb
}

// post adds document d of length n, holding the key with posting val, to
// kb, d being after every document kb holds.
func (kb keyBits) post(d, val, n uint32) keyBits {
	kb = kb.grow(int(d/64) + 1)
	w := &kb[d/64]
	bit := uint64(1) << (d % 64)
	w.bits |= bit
	if val>>16 != 0 {
		w.strong |= bit
	}
	w.minLen = min(w.minLen, n)
	w.maxS = max(w.maxS, uint16(val>>16))
	w.maxT = max(w.maxT, uint16(val))
	return kb
}

// makeKeyBits is l's keyBits, in buf's memory (reset) when it has room.
func (x *Index) makeKeyBits(l *postings, buf keyBits) keyBits {
	kb := buf[:0]
	if nw := words(x.docs.len()); cap(kb) < nw {
		kb = make(keyBits, 0, nw)
	}
	length := x.docs.length
	for i, d := range l.docs[:len(l.vals)] {
		kb = kb.post(d, l.vals[i], length[d])
	}
	return kb
}

// posting is the index in its list of document d's posting, d being in
// word w's bits.
func (w *kword) posting(d uint32) uint32 {
	return w.rank + uint32(bits.OnesCount64(w.bits&(uint64(1)<<(d%64)-1)))
}

// docBits are the documents' bitsets: the live ones, those of each
// source and of each category (by id), and each word's newest date.
type docBits struct {
	live             []uint64
	source, category [][]uint64
	newest           []int32
}

// fit extends b to nw words and to every source and category of x.
func (b *docBits) fit(x *Index, nw int) {
	for len(b.live) < nw {
		b.live = append(b.live, 0)
		b.newest = append(b.newest, 0)
		for i := range b.source {
			b.source[i] = append(b.source[i], 0)
		}
		for i := range b.category {
			b.category[i] = append(b.category[i], 0)
		}
	}
	for len(b.source) < len(x.sources.name) {
		b.source = append(b.source, make([]uint64, len(b.live)))
	}
	for len(b.category) < len(x.categories.name) {
		b.category = append(b.category, make([]uint64, len(b.live)))
	}
}

// add sets the bits of x's document d, added after every other.
func (b *docBits) add(x *Index, d uint32) {
	b.fit(x, int(d/64)+1)
	w, bit := d/64, uint64(1)<<(d%64)
	t := &x.docs
	if !t.deleted[d] {
		b.live[w] |= bit
	}
	c := x.cells[t.cell[d]]
	b.source[c.source][w] |= bit
	b.category[c.category][w] |= bit
	b.newest[w] = max(b.newest[w], t.date[d])
}

// remove clears deleted document d from the live bitset.
func (b *docBits) remove(d uint32) { b.live[d/64] &^= uint64(1) << (d % 64) }

// docBitsOf is x's docBits, made now if it has none. Under the read lock.
func (x *Index) docBitsOf() *docBits {
	x.bitsMu.Lock()
	defer x.bitsMu.Unlock()
	if x.docBits == nil {
		b := &docBits{}
		for d := range x.docs.len() {
			b.add(x, uint32(d))
		}
		b.fit(x, words(x.docs.len()))
		x.docBits = b
	}
	return x.docBits
}

// keyBitsOf is the keyBits of key id: kept (made now if it has none) for
// a key in more than one document in bitsShare, else made in buf for this
// search. Under the read lock.
func (x *Index) keyBitsOf(id uint32, buf keyBits) (kb keyBits, kept bool) {
	l := &x.lists[id]
	if len(l.docs)*bitsShare <= x.docs.len() {
		return x.makeKeyBits(l, buf), false
	}
	x.bitsMu.Lock()
	defer x.bitsMu.Unlock()
	kb, ok := x.keyBits[id]
	if !ok {
		kb = x.makeKeyBits(l, nil)
		if x.keyBits == nil {
			x.keyBits = map[uint32]keyBits{}
		}
		x.keyBits[id] = kb
	}
	return kb, true
}

// keyPosted keeps key id's bitset, when it has one, up to date with
// the posting val of document d, just added. Under the write lock.
func (x *Index) keyPosted(id, d, val uint32) {
	if kb, ok := x.keyBits[id]; ok {
		x.keyBits[id] = kb.post(d, val, x.docs.length[d])
	}
}

// docAdded sets document d's bits, d just added. Under the write lock.
func (x *Index) docAdded(d uint32) {
	if x.docBits != nil {
		x.docBits.add(x, d)
	}
}

// docRemoved clears deleted document d. Under the write lock.
func (x *Index) docRemoved(d uint32) {
	if x.docBits != nil {
		x.docBits.remove(d)
	}
}

// dropBits forgets every bitset (the documents were renumbered). Under
// the write lock.
func (x *Index) dropBits() {
	x.keyBits, x.docBits = nil, nil
}

// bitsBytes is what the kept bitsets take.
func (x *Index) bitsBytes() int64 {
	var n int64
	for _, kb := range x.keyBits {
		n += int64(cap(kb)) * 32
	}
	if b := x.docBits; b != nil {
		n += int64(cap(b.live))*8 + int64(cap(b.newest))*4
		for _, s := range append(b.source, b.category...) {
			n += int64(cap(s)) * 8
		}
	}
	return n
}
