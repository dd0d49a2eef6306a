package ingest

import "testing"

// TestTransliterate fixes the spellings translit.go's table and rules give.
func TestTransliterate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"भारतीय रिज़र्व बैंक परिपत्र", "bharatiya rizarv baink paripatra"},
		{"रि\u095bर्व", "rizarv"}, // ज़ precomposed (U+095B)
		{"निदेश", "nidesh"},
		{"अधिसूचना", "adhisuchana"},
		{"मास्टर निदेश", "mastar nidesh"},
		{"भुगतान प्रणाली", "bhugatan pranali"},
		{"कार्य", "karya"},
		{"राष्ट्रीय", "rashtriya"},
		{"क्षेत्र", "kshetra"},
		{"ज्ञान", "gyan"},
		{"संबंध", "sambandh"},
		{"कृषि", "krishi"},
		{"फ़ॉर्म", "form"},
		{"व", "va"},
		{"दिनांक ०६.०१.२०२५", "dinank 06.01.2025"},
		{"सीमा है।अगला", "sima hai agala"},
		{"क्\u200dष", "ksh"},
		{"RBI/2025-26/60 परिपत्र", "RBI/2025-26/60 paripatra"},
		{"no Hindi", "no Hindi"},
	}
	for _, tt := range tests {
		if got := transliterate(tt.in); got != tt.want {
			t.Errorf("transliterate(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
