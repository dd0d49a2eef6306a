package ingest

import (
	"strings"
)

// Devanagari in ASCII, for slugs (catalog.CheckSlug allows [a-z0-9-] only):
// a simplified ISO 15919 / Hunterian reading without diacritics, so that a
// Hindi title gives a slug a reader can say ("भारतीय रिज़र्व बैंक परिपत्र" is
// bharatiya-rizarv-baink-paripatra). Long and short vowels are written
// alike (आ and अ are both a), retroflex and dental alike (ट and त are both
// t); the aim is a readable address, not a reversible spelling.
//
// A consonant carries an inherent a unless a vowel sign or the virama (्)
// follows it. At the end of a word the a is silent in Hindi and dropped
// (बैंक baink, निदेश nidesh), except where Hindi says it: after a conjunct
// ending in र (पत्र patra, क्षेत्र kshetra), in य after a conjunct or an i
// (कार्य karya, भारतीय bharatiya), and in a word of one consonant (व va).
// Medial a is kept (सरकार sarakar): the rules for dropping it need a
// lexicon. The nukta (़) is ignored, save in ज़ z and फ़ f, which English
// spells that way; the anusvara (ं) is m before p, ph, b, bh and m and n
// elsewhere; the candrabindu (ँ) n; the visarga (ः) h.

// consonants are Devanagari's consonants without their inherent a,
// including the precomposed nukta forms.
var consonants = map[rune]string{
	'क': "k", 'ख': "kh", 'ग': "g", 'घ': "gh", 'ङ': "n",
	'च': "ch", 'छ': "chh", 'ज': "j", 'झ': "jh", 'ञ': "n",
	'ट': "t", 'ठ': "th", 'ड': "d", 'ढ': "dh", 'ण': "n",
	'त': "t", 'थ': "th", 'द': "d", 'ध': "dh", 'न': "n", 'ऩ': "n",
	'प': "p", 'फ': "ph", 'ब': "b", 'भ': "bh", 'म': "m",
	'य': "y", 'र': "r", 'ऱ': "r", 'ल': "l", 'ळ': "l", 'ऴ': "l", 'व': "v",
	'श': "sh", 'ष': "sh", 'स': "s", 'ह': "h",
	'\u0958': "k", '\u0959': "kh", '\u095a': "g", '\u095b': "z", // क़ ख़ ग़ ज़
	'\u095c': "d", '\u095d': "dh", '\u095e': "f", '\u095f': "y", // ड़ ढ़ फ़ य़
}

// nuktaForms are the consonants the nukta changes in a slug (ज़ and फ़
// written as consonant + nukta); the others ignore it.
var nuktaForms = map[rune]string{'ज': "z", 'फ': "f"}

// vowels are the independent vowels, which begin a syllable.
var vowels = map[rune]string{
	'अ': "a", 'आ': "a", 'इ': "i", 'ई': "i", 'उ': "u", 'ऊ': "u", 'ऋ': "ri", 'ॠ': "ri", 'ऌ': "li",
	'ए': "e", 'ऐ': "ai", 'ओ': "o", 'औ': "au", 'ऍ': "e", 'ऑ': "o", 'ऎ': "e", 'ऒ': "o", 'ॐ': "om",
}

// signs are the dependent vowel signs, which replace a consonant's a.
var signs = map[rune]string{
	'ा': "a", 'ि': "i", 'ी': "i", 'ु': "u", 'ू': "u", 'ृ': "ri", 'ॄ': "ri", 'ॢ': "li",
	'े': "e", 'ै': "ai", 'ो': "o", 'ौ': "au", 'ॅ': "e", 'ॉ': "o", 'ॆ': "e", 'ॊ': "o",
}

const (
	virama      = '्'
	nukta       = '़'
	anusvara    = 'ं'
	candrabindu = 'ँ'
	visarga     = 'ः'
	avagraha    = 'ऽ'
)

// labials are the consonants before which the anusvara is m.
var labials = map[rune]bool{'प': true, 'फ': true, 'ब': true, 'भ': true, 'म': true}

// inDevanagariWord reports whether r continues a Devanagari word.
func inDevanagariWord(r rune) bool {
	_, c := consonants[r]
	_, v := vowels[r]
	_, s := signs[r]
	return c || v || s || r == virama || r == nukta || r == anusvara || r == candrabindu ||
		r == visarga || r == avagraha || r == '\u200c' || r == '\u200d'
}

// transliterate is s with its Devanagari written in ASCII (see above);
// the rest of s is left as it is. Danda and double danda become spaces,
// Devanagari digits ASCII digits, the joiners nothing.
func transliterate(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return '\u0900' <= r && r <= '\u097f' }) {
		return s
	}
	rs := []rune(s)
	at := func(i int) rune {
		if i < len(rs) {
			return rs[i]
		}
		return 0
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if c, ok := consonants[r]; ok {
			j := i + 1
			if at(j) == nukta {
				if f, ok := nuktaForms[r]; ok {
					c = f
				}
				j++
			}
			// ज्ञ is gy in Hindi (ज्ञान gyan), not jn.
			if r == 'ज' && at(j) == virama && at(j+1) == 'ञ' {
				c = "g"
				rs[j+1] = 'य'
			}
			b.WriteString(c)
			for at(j) == '\u200c' || at(j) == '\u200d' {
				j++
			}
			switch n := at(j); {
			case n == virama:
				j++
			case signs[n] != "":
				b.WriteString(signs[n])
				j++
			case inDevanagariWord(n) || keepsFinalA(rs, i):
				b.WriteByte('a')
			}
			i = j - 1
			continue
		}
		switch {
		case vowels[r] != "":
			b.WriteString(vowels[r])
		case signs[r] != "": // a sign without its consonant
			b.WriteString(signs[r])
		case r == anusvara:
			if labials[at(i+1)] {
				b.WriteByte('m')
			} else {
				b.WriteByte('n')
			}
		case r == candrabindu:
			b.WriteByte('n')
		case r == visarga:
			b.WriteByte('h')
		case r == '।' || r == '॥':
			b.WriteByte(' ')
		case '०' <= r && r <= '९':
			b.WriteByte(byte('0' + r - '०'))
		case r == virama || r == nukta || r == avagraha || r == '\u200c' || r == '\u200d':
		case '\u0900' <= r && r <= '\u097f': // a sign this table does not read
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// keepsFinalA reports whether the consonant rs[i], ending a word, keeps its
// inherent a: in a word of one consonant, after a conjunct ending in र, and
// in य after a conjunct or an i.
func keepsFinalA(rs []rune, i int) bool {
	var prev rune
	if i > 0 {
		prev = rs[i-1]
	}
	if prev == nukta && i > 1 {
		prev = rs[i-2]
	}
	switch {
	case !inDevanagariWord(prev):
		return true
	case rs[i] == 'र':
		return prev == virama
	case rs[i] == 'य':
		return prev == virama || prev == 'ि' || prev == 'ी'
	}
	return false
}
