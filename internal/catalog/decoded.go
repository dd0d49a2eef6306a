package catalog

import (
	"crypto/sha256"
	"reflect"
	"strings"
)

// DecodedFile is what a load made of one circular's file, kept between
// loads (WithDecoded): the entry as its file decoded it, before the checks
// across files, and what else the file added to the catalog. At 100,000
// circulars reading and parsing every file's YAML is most of a load that
// follows a one-file edit; a file whose bytes the caller already knows
// (by their hash) is taken from here instead.
type DecodedFile struct {
	// Sum is the hash of the file's bytes; Label the content folder's
	// label the entry's Path starts with.
	Sum   [sha256.Size]byte
	Label string
	// Published says which list the circular is in (Circulars, else
	// Unpublished).
	Published bool
	Circular  Circular
	// Pending and Warnings are those the file added; Lines are its
	// fields' lines, for problems found across files.
	Pending, Warnings Problems
	Lines             map[string]int
}

// Decoded is a load's DecodedFile of each circular's file, by the file's
// path in the load's fs.FS. By pointer: a DecodedFile is some 800 bytes,
// and an entry taken from the last load is the next one's as it is (at
// 100,000 circulars two copies of each were 150 MB moved every load).
type Decoded map[string]*DecodedFile

// WithDecoded makes a load take a circular whose file's hash sum knows
// without reading the file (false: unknown) from last, when last has it
// for the same bytes and label, rather than read and parse the file (a
// load that keeps the texts reads the file, checks its hash and takes
// the text, but parses no YAML). next receives every circular's
// DecodedFile that this load read cleanly or took from last, for the
// next load. Only circulars are kept: the other folders hold a few
// hundred files. A file's entry is the same either way
// (TestLoadFS_WithDecoded), since an entry depends on its file's bytes
// alone: the checks across files run on every load, and never write into
// what a file decoded to (reviewCitations copies what it changes).
func WithDecoded(last Decoded, sum func(path string) ([sha256.Size]byte, bool), next Decoded) LoadOption {
	return func(l *loader) {
		l.decoded = &decodedCache{last: last, sum: sum, next: next}
	}
}

// decodedCache is WithDecoded's.
type decodedCache struct {
	last, next Decoded
	sum        func(path string) ([sha256.Size]byte, bool)
	decodedAt  []decodedAt
}

// decodedHit is last's entry for the circular's file at rel when its
// bytes are the ones the caller knows, else nil.
func (l *loader) decodedHit(rel string) *DecodedFile {
	d := l.decoded
	if d == nil || !strings.HasPrefix(rel, "circulars/") {
		return nil
	}
	e := d.last[rel]
	if e == nil || e.Label != l.label {
		return nil
	}
	if sum, ok := d.sum(rel); !ok || sum != e.Sum {
		return nil
	}
	return e
}

// takeDecoded adds e, the file at rel, to the catalog as parsing it would
// have; false, and nothing added, when its id is another file's already
// (then the file is parsed, and the problem reported at its line).
func (l *loader) takeDecoded(rel string, e *DecodedFile) bool {
	c := e.Circular
	if _, dup := l.ids[c.ID]; dup {
		return false
	}
	l.ids[c.ID] = c.Path
	l.fieldLines[c.Path] = e.Lines
	l.cat.Pending = append(l.cat.Pending, e.Pending...)
	l.cat.Warnings = append(l.cat.Warnings, e.Warnings...)
	if e.Published {
		l.cat.Circulars = append(l.cat.Circulars, c)
	} else {
		l.cat.Unpublished = append(l.cat.Unpublished, c)
	}
	if e.Circular.Content != "" { // (read with the file: not kept)
		kept := *e
		kept.Circular.Content = ""
		e = &kept
	}
	l.decoded.next[rel] = e
	return true
}

// decodeCircular checks the circular's file at rel, as read, and keeps
// what it decoded to in next when it had no problem and the hash of its
// bytes is known (WithDecoded's sum).
func (l *loader) decodeCircular(rel string, pf parsedFile) {
	problems, pending, warnings := len(l.problems), len(l.cat.Pending), len(l.cat.Warnings)
	published, unpublished := len(l.cat.Circulars), len(l.cat.Unpublished)
	l.parsed(rel, pf)
	// (every load, so that a circular is the same kept or not)
	for _, c := range [][]Circular{l.cat.Circulars[published:], l.cat.Unpublished[unpublished:]} {
		for i := range c {
			emptiesToNil(reflect.ValueOf(&c[i]).Elem())
		}
	}
	if l.decoded == nil || !pf.known || len(l.problems) != problems {
		return
	}
	d := decodedAt{rel: rel, sum: pf.sum,
		pending:  append(Problems(nil), l.cat.Pending[pending:]...),
		warnings: append(Problems(nil), l.cat.Warnings[warnings:]...)}
	switch {
	case len(l.cat.Circulars) == published+1 && len(l.cat.Unpublished) == unpublished:
		d.published, d.index = true, published
	case len(l.cat.Unpublished) == unpublished+1 && len(l.cat.Circulars) == published:
		d.index = unpublished
	default:
		return
	}
	l.decoded.decodedAt = append(l.decoded.decodedAt, d)
}

// decodedAt is where a file decodeCircular kept put its circular, until
// keepDecoded copies it into next: holding a copy of every circular
// while the files are parsed made each of the many collections the
// parsing causes mark another 100 MB at 100,000 circulars.
type decodedAt struct {
	rel               string
	sum               [sha256.Size]byte
	published         bool
	index             int // in Circulars or Unpublished
	pending, warnings Problems
}

// keepDecoded copies what each file decodeCircular kept decoded to into
// next, once every file is read and before the checks across files.
func (l *loader) keepDecoded() {
	d := l.decoded
	if d == nil {
		return
	}
	for _, at := range d.decodedAt {
		e := DecodedFile{Sum: at.sum, Label: l.label, Published: at.published, Pending: at.pending, Warnings: at.warnings}
		if at.published {
			e.Circular = l.cat.Circulars[at.index]
		} else {
			e.Circular = l.cat.Unpublished[at.index]
		}
		e.Circular.Content = "" // (read again with the file when wanted)
		e.Lines = l.fieldLines[e.Circular.Path]
		d.next[at.rel] = &e
	}
	d.decodedAt = nil
}

// emptiesToNil makes every empty slice or map in v (settable) nil, through
// its structs' exported fields, slices and pointers: what gob, which
// keeps DecodedFile, makes of them.
func emptiesToNil(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			emptiesToNil(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				emptiesToNil(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			return
		}
		if v.Len() == 0 {
			v.SetZero()
			return
		}
		if k := v.Type().Elem().Kind(); k == reflect.Struct || k == reflect.Pointer || k == reflect.Slice || k == reflect.Map {
			for i := range v.Len() {
				emptiesToNil(v.Index(i))
			}
		}
	case reflect.Map:
		if !v.IsNil() && v.Len() == 0 {
			v.SetZero()
		}
	}
}
