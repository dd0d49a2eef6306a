package local

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTermsHindi: a Devanagari word is one term, with its vowel signs,
// and is not stemmed; English words still are. Hindi's function words
// ("है", "के", "में") are stop words as English's are.
func TestTermsHindi(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"भारतीय रिज़र्व बैंक परिपत्र", []string{"भारतीय", "रिज़र्व", "बैंक", "परिपत्र"}},
		{"भारतीय", []string{"भारतीय"}},
		{"Payments by भारतीय banks", []string{"payment", "भारतीय", "bank"}},
		{"सीमा ₹10,000 है।", []string{"सीमा", "10", "000"}},
		{"भुगतान एग्रीगेटरों के लिए एस्क्रो खाते में राशि रखनी होगी", []string{"भुगतान", "एग्रीगेटरों", "एस्क्रो", "खाते", "राशि", "रखनी"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, terms(tt.text)); diff != "" {
			t.Errorf("terms(%q) (-want +got):\n%s", tt.text, diff)
		}
	}
}
