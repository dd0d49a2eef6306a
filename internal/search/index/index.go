// Package index is the circulars' full-text index, held in memory by the
// process that searches: one implementation for both stores, so that
// SQLite and PostgreSQL rank alike, and fast at the size of a real
// archive. A store keeps each circular's Doc (its keys counted per column,
// encoded) and its words, and applies what changed; the index finds the
// matches of a search.Plan, counts them by tier and facet in one pass,
// and ranks only what the page needs (find.go).
//
// Postings are per key: the documents holding it, ascending, with one
// word each holding the key's column-weighted counts (posted). A changed or removed circular's document is
// marked deleted and the new one appended, so updates cost what the
// circular holds, not what the index holds; deleted documents are dropped
// when they pass a tenth of all (compact).
package index

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"regpulse/internal/search"
)

// Index is the in-memory index. Its methods are safe for concurrent use.
type Index struct {
	mu sync.RWMutex

	docs  docTable
	byKey map[int64]uint32 // a store key's live document

	// base are the keys of the snapshot the index was opened from, in
	// order, their ids their places (snapshot.go); keyID the keys added
	// since (every key of an index made by New), ids after base's.
	base    keyTable
	keyID   map[string]uint32
	lists   []postings // by key id
	live    int        // documents not deleted
	tokens  float64    // keys of the live documents, for the average length
	deleted int

	sources, categories names
	// cells are the (source, category) pairs documents have: a document
	// keeps its pair's place, so that a search counts both facets with one
	// increment.
	cells  []cell
	cellID map[cell]uint16

	wordList []search.Word // by word, each once

	scratch []posting // addDoc's, reused
	stamp   []uint32  // by key id, the last document (plus one) addDoc counted it in
	walk    walkMode  // walkAuto but in tests

	// The bitsets of common keys and of the documents (bits.go), made by
	// searches (under bitsMu, which the read lock lets several hold in
	// turn) and kept up to date by Apply.
	bitsMu  sync.Mutex
	keyBits map[uint32]keyBits // by key id
	docBits *docBits
}

// docTable holds the documents by number, in the order they were added.
type docTable struct {
	key     []int64
	cell    []uint16 // place in Index.cells
	date    []int32  // YYYYMMDD
	length  []uint32
	slug    []string
	number  [][]uint32 // key ids of the circular number, in order
	deleted []bool
	// keysAt[d]:keysAt[d+1] are document d's key ids in keys, each with
	// strongKey set when its number, title or summary holds it.
	keysAt []uint32
	keys   []uint32
}

func (t *docTable) len() int { return len(t.key) }

// strongKey marks a key id in docTable.keys.
const strongKey = 1 << 31

// postings are one key's documents, ascending, and their counts.
type postings struct {
	docs []uint32
	vals []uint32
	live int32 // documents not deleted
	// strong counts the live documents whose number, title or summary
	// hold the key.
	strong int32
}

type posting struct {
	id  uint32
	val uint32
}

// cell is a source and a category, as ids in Index.sources and
// Index.categories.
type cell struct{ source, category uint16 }

// cellOf is the place of d's source and category in x.cells.
func (x *Index) cellOf(d Doc) uint16 {
	c := cell{x.sources.id(d.Source), x.categories.id(d.Category)}
	id, ok := x.cellID[c]
	if !ok {
		id = uint16(len(x.cells))
		x.cellID[c] = id
		x.cells = append(x.cells, c)
	}
	return id
}

// names numbers the values of a filter (sources, categories).
type names struct {
	ids  map[string]uint16
	name []string
}

func (n *names) id(s string) uint16 {
	if id, ok := n.ids[s]; ok {
		return id
	}
	if n.ids == nil {
		n.ids = map[string]uint16{}
	}
	id := uint16(len(n.name))
	n.ids[s] = id
	n.name = append(n.name, s)
	return id
}

// lookup is s's id, or -1 for "" (no filter) and -2 for a value no
// document has.
func (n *names) lookup(s string) int {
	if s == "" {
		return -1
	}
	if id, ok := n.ids[s]; ok {
		return int(id)
	}
	return -2
}

// New returns an empty index.
func New() *Index {
	return &Index{byKey: map[int64]uint32{}, keyID: map[string]uint32{}, cellID: map[cell]uint16{}}
}

// keyOf is key k's id.
func (x *Index) keyOf(k string) (uint32, bool) {
	if id, ok := x.base.find(k); ok {
		return id, true
	}
	id, ok := x.keyID[k]
	return id, ok
}

// keyTable is a sorted list of keys, searched by halving: what a snapshot
// holds instead of a map, so that opening one builds none.
type keyTable struct {
	at   []uint32 // key i is data[at[i]:at[i+1]]
	data string
}

func (t keyTable) len() int { return max(len(t.at)-1, 0) }

func (t keyTable) key(i int) string { return t.data[t.at[i]:t.at[i+1]] }

func (t keyTable) find(k string) (uint32, bool) {
	i, ok := sort.Find(t.len(), func(i int) int { return strings.Compare(k, t.key(i)) })
	return uint32(i), ok
}

// Apply adds docs (replacing a document of the same Key), removes the
// documents of the keys in removed, and adds words to the vocabulary. A
// Doc whose terms cannot be read is an error naming its key; the others
// are applied.
func (x *Index) Apply(docs []Doc, removed []int64, words []search.Word) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, k := range removed {
		if d, ok := x.byKey[k]; ok {
			x.remove(d)
		}
	}
	var errs []error
	for _, d := range docs {
		if err := x.add(d); err != nil {
			errs = append(errs, fmt.Errorf("index: circular %d: %w", d.Key, err))
		}
	}
	x.addWords(words)
	if x.deleted > 0 && x.deleted*10 > x.docs.len() {
		x.compact()
	}
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// add appends d as a new document, marking the one it replaces deleted,
// and its postings to their lists.
func (x *Index) add(d Doc) error {
	err := x.addDoc(d, func(id, n, val uint32) {
		l := &x.lists[id]
		l.docs = append(l.docs, n)
		l.vals = append(l.vals, val)
		x.keyPosted(id, n, val)
	})
	if err == nil {
		x.docAdded(uint32(x.docs.len() - 1))
	}
	return err
}

// addDoc appends d as document n, marking the one it replaces deleted,
// counts its keys and gives post each of its postings once.
func (x *Index) addDoc(d Doc, post func(id, n, val uint32)) error {
	n := uint32(x.docs.len())
	var lengths [search.Columns]uint32
	x.scratch = x.scratch[:0]
	var number []uint32
	err := decode(d.Terms, &lengths, func(k []byte, f [search.Columns]uint32) {
		// k only lives through the call: looked up without a copy
		id, ok := x.keyOf(unsafe.String(unsafe.SliceData(k), len(k)))
		if !ok {
			id = uint32(len(x.lists))
			x.keyID[string(k)] = id
			x.lists = append(x.lists, postings{})
			x.stamp = append(x.stamp, 0)
		}
		x.scratch = append(x.scratch, posting{id, posted(f)})
	}, func(place uint32) { number = append(number, place) })
	if err != nil {
		return err
	}
	if old, ok := x.byKey[d.Key]; ok {
		x.remove(old)
	}
	for i, p := range number {
		number[i] = x.scratch[p].id
	}
	var length uint32
	for _, l := range lengths {
		length += l
	}
	t := &x.docs
	t.key = append(t.key, d.Key)
	t.cell = append(t.cell, x.cellOf(d))
	t.date = append(t.date, dayNumber(d.Date))
	t.length = append(t.length, length)
	t.slug = append(t.slug, d.Slug)
	t.number = append(t.number, number)
	t.deleted = append(t.deleted, false)
	if len(t.keysAt) == 0 {
		t.keysAt = append(t.keysAt, 0)
	}
	for _, p := range x.scratch {
		if x.stamp[p.id] == n+1 {
			continue // a key twice in one encoding counts once
		}
		x.stamp[p.id] = n + 1
		l := &x.lists[p.id]
		l.live++
		id := p.id
		if p.val>>16 != 0 {
			l.strong++
			id |= strongKey
		}
		t.keys = append(t.keys, id)
		post(p.id, n, p.val)
	}
	t.keysAt = append(t.keysAt, uint32(len(t.keys)))
	x.byKey[d.Key] = n
	x.live++
	x.tokens += float64(length)
	return nil
}

// remove marks document d deleted.
func (x *Index) remove(d uint32) {
	t := &x.docs
	if t.deleted[d] {
		return
	}
	t.deleted[d] = true
	x.docRemoved(d)
	for _, id := range t.keys[t.keysAt[d]:t.keysAt[d+1]] {
		l := &x.lists[id&^strongKey]
		l.live--
		if id&strongKey != 0 {
			l.strong--
		}
	}
	delete(x.byKey, t.key[d])
	x.live--
	x.tokens -= float64(t.length[d])
	x.deleted++
}

// compact renumbers the live documents and drops the deleted ones from
// every list: linear in the postings.
func (x *Index) compact() {
	old := &x.docs
	renum := make([]uint32, old.len())
	var t docTable
	t.keysAt = append(t.keysAt, 0)
	for d := range old.len() {
		if old.deleted[d] {
			continue
		}
		renum[d] = uint32(t.len())
		t.key = append(t.key, old.key[d])
		t.cell = append(t.cell, old.cell[d])
		t.date = append(t.date, old.date[d])
		t.length = append(t.length, old.length[d])
		t.slug = append(t.slug, old.slug[d])
		t.number = append(t.number, old.number[d])
		t.deleted = append(t.deleted, false)
		t.keys = append(t.keys, old.keys[old.keysAt[d]:old.keysAt[d+1]]...)
		t.keysAt = append(t.keysAt, uint32(len(t.keys)))
	}
	for i := range x.lists {
		l := &x.lists[i]
		docs := make([]uint32, 0, l.live)
		vals := make([]uint32, 0, l.live)
		for j, d := range l.docs {
			if !old.deleted[d] {
				docs = append(docs, renum[d])
				vals = append(vals, l.vals[j])
			}
		}
		l.docs, l.vals = docs, vals
	}
	x.docs = t
	x.dropBits()
	clear(x.stamp) // they held the old numbers
	clear(x.byKey)
	for d, k := range t.key {
		x.byKey[k] = uint32(d)
	}
	x.deleted = 0
}

// addWords adds the words the vocabulary does not have (the first of a
// word given twice).
func (x *Index) addWords(words []search.Word) {
	var added []search.Word
	for _, w := range words {
		if _, ok := slices.BinarySearchFunc(x.wordList, w.Word, byWord); !ok {
			added = append(added, w)
		}
	}
	if len(added) == 0 {
		return
	}
	slices.SortStableFunc(added, func(a, b search.Word) int { return strings.Compare(a.Word, b.Word) })
	added = slices.CompactFunc(added, func(a, b search.Word) bool { return a.Word == b.Word })
	if len(x.wordList) == 0 {
		x.wordList = added
		return
	}
	merged := make([]search.Word, 0, len(x.wordList)+len(added))
	i, j := 0, 0
	for i < len(x.wordList) && j < len(added) {
		if x.wordList[i].Word < added[j].Word {
			merged = append(merged, x.wordList[i])
			i++
		} else {
			merged = append(merged, added[j])
			j++
		}
	}
	merged = append(merged, x.wordList[i:]...)
	x.wordList = append(merged, added[j:]...)
}

// byWord orders a word list by word.
func byWord(w search.Word, word string) int { return strings.Compare(w.Word, word) }

// Docs is search.Vocabulary's: how many circulars hold each key.
func (x *Index) Docs(_ context.Context, keys []string) (map[string]int, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make(map[string]int, len(keys))
	for _, k := range keys {
		if id, ok := x.keyOf(k); ok && x.lists[id].live > 0 {
			out[k] = int(x.lists[id].live)
		}
	}
	return out, nil
}

// prefixed are the words starting with prefix, in word order.
func (x *Index) prefixed(prefix string) []search.Word {
	i, _ := slices.BinarySearchFunc(x.wordList, prefix, byWord)
	j := i
	for j < len(x.wordList) && strings.HasPrefix(x.wordList[j].Word, prefix) {
		j++
	}
	return x.wordList[i:j]
}

// Prefixed is search.Vocabulary's: up to n words starting with prefix,
// shortest first.
func (x *Index) Prefixed(_ context.Context, prefix string, n int) ([]search.Word, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := slices.Clone(x.prefixed(prefix))
	slices.SortStableFunc(out, func(a, b search.Word) int {
		return cmp.Compare(utf8.RuneCountInString(a.Word), utf8.RuneCountInString(b.Word))
	})
	return out[:min(len(out), n)], nil
}

// Near is search.Vocabulary's: the words starting with first whose
// length in characters is minLen to maxLen.
func (x *Index) Near(_ context.Context, first string, minLen, maxLen int) ([]search.Word, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var out []search.Word
	for _, w := range x.prefixed(first) {
		if len(w.Word) < minLen || len(w.Word) > 4*maxLen {
			continue // cheap bounds first: a character takes 1 to 4 bytes
		}
		if n := utf8.RuneCountInString(w.Word); n >= minLen && n <= maxLen {
			out = append(out, w)
		}
	}
	return out, nil
}

// Stats describes an index's size.
type Stats struct {
	Docs, Deleted, Keys, Postings, Words int
	// Bytes is about what the index's own data takes in memory.
	Bytes int64
}

// Stats returns x's size.
func (x *Index) Stats() Stats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	s := Stats{Docs: x.live, Deleted: x.deleted, Keys: x.base.len() + len(x.keyID), Words: len(x.wordList)}
	var b int64
	for _, l := range x.lists {
		s.Postings += int(l.live)
		b += int64(cap(l.docs))*4 + int64(cap(l.vals))*4 + 56
	}
	for k := range x.keyID {
		b += int64(len(k)) + 40
	}
	b += int64(len(x.base.data)) + int64(len(x.base.at))*4
	t := &x.docs
	b += int64(t.len()) * (8 + 2 + 4 + 4 + 16 + 24 + 1 + 4)
	b += int64(cap(t.keys)) * 4
	for _, s := range t.slug {
		b += int64(len(s))
	}
	for _, n := range t.number {
		b += int64(cap(n)) * 4
	}
	for _, w := range x.wordList {
		b += int64(len(w.Word)+len(w.Key)) + 32 + 40
	}
	b += x.bitsBytes()
	s.Bytes = b
	return s
}
