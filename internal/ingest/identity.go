package ingest

import (
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// One identity per instrument. The same circular reaches ingest as an
// RBI notification and a press release, in English and in Hindi, as an
// HTML page and a PDF, re-posted by NPCI; each copy after the first is
// kept as "also published as" on the first, never as a second draft.
// Copies are matched by, in order: the normalised link; the regulator's
// reference number (RefKey); the source, date and title words; and a
// SimHash of the body (same source, within simWindow, at most simBits
// bits apart). Two items whose reference numbers differ are never merged
// by the last two rules: monthly returns and an OC's addenda look alike
// and are different instruments.

// Rule is what matched an item to a known instrument.
type Rule string

const (
	ByLink      Rule = "link"
	ByRef       Rule = "reference"
	ByTitleDate Rule = "title+date"
	BySimHash   Rule = "simhash"
)

const (
	simBits   = 3
	simWindow = 7 * 24 * time.Hour
)

// Identify is the identity of an item of source dated date. The link's
// path is searched for a reference number too: NPCI's PDFs are named by
// their OC number.
func Identify(source string, date time.Time, title, link, body string) Identity {
	key, _ := catalog.NormaliseLink(link)
	return Identity{
		Source:    source,
		Date:      date,
		Link:      key,
		Ref:       RefKey(source, title+" "+linkWords(link), body),
		TitleDate: titleDateKey(source, date, title),
		SimHash:   SimHash(body),
	}
}

// identifyEntry is e's identity, its number (a listing's number cell, a
// file's circularNumber) read with its title for the reference keys but
// kept out of the title words.
func identifyEntry(e entry) Identity {
	id := Identify(e.source, e.date, e.title, e.link, e.body)
	if e.number != "" {
		id.Ref = RefKey(e.source, e.number+" "+e.title+" "+linkWords(e.link), e.body)
	}
	return id
}

// linkWords is a link's last path segment with its separators as spaces
// ("UPI-OC-No-215-A-FY-2025-26.pdf" → "UPI OC No 215 A FY 2025 26 pdf"),
// or "" for a link whose name says nothing.
func linkWords(link string) string {
	i := strings.LastIndexByte(link, '/')
	if i < 0 {
		return ""
	}
	name := link[i+1:]
	return strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(name)
}

// titleDateKey is the source, the day and the title's telling words in
// order (lower case, stop words and reference numbers out).
func titleDateKey(source string, date time.Time, title string) string {
	for _, re := range numberPatterns {
		title = re.ReplaceAllString(title, " ")
	}
	var words []string
	for _, w := range simWords(title) {
		if !stopWords[w] {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return ""
	}
	return source + "|" + date.Format(time.DateOnly) + "|" + strings.Join(words, " ")
}

// refsDiffer reports whether a and b both carry reference numbers and
// share none: two different instruments, however alike.
func refsDiffer(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	for _, k := range strings.Fields(a) {
		for _, l := range strings.Fields(b) {
			if k == l {
				return false
			}
		}
	}
	return true
}

// Known is an instrument or copy in the index: its identity, and the
// first copy it is another copy of (itself for a first copy).
type Known struct {
	Identity
	// ID is the store's row id (0 for one known only from the content).
	ID int64
	// Canonical is the index of the first copy.
	Canonical int
	// Path is the first copy's file, relative to the content's parent
	// ("" when it is only a queued draft).
	Path string
	// Draft is the text written for it this run or queued, compared
	// before adding an "also published as" link to its file.
	Draft []byte
	// AddedIn is the poll of this run that found it (0: known before).
	AddedIn int
}

// Index finds known instruments by each rule. It is built from the
// content and the store when a run starts, and grows as items arrive.
type Index struct {
	all       []Known
	link      map[string]int
	ref       map[string]int
	titleDate map[string]int
	bands     [4]map[uint16][]int
}

// NewIndex is an empty index.
func NewIndex() *Index {
	x := &Index{link: map[string]int{}, ref: map[string]int{}, titleDate: map[string]int{}}
	for i := range x.bands {
		x.bands[i] = map[uint16][]int{}
	}
	return x
}

// Len is how many items the index holds.
func (x *Index) Len() int { return len(x.all) }

// At is the item at i.
func (x *Index) At(i int) *Known { return &x.all[i] }

// Add puts k in the index as a copy of canonical (-1: a first copy of
// its own) and returns its place. Keys already taken keep their first
// holder.
func (x *Index) Add(k Known, canonical int) int {
	i := len(x.all)
	if canonical < 0 {
		canonical = i
	}
	if canonical != i {
		canonical = x.all[canonical].Canonical // a copy of a copy is a copy of the first
	}
	k.Canonical = canonical
	x.all = append(x.all, k)
	put := func(m map[string]int, key string) {
		if _, ok := m[key]; key != "" && !ok {
			m[key] = i
		}
	}
	put(x.link, k.Link)
	for _, r := range strings.Fields(k.Ref) {
		put(x.ref, r)
	}
	put(x.titleDate, k.TitleDate)
	if k.SimHash != 0 {
		for b := range x.bands {
			band := uint16(k.SimHash >> (16 * b))
			x.bands[b][band] = append(x.bands[b][band], i)
		}
	}
	return i
}

// Match finds the instrument id is a copy of: the place of the item that
// matched, and by which rule (ok false for a new instrument).
func (x *Index) Match(id Identity) (at int, rule Rule, ok bool) {
	if i, ok := x.link[id.Link]; ok && id.Link != "" {
		return i, ByLink, true
	}
	for _, r := range strings.Fields(id.Ref) {
		if i, ok := x.ref[r]; ok {
			return i, ByRef, true
		}
	}
	if i, ok := x.titleDate[id.TitleDate]; ok && id.TitleDate != "" && !refsDiffer(id.Ref, x.all[i].Ref) {
		return i, ByTitleDate, true
	}
	if id.SimHash == 0 {
		return 0, "", false
	}
	best, bestDist := -1, simBits+1
	for b := range x.bands {
		for _, i := range x.bands[b][uint16(id.SimHash>>(16*b))] {
			k := &x.all[i]
			d := Hamming(id.SimHash, k.SimHash)
			if d >= bestDist || k.Source != id.Source || refsDiffer(id.Ref, k.Ref) {
				continue
			}
			if gap := id.Date.Sub(k.Date); gap > simWindow || gap < -simWindow {
				continue
			}
			best, bestDist = i, d
		}
	}
	if best < 0 {
		return 0, "", false
	}
	return best, BySimHash, true
}
