package catalog

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode"
	"unicode/utf8"

	"regpulse/internal/markdown"
)

// The languages an entry's own text is in (Circular.Lang, NewsItem.Lang):
// circulars and news stay in the language they are written in, and the
// pages and islands mark an entry whose language differs from the page's
// with a lang attribute, so screen readers and browsers read it as what
// it is. The rule is decided here once; templates and islands show the
// field, they never look at the text themselves.
const (
	LangEnglish = "en"
	LangHindi   = "hi"
)

// Langs are the values of Lang.
var Langs = []string{LangEnglish, LangHindi}

// langSample is how many letters of a text TextLang reads: enough to
// tell, and a whole circular's text is never walked.
const langSample = 2000

// TextLang is the language of texts read together (a title, then a
// body): Hindi when more than half of their first letters are Devanagari
// (digits and punctuation count for neither; Latin letters, such as a
// reference number's "RBI", for English), English otherwise, an empty
// text included.
func TextLang(texts ...string) string {
	var deva, letters int
	for _, t := range texts {
		for _, r := range t {
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			if isDevanagari(r) {
				deva++
			}
			if letters == langSample {
				break
			}
		}
		if letters == langSample {
			break
		}
	}
	if deva*2 > letters {
		return LangHindi
	}
	return LangEnglish
}

// TextLang is the language of the circular's title and text (Lang).
func (c Circular) TextLang() string { return TextLang(c.Title, markdown.PlainText(c.Content)) }

// textHead is the start of a circular's text (body: its file's, as
// splitFrontMatter gives it) as plain text, as far as TextLang reads it
// after any title: TextLang(title, textHead(body)) is the circular's
// TextLang. The text is parsed from its start (markdown.Head), a longer
// one each time, until the start's words hold langSample letters: at
// 100,000 circulars, parsing every whole text took the load 13 s of CPU.
func textHead(body []byte) string {
	md := strings.TrimSpace(string(body))
	for n := headBytes; ; n *= 4 {
		head, ok := markdown.Head(md, n)
		if !ok {
			break
		}
		if sample, full := letterSample(markdown.PlainText(head)); full {
			return sample
		}
	}
	sample, _ := letterSample(markdown.PlainText(md))
	return sample
}

// mayHoldDevanagari says whether the plain text of the Markdown body may
// hold a Devanagari letter: its bytes hold one, or a numeric character
// reference (&#…;) that may make one (no named reference does). A text
// without one leaves its circular English unless its title holds one
// (TextLang), and the load need not parse its head (textHead): at
// 100,000 generated circulars that parsing took 10.7 s of the load's CPU.
func mayHoldDevanagari(body []byte) bool {
	if bytes.Contains(body, []byte("&#")) {
		return true
	}
	for i := 0; i < len(body); {
		// (ASCII, most of an English text, eight bytes at a time)
		if i+8 <= len(body) && binary.LittleEndian.Uint64(body[i:])&0x8080808080808080 == 0 {
			i += 8
			continue
		}
		if body[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(body[i:])
		if isDevanagari(r) {
			return true
		}
		i += n
	}
	return false
}

func isDevanagari(r rune) bool { return unicode.Is(unicode.Devanagari, r) }

// headBytes is the start of a text textHead parses first: some 2,000
// letters of English, a third of them of Hindi.
const headBytes = 3 * langSample

// letterSample is plain up to its langSample-th letter, and whether it
// has that many.
func letterSample(plain string) (string, bool) {
	letters := 0
	for i, r := range plain {
		if !unicode.IsLetter(r) {
			continue
		}
		if letters++; letters == langSample {
			return plain[:i+utf8.RuneLen(r)], true
		}
	}
	return plain, false
}

// TextLang is the language of the news item's title, excerpt and text
// (Lang).
func (n NewsItem) TextLang() string { return TextLang(n.Title, n.Excerpt, n.Content) }

// WithNewsLangs sets Lang of each news item of a list read from a store
// (which does not keep it).
func WithNewsLangs(ns []NewsItem) []NewsItem {
	for i := range ns {
		ns[i].Lang = ns[i].TextLang()
	}
	return ns
}
