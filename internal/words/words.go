// Package words says what a word is, once for every script, so that
// search, the local summariser, the catalog's term matching, the diff and
// ingest's slugs all cut a text at the same places.
//
// A word is a run of letters, digits and marks (unicode.M: Mn, Mc, Me).
// Marks matter for the Indic scripts: Devanagari's vowel signs are
// spacing marks (Mc, ा ि ी ो), which unicode.IsLetter rejects, so a rule of
// letters alone cuts "भारतीय" into भ, रत and य. The zero-width non-joiner
// and joiner (U+200C, U+200D) choose how a conjunct is drawn: inside a
// word they are part of its spelling, but they never start or end one.
package words

import (
	"unicode"
	"unicode/utf8"
)

// IsPart reports whether r is part of a word: a letter, a digit or a mark.
func IsPart(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// IsLetter reports whether r is part of a word and not a digit: a letter
// or a mark. Search splits a word's letters from its digits ("S516" is s
// 516); this is its side of the rule.
func IsLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.Is(unicode.M, r)
}

// IsJoiner reports whether r is the zero-width non-joiner or joiner.
func IsJoiner(r rune) bool { return r == '\u200c' || r == '\u200d' }

// Joins reports whether the joiner starting at s[i] (IsJoiner) is inside a
// word, given that a word runs up to it: whether a part of a word follows
// it, possibly after more joiners.
func Joins(s string, i int) bool {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsJoiner(r) {
			return IsPart(r)
		}
		i += n
	}
	return false
}

// End is the end of the word that starts at s[start] (IsPart), in bytes.
func End(s string, start int) int {
	i := start
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsPart(r) && !(IsJoiner(r) && Joins(s, i)) {
			break
		}
		i += n
	}
	return i
}

// Fields is the words of s, in order.
func Fields(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsPart(r) {
			i += n
			continue
		}
		end := End(s, i)
		out = append(out, s[i:end])
		i = end
	}
	return out
}

// Latin reports whether w's letters are all in the Latin script: the words
// an English stemmer may take (a Hindi word it would leave alone, or
// mangle).
func Latin(w string) bool {
	for _, r := range w {
		if r >= utf8.RuneSelf && unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	return true
}
