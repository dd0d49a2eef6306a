package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTokensHindi: a Devanagari word is one word with its vowel signs
// (spacing marks), nukta and joiners, and Devanagari digits key as digits.
func TestTokensHindi(t *testing.T) {
	tests := []struct {
		name, text string
		words      []string
		keys       []string
	}{
		{"title", "भारतीय रिज़र्व बैंक परिपत्र",
			[]string{"भारतीय", "रिज़र्व", "बैंक", "परिपत्र"}, []string{"भारतीय", "रिजर्व", "बैंक", "परिपत्र"}},
		{"one word", "भारतीय", []string{"भारतीय"}, []string{"भारतीय"}},
		{"danda ends a word", "सीमा है।अगला", []string{"सीमा", "है", "अगला"}, []string{"सीमा", "है", "अगला"}},
		{"Devanagari digits", "परिपत्र ०६० दिनांक २०२५", []string{"परिपत्र", "०६०", "दिनांक", "२०२५"},
			[]string{"परिपत्र", "60", "दिनांक", "2025"}},
		// The joiner is the word's spelling; a key without it meets the
		// word typed either way.
		{"joiner inside", "क्\u200dष", []string{"क्\u200dष"}, []string{"क्ष"}},
		{"joiner at the end", "क\u200d ख", []string{"क", "ख"}, []string{"क", "ख"}},
		// ज़ precomposed (U+095B), ज + nukta and ज alone key the same
		// (issue 48: the nukta is often not typed).
		{"nukta composed", "रि\u095bर्व", []string{"रि\u095bर्व"}, []string{"रिजर्व"}},
		{"nukta not typed", "रिजर्व", []string{"रिजर्व"}, []string{"रिजर्व"}},
		{"chandrabindu", "सीमाएँ", []string{"सीमाएँ"}, []string{"सीमाएं"}},
		{"nasal conjunct", "हिन्दी सम्बन्धी", []string{"हिन्दी", "सम्बन्धी"}, []string{"हिंदी", "संबंधी"}},
		{"candra o", "ऑनलाइन डॉक्टर", []string{"ऑनलाइन", "डॉक्टर"}, []string{"ओनलाइन", "डोक्टर"}},
		{"mixed", "RBI परिपत्र S516", []string{"rbi", "परिपत्र", "s", "516"}, []string{"rbi", "परिपत्र", "s", "516"}},
		{"Latin still stemmed", "Règlements naïve", []string{"règlements", "naïve"}, []string{"règlement", "naïv"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var words, keys []string
			for _, tok := range Tokens(tt.text) {
				words = append(words, tok.Word)
				keys = append(keys, tok.Key)
			}
			if diff := cmp.Diff(tt.words, words); diff != "" {
				t.Errorf("words of %q (-want +got):\n%s", tt.text, diff)
			}
			if diff := cmp.Diff(tt.keys, keys); diff != "" {
				t.Errorf("keys of %q (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// benchText is ASCII prose as circulars are written (made up for the
// benchmark): the common case eachWord's fast path is for.
var benchText = strings.Repeat(`Payment aggregators shall, in terms of paragraph 9.1(ii) of the Master
Direction DPSS.CO.PD.No.1810/02.14.008/2025-26, report every cross-border transaction above Rs 10,000
to the Reserve Bank within 30 days; authorised entities that fail to comply may be penalised. `, 40)

// BenchmarkEachWord is the tokenizer alone over ASCII text.
func BenchmarkEachWord(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		n := 0
		eachWord(benchText, func(start, end int) { n++ })
	}
}

// BenchmarkTokens is the tokenizer with its keys over ASCII text.
func BenchmarkTokens(b *testing.B) {
	b.SetBytes(int64(len(benchText)))
	for b.Loop() {
		Tokens(benchText)
	}
}
