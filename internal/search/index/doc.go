package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/search"
)

// Doc is what the index holds of one circular: the store's key of its
// row, what filters and orders read, and its Terms as AppendBinary
// encodes them. A store keeps each circular's Doc, so that an instance
// loads the index without reading or tokenising a text again.
type Doc struct {
	Key      int64
	Source   string
	Category string
	Date     string // YYYY-MM-DD
	Slug     string
	Terms    []byte
}

// Terms are a circular's index keys counted per column.
type Terms struct {
	// Lengths is each column's number of keys.
	Lengths [search.Columns]uint32
	// Keys are the distinct keys, Freqs how often each is in each column.
	Keys  []string
	Freqs [][search.Columns]uint32
	// Number is the circular number's keys in order, as places in Keys
	// (a number is matched as a phrase).
	Number []uint32
}

// Count counts the keys of a document's columns.
func Count(d search.Document) Terms {
	t := Terms{Keys: d.Keys, Freqs: make([][search.Columns]uint32, len(d.Keys))}
	for col, places := range d.Columns {
		t.Lengths[col] = uint32(len(places))
		for _, p := range places {
			t.Freqs[p][col]++
		}
	}
	for _, p := range d.Columns[search.ColumnNumber] {
		t.Number = append(t.Number, uint32(p))
	}
	return t
}

// termsFormat is the first byte of an encoded Terms; a change of the
// encoding takes a new one (and a migration rewriting the rows).
const termsFormat = 1

// AppendBinary appends the encoding of t to b: the format, the column
// lengths, each key with a byte saying which columns hold it and its
// count in each of those, then the number's keys as places.
func (t Terms) AppendBinary(b []byte) ([]byte, error) {
	b = append(b, termsFormat)
	for _, n := range t.Lengths {
		b = binary.AppendUvarint(b, uint64(n))
	}
	b = binary.AppendUvarint(b, uint64(len(t.Keys)))
	for i, k := range t.Keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
		var mask byte
		for col, f := range t.Freqs[i] {
			if f > 0 {
				mask |= 1 << col
			}
		}
		if mask == 0 {
			return nil, fmt.Errorf("index: key %q is in no column", k)
		}
		b = append(b, mask)
		for _, f := range t.Freqs[i] {
			if f > 0 {
				b = binary.AppendUvarint(b, uint64(f))
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(t.Number)))
	for _, n := range t.Number {
		b = binary.AppendUvarint(b, uint64(n))
	}
	return b, nil
}

// ErrTerms is the error of an encoding that cannot be read.
var ErrTerms = errors.New("index: malformed terms")

// UnmarshalBinary reads what AppendBinary wrote.
func (t *Terms) UnmarshalBinary(b []byte) error {
	*t = Terms{}
	return decode(b, &t.Lengths, func(k []byte, f [search.Columns]uint32) {
		t.Keys = append(t.Keys, string(k))
		t.Freqs = append(t.Freqs, f)
	}, func(place uint32) { t.Number = append(t.Number, place) })
}

// decode reads an encoding into lengths, calling key for each key in
// order (k is only valid during the call) and number for each of the
// number's places.
func decode(b []byte, lengths *[search.Columns]uint32, key func(k []byte, f [search.Columns]uint32), number func(place uint32)) error {
	r := reader{b: b}
	if r.byte() != termsFormat {
		return fmt.Errorf("%w: unknown format", ErrTerms)
	}
	for col := range lengths {
		lengths[col] = uint32(r.uvarint(1<<32 - 1))
	}
	n := r.uvarint(uint64(len(b))) // each key takes at least a byte
	for range n {
		k := r.bytes(r.uvarint(uint64(len(b))))
		mask := r.byte()
		if mask == 0 || mask >= 1<<search.Columns {
			r.fail()
		}
		var f [search.Columns]uint32
		for col := range f {
			if mask&(1<<col) != 0 {
				f[col] = uint32(r.uvarint(1<<32 - 1))
				if f[col] == 0 {
					r.fail()
				}
			}
		}
		if r.err != nil {
			return r.err
		}
		key(k, f)
	}
	m := r.uvarint(uint64(len(b)))
	for range m {
		if n == 0 {
			r.fail()
		}
		place := uint32(r.uvarint(n - 1))
		if r.err != nil {
			return r.err
		}
		number(place)
	}
	if r.err == nil && r.i != len(b) {
		r.fail()
	}
	return r.err
}

// reader reads an encoding, remembering its first error.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("%w at byte %d", ErrTerms, r.i)
	}
	r.i = len(r.b)
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.fail()
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

// uvarint reads a number of at most max.
func (r *reader) uvarint(max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v > max {
		r.fail()
		return 0
	}
	r.i += n
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil || n > uint64(len(r.b)-r.i) {
		r.fail()
		return nil
	}
	r.i += int(n)
	return r.b[r.i-int(n) : r.i]
}

// dayNumber is a YYYY-MM-DD date as a number in the same order
// (20250620), or 0 when it is not one.
func dayNumber(date string) int32 {
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(date, "-", ""))
	return int32(n)
}

// posted is a key's counts in a document as its posting holds them, in
// one 32-bit word: the high half the weighted count in the number, title
// and summary (the strong tier's columns), the low half the count in the
// text; each saturates at 65535.
func posted(f [search.Columns]uint32) uint32 {
	var strong float64
	for col := range search.ColumnContent {
		strong += search.Weights[col] * float64(f[col])
	}
	return uint32(min(strong, 0xffff))<<16 | min(f[search.ColumnContent], 0xffff)
}

// strongCount and allCount are the weighted counts a posting holds: in
// the strong tier's columns, and in all.
func strongCount(v uint32) float64 { return float64(v >> 16) }

func allCount(v uint32) float64 {
	return float64(v>>16) + search.WeightContent*float64(v&0xffff)
}
