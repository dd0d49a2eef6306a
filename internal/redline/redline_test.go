package redline

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		want          []Segment
	}{
		{"same", "a b", "a b", []Segment{{Equal, "a b"}}},
		{"both empty", "", "", nil},
		{"added", "", "new text", []Segment{{Insert, "new text"}}},
		{"removed", "old text", "", []Segment{{Delete, "old text"}}},
		{"a word substituted", "The limit is Rs 10,000 a month.", "The limit is Rs 20,000 a month.",
			[]Segment{{Equal, "The limit is Rs "}, {Delete, "10"}, {Insert, "20"}, {Equal, ",000 a month."}}},
		{"words inserted", "issuers shall report", "issuers shall promptly report",
			[]Segment{{Equal, "issuers shall "}, {Insert, "promptly "}, {Equal, "report"}}},
		{"whole words, never letters", "cardholder", "cardholders",
			[]Segment{{Delete, "cardholder"}, {Insert, "cardholders"}}},
		// Devanagari: "बैंक" with its vowel sign is one word, not "ब" and "क".
		{"Hindi word kept whole", "भारतीय रिज़र्व बैंक परिपत्र", "भारतीय रिज़र्व बैंक निदेश",
			[]Segment{{Equal, "भारतीय रिज़र्व बैंक "}, {Delete, "परिपत्र"}, {Insert, "निदेश"}}},
		{"danda apart", "सीमा ₹10,000 है।", "सीमा ₹20,000 है।",
			[]Segment{{Equal, "सीमा ₹"}, {Delete, "10"}, {Insert, "20"}, {Equal, ",000 है।"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Words(tt.before, tt.after)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Words(%q, %q) (-want +got):\n%s", tt.before, tt.after, diff)
			}
			if b, a := spell(got); b != tt.before || a != tt.after {
				t.Errorf("segments spell %q and %q, want %q and %q", b, a, tt.before, tt.after)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Para 9.1(ii) shall", []string{"Para", " ", "9", ".", "1", "(", "ii", ")", " ", "shall"}},
		// Four words, as a reader sees them (a letters-only tokenizer makes eight).
		{"भारतीय रिज़र्व बैंक परिपत्र", []string{"भारतीय", " ", "रिज़र्व", " ", "बैंक", " ", "परिपत्र"}},
		{"a\u200db", []string{"a\u200db"}},
		{"", nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Tokens(tt.in)); diff != "" {
			t.Errorf("Tokens(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// FuzzWords: whatever the texts, the segments spell both back.
func FuzzWords(f *testing.F) {
	f.Add("the limit is Rs 10,000", "the limit is Rs 2,00,000 a year")
	f.Add("भारतीय रिज़र्व बैंक", "रिज़र्व बैंक परिपत्र")
	f.Fuzz(func(t *testing.T, before, after string) {
		if !validUTF8(before) || !validUTF8(after) {
			t.Skip()
		}
		b, a := spell(Words(before, after))
		if b != before || a != after {
			t.Fatalf("segments spell %q and %q, want %q and %q", b, a, before, after)
		}
	})
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\ufffd") == s }

func spell(segs []Segment) (before, after string) {
	var b, a strings.Builder
	for _, s := range segs {
		if s.Op != Insert {
			b.WriteString(s.Text)
		}
		if s.Op != Delete {
			a.WriteString(s.Text)
		}
	}
	return b.String(), a.String()
}

func TestEncoderSkipsSurrogates(t *testing.T) {
	var e encoder
	e.ids = map[string]rune{}
	for i := range 0xe000 {
		r := e.rune(i)
		if r >= 0xd800 && r < 0xe000 {
			t.Fatalf("token %d encoded as surrogate %U", i, r)
		}
		if e.index(r) != i {
			t.Fatalf("token %d: rune %U decodes to %d", i, r, e.index(r))
		}
	}
}

func TestHTML(t *testing.T) {
	got := HTML(Words("limit <Rs 10,000>", "limit <Rs 20,000> & more"))
	want := "limit &lt;Rs <del>10</del><ins>20</ins>,000&gt;<ins> &amp; more</ins>"
	if got != want {
		t.Errorf("HTML = %q, want %q", got, want)
	}
}
