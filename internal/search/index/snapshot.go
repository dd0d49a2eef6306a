package index

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"unsafe"

	"regpulse/internal/search"
)

// A snapshot is an index written to a file, so that a process starting
// cold (a function) opens it in milliseconds instead of reading and
// indexing every circular's row: the arrays the index searches are
// written as they lie in memory, 8-byte aligned and little-endian, and
// opening maps the file and points the index's slices into it. Nothing is
// decoded per posting or per document, and no map of the keys is built:
// the keys are written sorted, their ids renumbered in that order, and
// found by halving (keyTable). A document, key or word applied after
// opening goes to the heap as in any index; nothing writes into the file's
// memory (every slice pointing into it has its capacity cut at its
// length, so an append copies).
//
// The layout, after the header (snapshotMagic, the format, the stamp and
// the counts), is a fixed sequence of arrays (encoder and decoder below
// walk it in the same order), then a CRC-32C of everything before it.
// A change of layout takes a new snapshotFormat: a snapshot of another
// format is refused, and its reader reads the store instead.

// snapshotMagic starts every snapshot file.
const snapshotMagic = "RPINDEX\n"

// snapshotFormat is the layout's version.
const snapshotFormat = 1

// Stamp is what a snapshot says it holds: the store's generation and the
// version of the index's last change it includes.
type Stamp struct {
	Generation string
	Version    int64
}

// ErrSnapshot is the error of a snapshot that cannot be used: of another
// format, cut short, or whose checksum does not match.
var ErrSnapshot = errors.New("index: unusable snapshot")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteSnapshot writes x to w as a snapshot stamped st.
func (x *Index) WriteSnapshot(w io.Writer, st Stamp) error {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var e encoder
	e.raw([]byte(snapshotMagic))
	e.u32(snapshotFormat)
	e.u32(uint32(len(st.Generation)))
	e.i64(st.Version)
	e.raw([]byte(st.Generation))
	e.align()

	names := x.keyNames()
	order := make([]uint32, len(names)) // new id -> old
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return cmp.Compare(names[a], names[b]) })
	renum := make([]uint32, len(names)) // old id -> new
	for n, old := range order {
		renum[old] = uint32(n)
	}

	t := &x.docs
	n := t.len()
	for _, v := range []uint32{uint32(n), uint32(len(names)), uint32(len(x.wordList)), uint32(len(x.cells)),
		uint32(x.live), uint32(x.deleted)} {
		e.u32(v)
	}
	e.u64(math.Float64bits(x.tokens))
	e.i64s(t.key)
	e.u16s(t.cell)
	e.i32s(t.date)
	e.u32s(t.length)
	deleted := make([]byte, n)
	for d, del := range t.deleted {
		if del {
			deleted[d] = 1
		}
	}
	e.bytes(deleted)
	e.strings(t.slug)
	var numberAt []uint32
	var numbers []uint32
	numberAt = append(numberAt, 0)
	for _, num := range t.number {
		for _, id := range num {
			numbers = append(numbers, renum[id])
		}
		numberAt = append(numberAt, uint32(len(numbers)))
	}
	e.u32s(numberAt)
	e.u32s(numbers)
	keysAt := t.keysAt
	if len(keysAt) == 0 {
		keysAt = []uint32{0}
	}
	e.u32s(keysAt)
	keys := make([]uint32, len(t.keys))
	for i, id := range t.keys {
		keys[i] = renum[id&^strongKey] | id&strongKey
	}
	e.u32s(keys)

	sorted := make([]string, len(order))
	listAt := make([]uint32, 0, len(order)+1)
	lengths := make([]uint32, len(order))
	live := make([]uint32, len(order))
	strong := make([]uint32, len(order))
	var room int
	listAt = append(listAt, 0)
	for n, old := range order {
		sorted[n] = names[old]
		l := &x.lists[old]
		room += len(l.docs) + slack(len(l.docs))
		listAt = append(listAt, uint32(room))
		lengths[n], live[n], strong[n] = uint32(len(l.docs)), uint32(l.live), uint32(l.strong)
	}
	e.strings(sorted)
	e.u32s(listAt)
	e.u32s(lengths)
	for _, part := range []func(*postings) []uint32{
		func(l *postings) []uint32 { return l.docs },
		func(l *postings) []uint32 { return l.vals },
	} {
		e.align()
		for _, old := range order {
			v := part(&x.lists[old])
			e.u32sRaw(v)
			e.u32sRaw(make([]uint32, slack(len(v))))
		}
	}
	e.align()
	e.u32s(live)
	e.u32s(strong)

	e.strings(x.sources.name)
	e.strings(x.categories.name)
	cells := make([]uint16, 0, 2*len(x.cells))
	for _, c := range x.cells {
		cells = append(cells, c.source, c.category)
	}
	e.u16s(cells)
	words := make([]string, len(x.wordList))
	wordKeys := make([]string, len(x.wordList))
	for i, w := range x.wordList {
		words[i], wordKeys[i] = w.Word, w.Key
	}
	e.strings(words)
	e.strings(wordKeys)
	e.align()
	e.u32(crc32.Checksum(e.b, castagnoli))
	e.u32(0) // the file ends 8-byte aligned
	_, err := w.Write(e.b)
	return err
}

// slack is the room a snapshot leaves after a list of n postings: the
// documents changed after the snapshot are appended there in place, so
// that a process applying them copies a page of the list, not the list
// (a common key's list is most of the documents). An eighth, at most 256
// (a day's changes, say), at least 2.
func slack(n int) int { return 2 + min(n/8, 254) }

// keyNames are x's keys by id.
func (x *Index) keyNames() []string {
	names := make([]string, len(x.lists))
	for i := range x.base.len() {
		names[i] = x.base.key(i)
	}
	for k, id := range x.keyID {
		names[id] = k
	}
	return names
}

// OpenSnapshot reads the index a snapshot holds from data and the stamp
// it was written with. The index keeps using data, and writes into the
// room the snapshot leaves after each list as changes are applied (never
// into what the snapshot holds): data must stay, writable, while the index
// lives. A snapshot of another format, cut short or with a bad checksum is
// ErrSnapshot.
func OpenSnapshot(data []byte) (*Index, Stamp, error) { return openSnapshot(data, nil) }

// OpenMappedSnapshot is OpenSnapshot of data mapped privately from a file
// (the binary's own data, say): the pages checked are given back to the
// system as the check passes them, and read again from the file when a
// search needs them, so that checking a snapshot does not make it all
// resident. Never data on the heap: its pages would be lost.
func OpenMappedSnapshot(data []byte) (*Index, Stamp, error) {
	return openSnapshot(data, releasePages)
}

// checkChunk is how much of a snapshot is checksummed before its pages are
// released.
const checkChunk = 4 << 20

func openSnapshot(data []byte, release func([]byte)) (*Index, Stamp, error) {
	if !littleEndian() {
		return nil, Stamp{}, fmt.Errorf("%w: written little-endian, read on a big-endian machine", ErrSnapshot)
	}
	if len(data) < len(snapshotMagic)+16 || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return nil, Stamp{}, fmt.Errorf("%w: not a snapshot", ErrSnapshot)
	}
	if uintptr(unsafe.Pointer(&data[0]))%8 != 0 {
		data = alignedCopy(data) // the arrays are read in place: they must be aligned
		release = nil
	}
	d := decoder{b: data, i: len(snapshotMagic)}
	if f := d.u32(); f != snapshotFormat {
		return nil, Stamp{}, fmt.Errorf("%w: format %d, this program reads %d", ErrSnapshot, f, snapshotFormat)
	}
	if len(data)%8 != 0 || len(data) < 8 {
		return nil, Stamp{}, fmt.Errorf("%w: cut short", ErrSnapshot)
	}
	body := data[:len(data)-8]
	var sum uint32
	for at := 0; at < len(body); at += checkChunk {
		chunk := body[at:min(at+checkChunk, len(body))]
		sum = crc32.Update(sum, castagnoli, chunk)
		if release != nil {
			release(chunk)
		}
	}
	if sum != binary.LittleEndian.Uint32(data[len(data)-8:]) {
		return nil, Stamp{}, fmt.Errorf("%w: checksum does not match", ErrSnapshot)
	}
	d.b = body
	genLen := d.u32()
	var st Stamp
	st.Version = d.i64()
	st.Generation = string(d.raw(int(genLen)))
	d.align()
	n, nkeys, nwords, ncells := int(d.u32()), int(d.u32()), int(d.u32()), int(d.u32())
	x := &Index{byKey: make(map[int64]uint32, n), keyID: map[string]uint32{}, cellID: map[cell]uint16{}}
	x.live, x.deleted = int(d.u32()), int(d.u32())
	x.tokens = math.Float64frombits(d.u64())
	t := &x.docs
	t.key = d.i64s(n)
	t.cell = d.u16s(n)
	t.date = d.i32s(n)
	t.length = d.u32s(n)
	t.deleted = make([]bool, n) // written by remove: on the heap
	for i, b := range d.bytes(n) {
		t.deleted[i] = b != 0
	}
	t.slug = d.strings(n)
	numberAt := d.offsets(n)
	numbers := d.u32s(d.last(numberAt))
	if d.err == nil {
		t.number = make([][]uint32, n)
		for i := range n {
			t.number[i] = numbers[numberAt[i]:numberAt[i+1]:numberAt[i+1]]
		}
	}
	t.keysAt = d.offsets(n)
	t.keys = d.u32s(d.last(t.keysAt))
	x.base = d.table(nkeys)
	listAt := d.offsets(nkeys)
	lengths := d.u32s(nkeys)
	docs := d.u32s(d.last(listAt))
	vals := d.u32s(d.last(listAt))
	live := d.u32s(nkeys)
	strong := d.u32s(nkeys)
	if d.err == nil {
		x.lists = make([]postings, nkeys)
		for i := range x.lists {
			a, b := listAt[i], listAt[i+1]
			n := a + lengths[i]
			if n > b {
				d.fail()
				break
			}
			// the room after the list is its capacity: appended to in place
			x.lists[i] = postings{docs: docs[a:n:b], vals: vals[a:n:b], live: int32(live[i]), strong: int32(strong[i])}
		}
	}
	x.stamp = make([]uint32, nkeys)
	x.sources.name = d.strings(-1)
	x.categories.name = d.strings(-1)
	cells := d.u16s(2 * ncells)
	words := d.table(nwords)
	wordKeys := d.table(nwords)
	d.align()
	if d.err == nil && d.i != len(body) {
		d.fail()
	}
	if d.err != nil {
		return nil, Stamp{}, d.err
	}
	for i, name := range x.sources.name {
		x.sources.set(name, i)
	}
	for i, name := range x.categories.name {
		x.categories.set(name, i)
	}
	for i := range ncells {
		c := cell{cells[2*i], cells[2*i+1]}
		x.cellID[c] = uint16(i)
		x.cells = append(x.cells, c)
	}
	for d, k := range t.key {
		if !t.deleted[d] {
			x.byKey[k] = uint32(d)
		}
	}
	x.wordList = make([]search.Word, nwords)
	for i := range x.wordList {
		x.wordList[i] = search.Word{Word: words.key(i), Key: wordKeys.key(i)}
	}
	return x, st, nil
}

// set gives name the id i.
func (n *names) set(name string, i int) {
	if n.ids == nil {
		n.ids = map[string]uint16{}
	}
	n.ids[name] = uint16(i)
}

// alignedCopy is a copy of b at an 8-byte aligned address.
func alignedCopy(b []byte) []byte {
	words := make([]uint64, (len(b)+7)/8)
	out := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(words))), len(b))
	copy(out, b)
	return out
}

func littleEndian() bool {
	v := uint16(1)
	return *(*byte)(unsafe.Pointer(&v)) == 1
}

// encoder appends a snapshot's parts, each array 8-byte aligned.
type encoder struct{ b []byte }

func (e *encoder) raw(b []byte) { e.b = append(e.b, b...) }
func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) i64(v int64)  { e.u64(uint64(v)) }

func (e *encoder) align() {
	for len(e.b)%8 != 0 {
		e.b = append(e.b, 0)
	}
}

func (e *encoder) i64s(v []int64) {
	e.align()
	for _, x := range v {
		e.i64(x)
	}
}

func (e *encoder) i32s(v []int32) {
	e.align()
	for _, x := range v {
		e.u32(uint32(x))
	}
}

func (e *encoder) u32s(v []uint32) {
	e.align()
	e.u32sRaw(v)
}

// u32sRaw appends v without aligning first: one of several arrays read as
// one.
func (e *encoder) u32sRaw(v []uint32) {
	for _, x := range v {
		e.u32(x)
	}
}

func (e *encoder) u16s(v []uint16) {
	e.align()
	for _, x := range v {
		e.b = binary.LittleEndian.AppendUint16(e.b, x)
	}
}

func (e *encoder) bytes(v []byte) {
	e.align()
	e.raw(v)
}

// strings appends how many strings there are, their offsets and their
// bytes.
func (e *encoder) strings(v []string) {
	e.align()
	e.u32(uint32(len(v)))
	at := make([]uint32, 0, len(v)+1)
	var n uint32
	at = append(at, 0)
	for _, s := range v {
		n += uint32(len(s))
		at = append(at, n)
	}
	e.u32s(at)
	e.align()
	for _, s := range v {
		e.b = append(e.b, s...)
	}
}

// decoder reads what encoder wrote, pointing into its bytes, remembering
// its first error.
type decoder struct {
	b   []byte
	i   int
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = fmt.Errorf("%w: malformed at byte %d", ErrSnapshot, d.i)
	}
	d.i = len(d.b)
}

func (d *decoder) align() {
	d.i = min((d.i+7)&^7, len(d.b))
}

// raw is the next n bytes.
func (d *decoder) raw(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b)-d.i {
		d.fail()
		return nil
	}
	d.i += n
	return d.b[d.i-n : d.i : d.i]
}

func (d *decoder) u32() uint32 {
	if b := d.raw(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.raw(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) i64() int64 { return int64(d.u64()) }

// array is the next n elements of size bytes each, aligned.
func array[T any](d *decoder, n int) []T {
	d.align()
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n < 0 || n > (len(d.b)-d.i)/size {
		d.fail()
		return nil
	}
	b := d.raw(n * size)
	if n == 0 || b == nil {
		return nil
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
}

func (d *decoder) i64s(n int) []int64  { return array[int64](d, n) }
func (d *decoder) i32s(n int) []int32  { return array[int32](d, n) }
func (d *decoder) u32s(n int) []uint32 { return array[uint32](d, n) }
func (d *decoder) u16s(n int) []uint16 { return array[uint16](d, n) }
func (d *decoder) bytes(n int) []byte  { return array[byte](d, n) }

// last is the end of the data offsets at describe.
func (d *decoder) last(at []uint32) int { return int(at[len(at)-1]) }

// offsets are n+1 ascending offsets from 0.
func (d *decoder) offsets(n int) []uint32 {
	at := d.u32s(n + 1)
	if d.err != nil {
		return []uint32{0}
	}
	if at[0] != 0 {
		d.fail()
		return []uint32{0}
	}
	for i := 1; i < len(at); i++ {
		if at[i] < at[i-1] {
			d.fail()
			return []uint32{0}
		}
	}
	return at
}

// table reads what encoder.strings wrote, n strings (n < 0: as many as
// written), as a keyTable pointing into the data.
func (d *decoder) table(n int) keyTable {
	d.align()
	count := int(d.u32())
	if n >= 0 && count != n {
		d.fail()
	}
	at := d.offsets(count)
	d.align()
	data := d.raw(d.last(at))
	if d.err != nil {
		return keyTable{}
	}
	return keyTable{at: at, data: unsafe.String(unsafe.SliceData(data), len(data))}
}

// strings reads what encoder.strings wrote (n < 0: as many as written).
func (d *decoder) strings(n int) []string {
	t := d.table(n)
	out := make([]string, t.len())
	for i := range out {
		out[i] = t.key(i)
	}
	return out
}
