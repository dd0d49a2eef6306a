// Package redline compares two texts word by word, as a reader of a
// regulation compares two versions of a paragraph: which words were
// struck out and which were put in.
//
// Words are runs of letters, combining marks and digits in any script,
// (internal/words), so a Devanagari word with its vowel signs (Mc) and nukta (Mn)
// stays whole; spaces and each punctuation mark are tokens of their own.
// The diff is sergi/go-diff's DiffMain over those tokens (one rune per
// distinct token, the library's line-mode trick applied to words), with
// its semantic clean-up; never its patch functions.
package redline

import (
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"

	"regpulse/internal/words"
)

// Op is what happened to a segment of text.
type Op string

const (
	Equal  Op = "equal"
	Insert Op = "insert" // in the later text only
	Delete Op = "delete" // in the earlier text only
)

// Segment is a run of tokens with one Op; the Equal and Delete segments
// in order spell the earlier text, the Equal and Insert ones the later.
type Segment struct {
	Op   Op     `json:"op" enum:"RedlineOp"`
	Text string `json:"text"`
}

// Ops lists the values of Op, for the API's description of them.
var Ops = []string{string(Equal), string(Insert), string(Delete)}

// Words compares before and after word by word. Identical texts give one
// Equal segment (none when both are empty).
func Words(before, after string) []Segment {
	if before == after {
		if before == "" {
			return nil
		}
		return []Segment{{Equal, before}}
	}
	enc := encoder{ids: map[string]rune{}}
	a, b := enc.runes(Tokens(before)), enc.runes(Tokens(after))
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // exact: a provision is short, and a timeout would make the result depend on the machine
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(a, b, false))
	out := make([]Segment, 0, len(diffs))
	for _, d := range diffs {
		var sb strings.Builder
		for _, r := range d.Text {
			sb.WriteString(enc.tokens[enc.index(r)])
		}
		op := Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = Insert
		case diffmatchpatch.DiffDelete:
			op = Delete
		}
		if n := len(out); n > 0 && out[n-1].Op == op {
			out[n-1].Text += sb.String()
			continue
		}
		out = append(out, Segment{op, sb.String()})
	}
	return out
}

// Tokens splits s into words, runs of white space and single other
// characters; joined, they give s back.
func Tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		j := i + n
		switch {
		case words.IsPart(r):
			j = words.End(s, i)
		case unicode.IsSpace(r):
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !unicode.IsSpace(r) {
					break
				}
				j += n
			}
		}
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// encoder gives each distinct token a rune of its own.
type encoder struct {
	ids    map[string]rune
	tokens []string
}

// first is the rune of the first token; runes skip the surrogate range,
// which is not valid in UTF-8.
const first = 0x100

func (e *encoder) runes(tokens []string) []rune {
	out := make([]rune, len(tokens))
	for i, t := range tokens {
		r, ok := e.ids[t]
		if !ok {
			r = e.rune(len(e.tokens))
			e.ids[t] = r
			e.tokens = append(e.tokens, t)
		}
		out[i] = r
	}
	return out
}

func (e *encoder) rune(i int) rune {
	r := rune(first + i)
	if r >= 0xd800 {
		r += 0x800
	}
	return r
}

func (e *encoder) index(r rune) int {
	if r >= 0xe000 {
		r -= 0x800
	}
	return int(r - first)
}

// HTML writes segs as HTML, escaped: inserted words in <ins>, deleted
// ones in <del>, which feed readers and mail clients show underlined and
// struck through without any style sheet.
func HTML(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		t := html.EscapeString(s.Text)
		switch s.Op {
		case Insert:
			b.WriteString("<ins>" + t + "</ins>")
		case Delete:
			b.WriteString("<del>" + t + "</del>")
		default:
			b.WriteString(t)
		}
	}
	return b.String()
}
