package words

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFields(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"भारतीय रिज़र्व बैंक परिपत्र", []string{"भारतीय", "रिज़र्व", "बैंक", "परिपत्र"}},
		{"भारतीय", []string{"भारतीय"}},
		{"Para 9.1(ii), UPI-Lite", []string{"Para", "9", "1", "ii", "UPI", "Lite"}},
		{"सीमा ₹10,000 है।अगला", []string{"सीमा", "10", "000", "है", "अगला"}},
		{"naïve cafe\u0301", []string{"naïve", "cafe\u0301"}},
		{"क्\u200dष", []string{"क्\u200dष"}},           // a joiner inside a word
		{"\u200dक\u200d \u200d", []string{"क"}},        // never at a word's edge
		{"क\u200c\u200dष", []string{"क\u200c\u200dष"}}, // joiners in a row
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Fields(tt.in)); diff != "" {
			t.Errorf("Fields(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestIsPart(t *testing.T) {
	for _, r := range "aZ9éभाि्ंँ़०\u0301\u20dd" { // \u20dd is an enclosing mark (Me)
		if !IsPart(r) {
			t.Errorf("IsPart(%q) = false", r)
		}
	}
	for _, r := range " .,-/।॥₹\u200c\u200d" {
		if IsPart(r) {
			t.Errorf("IsPart(%q) = true", r)
		}
	}
	if IsLetter('5') || IsLetter('५') || !IsLetter('ा') {
		t.Error("IsLetter: digits are not letters, marks are")
	}
}

func TestLatin(t *testing.T) {
	for w, want := range map[string]bool{
		"payments": true, "règlement": true, "cafe\u0301": true, "2025": true, "": true,
		"भारतीय": false, "rbiभारत": false, "платёж": false,
	} {
		if got := Latin(w); got != want {
			t.Errorf("Latin(%q) = %v, want %v", w, got, want)
		}
	}
}
