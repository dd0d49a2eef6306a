package render

import (
	"bufio"
	"crypto/rand"
	"encoding/gob"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
)

// A map kept beside an output (the generator's caches: hundreds of MB at
// 100,000 circulars) is two files: a base, written whole, and a delta
// over it: the entries set and the keys removed since. A build after a
// one-file edit writes a delta of a few entries and links the base
// beside its output, rather than encode the whole map again; the base is
// written again once a delta would hold more than a deltaShare-th of the
// map. Each file is its head, then each entry as a gob message of its
// own, so that neither writing nor reading holds the encoded map whole.

// deltaShare: a delta holds at most 1/deltaShare of the map's entries
// (set and removed), or deltaMin entries for a small map; past that the
// base is written whole again, so that a read never applies a delta
// much larger than it saves.
const (
	deltaShare = 10
	deltaMin   = 64
)

// mapHead heads a map's file: a base has an ID, a delta names its base's.
type mapHead[K comparable] struct {
	Program string   // the program that wrote it (ProgramHash)
	ID      [16]byte // a base's: what its deltas name (random)
	Base    [16]byte // a delta's: the base it is over
	Len     int      // the entries that follow
	Removed []K      // a delta's: the base's keys it removes
}

// besideEntry is one entry of a map's file.
type besideEntry[K comparable, V any] struct {
	K K
	V V
}

// DeltaName is the file of the delta over the map file name: m.gob's is
// m.delta.gob.
func DeltaName(name string) string { return strings.TrimSuffix(name, ".gob") + ".delta.gob" }

// BesideMap is what ReadBesideMap read of a map beside an output: which
// base, and what its delta changed, so that the next write (Changes,
// Write) writes only what changed since that base.
type BesideMap[K comparable, V any] struct {
	name string
	dir  string   // the folder whose base was read; "" when none was
	id   [16]byte // that base's
	// set are the keys whose entries the delta read set (not the base's);
	// removed the base's keys it removed
	set     map[K]bool
	removed []K
}

// ReadBesideMap reads the map name beside outDir: its base with its
// delta applied. The map is nil when there is no base this program wrote
// that could be read; a delta over another base, another program's or
// one that cannot be read whole is not applied (the base alone is a
// build's map as it was; the caches hold nothing a stale entry makes
// wrong).
func ReadBesideMap[K comparable, V any](outDir, name string) (map[K]V, *BesideMap[K, V]) {
	bm := &BesideMap[K, V]{name: name}
	m, head, ok := readMapFile[K, V](BesidePath(outDir, name))
	if !ok || head.ID == ([16]byte{}) {
		return nil, bm
	}
	bm.dir, bm.id = outDir, head.ID
	delta, dhead, ok := readMapFile[K, V](BesidePath(outDir, DeltaName(name)))
	if !ok || dhead.Base != head.ID {
		return m, bm
	}
	for _, k := range dhead.Removed {
		delete(m, k)
	}
	bm.set = make(map[K]bool, len(delta))
	for k, v := range delta {
		m[k] = v
		bm.set[k] = true
	}
	bm.removed = dhead.Removed
	return m, bm
}

// readMapFile reads a base or a delta at path; ok says it could be read
// whole and this program wrote it (another's entries are not read).
func readMapFile[K comparable, V any](path string) (m map[K]V, head mapHead[K], ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, head, false
	}
	defer f.Close()
	dec := gob.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	if dec.Decode(&head) != nil || head.Len < 0 || !isThisProgram(head.Program) {
		return nil, head, false
	}
	// (a damaged count allocates no more than the entries there are)
	m = make(map[K]V, min(head.Len, 1<<20))
	for range head.Len {
		var e besideEntry[K, V]
		if dec.Decode(&e) != nil {
			return nil, head, false
		}
		m[e.K] = e.V
	}
	return m, head, true
}

// MapChanges are what a write of a map over the base read must write
// (BesideMap.Changes).
type MapChanges[K comparable] struct {
	// Whole: the base is written again (there is none, or a delta
	// would hold more than a deltaShare-th of the map and deltaMin).
	Whole        bool
	Set, Removed []K
}

// Changes are next's changes from the base read, last being the map as
// read: the keys whose entries are not the base's (not in last, set by
// the delta read, or not the same as last's by same), and the keys of
// the base next has not. They are made apart from the write so that a
// caller can let last go before it writes.
func (bm *BesideMap[K, V]) Changes(last, next map[K]V, same func(a, b V) bool) MapChanges[K] {
	if bm.dir == "" {
		return MapChanges[K]{Whole: true}
	}
	var c MapChanges[K]
	for k, v := range next {
		if lv, ok := last[k]; !ok || bm.set[k] || !same(lv, v) {
			c.Set = append(c.Set, k)
		}
	}
	// (a key the delta set that the base has not, removed again, is
	// listed too: removing it from the base removes nothing)
	for k := range last {
		if _, ok := next[k]; !ok {
			c.Removed = append(c.Removed, k)
		}
	}
	for _, k := range bm.removed {
		if _, ok := next[k]; !ok {
			c.Removed = append(c.Removed, k)
		}
	}
	n := len(c.Set) + len(c.Removed)
	c.Whole = n > deltaMin && n*deltaShare > len(next)
	return c
}

// Write writes next (whose changes from the base read are c) as the map
// beside dir: a delta of c over the base read, that base linked beside
// dir, unless c is whole or the base cannot be linked (another file
// system); else a new base, whole, with an empty delta. Each file is
// written whole or not at all.
func (bm *BesideMap[K, V]) Write(dir string, next map[K]V, c MapChanges[K]) error {
	if !c.Whole && bm.linkBase(dir) {
		head := mapHead[K]{Base: bm.id, Len: len(c.Set), Removed: c.Removed}
		return writeMapFile(dir, DeltaName(bm.name), head, func(yield func(K, V) error) error {
			for _, k := range c.Set {
				if err := yield(k, next[k]); err != nil {
					return err
				}
			}
			return nil
		})
	}
	var id [16]byte
	_, _ = rand.Read(id[:]) // (never fails: crypto/rand panics instead)
	err := writeMapFile(dir, bm.name, mapHead[K]{ID: id, Len: len(next)}, func(yield func(K, V) error) error {
		for k, v := range next {
			if err := yield(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return writeMapFile(dir, DeltaName(bm.name), mapHead[K]{Base: id}, func(func(K, V) error) error { return nil })
}

// linkBase gives dir the base that was read (a hard link: its file is
// never written in place, only replaced by a rename), and says it did.
func (bm *BesideMap[K, V]) linkBase(dir string) bool {
	src, dst := BesidePath(bm.dir, bm.name), BesidePath(dir, bm.name)
	if src == dst {
		_, err := os.Stat(src)
		return err == nil
	}
	if err := os.Remove(dst); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	return os.Link(src, dst) == nil
}

// writeMapFile writes head, this program's, then the entries entries
// yields, as the file name beside dir.
func writeMapFile[K comparable, V any](dir, name string, head mapHead[K], entries func(yield func(K, V) error) error) error {
	return writeBeside(dir, name, func(enc *gob.Encoder, _ io.Writer, prog string) error {
		head.Program = prog
		if err := enc.Encode(head); err != nil {
			return err
		}
		return entries(func(k K, v V) error { return enc.Encode(besideEntry[K, V]{k, v}) })
	})
}
