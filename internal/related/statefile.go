package related

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// stateMagic begins a State as WriteTo writes it; its last byte is the
// format's version.
const stateMagic = "regpulse related state\x01"

// maxStateLen bounds each count ReadState reads (at 100,000 docs the
// longest, every doc's terms end to end, is some 10 million), so that a
// damaged file is an error, not an allocation of its garbage's size.
const maxStateLen = 1 << 27

// WriteTo writes st in a flat binary form that ReadState reads: each
// list of lists as its lengths and then its values end to end. At
// 100,000 docs gob held the encoded state whole (75 MB), its buffers
// growing to some 380 MB, and decoded it into 400,000 small slices that
// every collection then marked.
func (st *State) WriteTo(w io.Writer) (int64, error) {
	n := len(st.IDs)
	if len(st.Inputs) != n || len(st.Terms) != n || len(st.Counts) != n || len(st.Vectors) != n || len(st.Meta) != n ||
		len(st.Series) != n || len(st.Read) != n || len(st.Out) != n {
		return 0, errors.New("related: a state whose lists are not one per doc")
	}
	for i := range st.Terms {
		if len(st.Terms[i]) != len(st.Counts[i]) {
			return 0, fmt.Errorf("related: doc %d has %d terms and %d counts", i, len(st.Terms[i]), len(st.Counts[i]))
		}
	}
	sw := &stateWriter{w: bufio.NewWriterSize(w, 1<<16)}
	sw.bytes([]byte(stateMagic))
	sw.uvarint(uint64(st.K), uint64(n), uint64(len(st.Vocab)), uint64(len(st.Posts)))
	for _, id := range st.IDs {
		sw.string(id)
	}
	for _, in := range st.Inputs {
		sw.bytes(in[:])
	}
	for _, v := range st.Vocab {
		sw.string(v)
	}
	sw.int32s(st.Terms)
	for _, cs := range st.Counts { // (the lengths are the terms')
		for _, c := range cs {
			sw.uint32(math.Float32bits(c))
		}
	}
	for _, hs := range [][]uint64{st.Vectors, st.Meta, st.Series, st.Posts} {
		for _, h := range hs {
			sw.uint64(h)
		}
	}
	sw.int32s(st.Read)
	sw.int32s(st.Out)
	if sw.err == nil {
		sw.err = sw.w.Flush()
	}
	return sw.n, sw.err
}

// ReadState reads a State WriteTo wrote. Each list of lists shares one
// array, which holds no pointers for the collector to follow; each
// doc's slice of it is capped at its length, so that appending to one
// copies it.
func ReadState(r io.Reader) (*State, error) {
	sr := &stateReader{r: bufio.NewReaderSize(r, 1<<16)}
	if magic := sr.bytes(len(stateMagic)); sr.err == nil && string(magic) != stateMagic {
		return nil, errors.New("related: not a state of this version")
	}
	k, n, vocab, posts := sr.count(), sr.count(), sr.count(), sr.count()
	st := &State{K: k}
	if sr.err != nil {
		return nil, sr.err
	}
	st.IDs = make([]string, n)
	for i := range st.IDs {
		st.IDs[i] = sr.string()
	}
	st.Inputs = make([][sha256.Size]byte, n)
	for i := range st.Inputs {
		copy(st.Inputs[i][:], sr.bytes(sha256.Size))
	}
	st.Vocab = make([]string, vocab)
	for i := range st.Vocab {
		st.Vocab[i] = sr.string()
	}
	st.Terms = sr.int32s(n)
	lens := make([]int, n) // the counts' lengths are the terms'
	for i, t := range st.Terms {
		lens[i] = len(t)
	}
	st.Counts = split(words(sr, total(lens), 4, func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) }), lens)
	st.Vectors, st.Meta, st.Series, st.Posts = sr.uint64s(n), sr.uint64s(n), sr.uint64s(n), sr.uint64s(posts)
	st.Read = sr.int32s(n)
	st.Out = sr.int32s(n)
	if sr.err != nil {
		return nil, fmt.Errorf("related: reading a state: %w", sr.err)
	}
	if err := st.check(); err != nil {
		return nil, fmt.Errorf("related: reading a state: %w", err)
	}
	return st, nil
}

// check says whether every index st holds is in range: RankFrom indexes
// by them, and a damaged file must be an error, not a panic.
func (st *State) check() error {
	if len(st.Posts) != len(st.Vocab) {
		return fmt.Errorf("%d postings' hashes for %d terms", len(st.Posts), len(st.Vocab))
	}
	in := func(lists [][]int32, n int, what string) error {
		for i, l := range lists {
			for _, v := range l {
				if v < 0 || int(v) >= n {
					return fmt.Errorf("doc %d's %s: %d, not under %d", i, what, v, n)
				}
			}
		}
		return nil
	}
	return errors.Join(in(st.Terms, len(st.Vocab), "terms"), in(st.Read, len(st.IDs), "docs read"),
		in(st.Out, len(st.IDs), "ranking"))
}

func total(lens []int) int {
	n := 0
	for _, l := range lens {
		n += l
	}
	return n
}

// split cuts flat into lists of lens, each capped at its length.
func split[T any](flat []T, lens []int) [][]T {
	out := make([][]T, len(lens))
	if len(flat) < total(lens) { // (a read that failed)
		return out
	}
	off := 0
	for i, l := range lens {
		out[i] = flat[off : off+l : off+l]
		off += l
	}
	return out
}

// stateWriter writes a State's parts, keeping the first error.
type stateWriter struct {
	w   *bufio.Writer
	n   int64
	err error
	buf [binary.MaxVarintLen64]byte
}

func (sw *stateWriter) bytes(b []byte) {
	if sw.err != nil {
		return
	}
	m, err := sw.w.Write(b)
	sw.n += int64(m)
	sw.err = err
}

func (sw *stateWriter) uvarint(vs ...uint64) {
	for _, v := range vs {
		sw.bytes(binary.AppendUvarint(sw.buf[:0], v))
	}
}

func (sw *stateWriter) string(s string) {
	sw.uvarint(uint64(len(s)))
	if sw.err == nil {
		m, err := sw.w.WriteString(s)
		sw.n += int64(m)
		sw.err = err
	}
}

func (sw *stateWriter) uint32(v uint32) { sw.bytes(binary.LittleEndian.AppendUint32(sw.buf[:0], v)) }
func (sw *stateWriter) uint64(v uint64) { sw.bytes(binary.LittleEndian.AppendUint64(sw.buf[:0], v)) }

// int32s writes lists as their lengths and then their values.
func (sw *stateWriter) int32s(lists [][]int32) {
	for _, l := range lists {
		sw.uvarint(uint64(len(l)))
	}
	for _, l := range lists {
		for _, v := range l {
			sw.uint32(uint32(v))
		}
	}
}

// stateReader reads a State's parts, keeping the first error; once it
// has one, every read gives zero values.
type stateReader struct {
	r       *bufio.Reader
	err     error
	scratch []byte
}

func (sr *stateReader) fail(err error) {
	if sr.err == nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		sr.err = err
	}
}

func (sr *stateReader) count() int {
	if sr.err != nil {
		return 0
	}
	v, err := binary.ReadUvarint(sr.r)
	if err != nil {
		sr.fail(err)
		return 0
	}
	if v > maxStateLen {
		sr.fail(fmt.Errorf("a count of %d", v))
		return 0
	}
	return int(v)
}

// bytes reads n bytes into the reader's scratch, which the next read
// overwrites.
func (sr *stateReader) bytes(n int) []byte {
	if cap(sr.scratch) < n {
		sr.scratch = make([]byte, n)
	}
	b := sr.scratch[:n]
	if sr.err != nil {
		return b
	}
	if _, err := io.ReadFull(sr.r, b); err != nil {
		sr.fail(err)
	}
	return b
}

func (sr *stateReader) string() string {
	n := sr.count()
	if sr.err != nil {
		return ""
	}
	return string(sr.bytes(n))
}

// words reads n little-endian words of size bytes, each made a T by
// word, through a buffer of its own.
func words[T any](sr *stateReader, n, size int, word func([]byte) T) []T {
	out := make([]T, n)
	var buf [1 << 16]byte
	for x := 0; x < n && sr.err == nil; {
		b := buf[:min((n-x)*size, len(buf))]
		if _, err := io.ReadFull(sr.r, b); err != nil {
			sr.fail(err)
			break
		}
		for ; len(b) >= size; b = b[size:] {
			out[x] = word(b)
			x++
		}
	}
	return out
}

func (sr *stateReader) uint64s(n int) []uint64 {
	return words(sr, n, 8, binary.LittleEndian.Uint64)
}

// int32s reads n lists int32s wrote into one array.
func (sr *stateReader) int32s(n int) [][]int32 {
	lens := make([]int, n)
	for i := range lens {
		lens[i] = sr.count()
	}
	if sum := total(lens); sum > maxStateLen {
		sr.fail(fmt.Errorf("lists of %d values", sum))
	}
	if sr.err != nil {
		return make([][]int32, n)
	}
	return split(words(sr, total(lens), 4, func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) }), lens)
}
