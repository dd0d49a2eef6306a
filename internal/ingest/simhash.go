package ingest

import (
	"math/bits"
	"strings"
	"unicode"
)

// SimHash is a 64-bit fingerprint of a text whose near copies (the same
// text with a line added, a word changed, the layout of a PDF) differ from
// it in a few bits, where unrelated texts differ in about half: each
// word's hash votes on every bit. Words rather than shingles of words: on
// texts of a few hundred words, one changed word moved a 3-shingle hash by
// about 5 bits and a word hash by about 1 (measured on the fixtures).
func SimHash(text string) uint64 {
	words := simWords(text)
	if len(words) < minSimWords {
		return 0
	}
	var votes [64]int
	for _, w := range words {
		h := fnvOffset
		for k := 0; k < len(w); k++ {
			h = (h ^ uint64(w[k])) * fnvPrime
		}
		// FNV's high bits barely move for short words: mix them.
		h ^= h >> 33
		h *= 0xff51afd7ed558ccd
		h ^= h >> 33
		for b := range votes {
			votes[b] += int(h>>b&1)*2 - 1
		}
	}
	var out uint64
	for b, v := range votes {
		if v > 0 {
			out |= 1 << b
		}
	}
	if out == 0 {
		out = 1 // 0 means "too little text to fingerprint"
	}
	return out
}

// minSimWords is the fewest words fingerprinted: a title alone or a
// one-line description is too short for its hash to say anything.
const minSimWords = 20

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// Hamming is how many bits a and b differ in.
func Hamming(a, b uint64) int { return bits.OnesCount64(a ^ b) }

// simWords are text's words in lower case (letters, digits and marks, so
// a Hindi word stays whole).
func simWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.M, r)
	})
}
