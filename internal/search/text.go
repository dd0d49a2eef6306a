// Package search holds RegPulse's ranking rules, written once so that every
// store (SQLite's FTS5 today, PostgreSQL's tsvector later) indexes and
// queries text the same way: how text becomes index keys (spelling and
// stemming normalisation, number normalisation), how a query is read and
// widened (prefixes, typo correction over the index's own vocabulary), the
// tiers and column weights of the ranking, and the extractive answer with
// its confidence. A store only renders a Plan into its own query language.
package search

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"golang.org/x/text/unicode/norm"

	"regpulse/internal/words"
)

// Token is one word of a text: its lower-cased form, its index key and
// where it sits in the text (byte offsets).
type Token struct {
	Word       string
	Key        string
	Start, End int
}

// Tokens splits text into words: runs of letters or of digits, so that a
// circular number reads the same however it is punctuated ("02.14.008",
// "02-14-008" and "02/14/008" are all 2 14 8; "S-516" and "S516" are s 516).
// Letters are internal/words' rule: in any script, with their marks
// (Devanagari's vowel signs) and the joiners inside a word.
func Tokens(text string) []Token {
	var out []Token
	eachWord(text, func(start, end int) {
		w := strings.ToLower(text[start:end])
		out = append(out, Token{Word: w, Key: Key(w), Start: start, End: end})
	})
	return out
}

// EachWord calls word with each of text's words as Tokens splits them,
// as written (not lower-cased): for a caller that keys each distinct word
// once rather than every time it occurs.
func EachWord(text string, word func(string)) {
	eachWord(text, func(start, end int) { word(text[start:end]) })
}

// byteClass classes ASCII bytes for eachWord: letters, digits, others;
// bytes from 0x80 start a character to decode.
var byteClass = func() (c [256]uint8) {
	for b := range 256 {
		switch {
		case 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z':
			c[b] = classLetter
		case '0' <= b && b <= '9':
			c[b] = classDigit
		case b >= utf8.RuneSelf:
			c[b] = classWide
		}
	}
	return c
}()

const (
	classOther = iota
	classLetter
	classDigit
	classWide
)

// eachWord calls word with the byte span of each word of text, as Tokens
// splits it.
func eachWord(text string, word func(start, end int)) {
	start, kind := -1, uint8(classOther)
	for i := 0; i < len(text); {
		k, size := byteClass[text[i]], 1
		if k == kind && k != classOther {
			// Within a word of ASCII, the common case, without the
			// bookkeeping below.
			for i++; i < len(text) && byteClass[text[i]] == k; i++ {
			}
			continue
		}
		if k == classWide {
			var r rune
			r, size = utf8.DecodeRuneInString(text[i:])
			switch {
			case words.IsLetter(r):
				k = classLetter
			case unicode.IsDigit(r):
				k = classDigit
			case kind == classLetter && words.IsJoiner(r) && words.Joins(text, i+size):
				// A joiner inside a word (an Indic conjunct's spelling)
				// belongs to it; the word's class carries on.
				k = kind
			default:
				k = classOther
			}
		}
		if k != kind {
			if start >= 0 {
				word(start, i)
			}
			start, kind = -1, k
			if k != classOther {
				start = i
			}
		}
		i += size
	}
	if start >= 0 {
		word(start, len(text))
	}
}

// Keys is the index text of text: its tokens' keys joined by spaces. A
// store indexes this (with a plain whitespace tokenizer), so that the index
// and the queries share one normalisation.
func Keys(text string) string {
	toks := Tokens(text)
	var b strings.Builder
	b.Grow(len(text))
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Key)
	}
	return b.String()
}

// Key is the index key of a lower-cased word: numbers without leading
// zeros, words in American spelling and stemmed (Porter2), so that
// authorisation and authorization, aggregators and aggregator meet.
// Outside ASCII a word is first composed (NFC) and its joiners dropped,
// so that however it was typed it meets itself; Devanagari digits are
// read as digits (२०२५ is 2025); a Devanagari word's spelling variants
// meet (normDeva: nukta, chandrabindu, candra vowels, a nasal conjunct as
// anusvara; issue 48); and only words in the Latin script are stemmed,
// the stemmer being English.
func Key(word string) string {
	if word == "" {
		return ""
	}
	if c := word[0]; c >= '0' && c <= '9' {
		return trimmedNumber(word)
	}
	if utf8.RuneCountInString(word) > 40 {
		return word // not a word: leave it whole
	}
	if k, ok := keyCache.Load(word); ok {
		return k.(string)
	}
	k := wordKey(word)
	// Indexing meets the same few thousand words millions of times;
	// the cache is bounded so that odd words cannot grow it for ever.
	if keyCacheSize.Add(1) <= keyCacheMax {
		keyCache.Store(word, k)
	}
	return k
}

// wordKey is Key of a word that is not ASCII digits, uncached.
func wordKey(word string) string {
	if !isASCII(word) {
		var latin bool
		word, latin = wideWord(word)
		if word == "" {
			return ""
		}
		if c := word[0]; c >= '0' && c <= '9' {
			return trimmedNumber(word)
		}
		if !latin {
			return normDeva(word)
		}
	}
	return english.Stem(american(word), false)
}

// trimmedNumber is the key of a word of ASCII digits: without leading zeros.
func trimmedNumber(word string) string {
	if t := strings.TrimLeft(word, "0"); t != "" {
		return t
	}
	return "0"
}

// wideWord is a word with a byte outside ASCII as Key reads it: composed,
// without joiners, Devanagari digits as ASCII ones; latin is whether
// its letters are all Latin ones (which the English stemmer may take).
func wideWord(word string) (_ string, latin bool) {
	word = norm.NFC.String(word)
	var b []byte
	for i, r := range word {
		switch {
		case words.IsJoiner(r):
			if b == nil {
				b = append(make([]byte, 0, len(word)), word[:i]...)
			}
			continue
		case '०' <= r && r <= '९':
			if b == nil {
				b = append(make([]byte, 0, len(word)), word[:i]...)
			}
			b = append(b, byte('0'+r-'०'))
			continue
		}
		if b != nil {
			b = utf8.AppendRune(b, r)
		}
	}
	if b != nil {
		word = string(b)
	}
	return word, words.Latin(word)
}

var (
	keyCache     sync.Map // word -> key
	keyCacheSize atomic.Int64
)

const keyCacheMax = 200_000

// britishWords are British spellings a suffix rule does not catch.
var britishWords = map[string]string{
	"colour": "color", "behaviour": "behavior", "favour": "favor", "honour": "honor",
	"labour": "labor", "neighbour": "neighbor", "centre": "center", "metre": "meter",
	"programme": "program", "licence": "license", "defence": "defense", "offence": "offense",
	"judgement": "judgment", "enrolment": "enrollment", "fulfil": "fulfill", "cheque": "check",
	"catalogue": "catalog", "dialogue": "dialog", "ageing": "aging", "grey": "gray",
}

// britishSuffixes turn -ise/-yse spellings American; the stemmer then
// removes the inflection either way.
var britishSuffixes = []struct{ from, to string }{
	{"isations", "izations"}, {"isation", "ization"}, {"ising", "izing"}, {"ised", "ized"},
	{"ises", "izes"}, {"iser", "izer"}, {"isers", "izers"}, {"ise", "ize"},
	{"ysing", "yzing"}, {"ysed", "yzed"}, {"yses", "yzes"}, {"yse", "yze"},
}

// american is word in American spelling where the difference is regular.
func american(word string) string {
	if w, ok := britishWords[word]; ok {
		return w
	}
	if w, ok := britishWords[strings.TrimSuffix(word, "s")]; ok {
		return w + "s"
	}
	// Short words (rise, wise, raise) are not British spellings.
	if len(word) < 6 {
		return word
	}
	for _, s := range britishSuffixes {
		if strings.HasSuffix(word, s.from) {
			return word[:len(word)-len(s.from)] + s.to
		}
	}
	return word
}

// stopWords are words a query drops unless it has nothing else: they are
// in nearly every circular, so they only sink a question's real terms.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a about above after again all also am an and any are as at be
		been before being below between both but by can could did do does doing down during each few
		for from further had has have having he her here hers how i if in into is it its itself just
		me more most my no nor not now of off on once only or other our out over own same she should so
		some such than that the their them then there these they this those through to too under until
		up very was we were what when where which while who whom why will with would you your
		tell explain know please give show find latest new rule rules regarding about per via s`) {
		stopWords[w] = true
	}
}

// StopWord reports whether a lower-cased word is one a query drops.
func StopWord(word string) bool { return stopWords[word] }
