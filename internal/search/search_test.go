package search

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

func TestSearch_Key(t *testing.T) {
	for _, pair := range [][2]string{
		{"authorisation", "authorization"},
		{"tokenisation", "tokenization"},
		{"aggregators", "aggregator"},
		{"analyse", "analyze"},
		{"licence", "license"},
		{"008", "8"},
		{"000", "0"},
	} {
		if a, b := Key(pair[0]), Key(pair[1]); a != b {
			t.Errorf("Key(%q) = %q, Key(%q) = %q; want the same", pair[0], a, pair[1], b)
		}
	}
	if Key("rise") == Key("rize") {
		t.Error("short words are not respelt")
	}
}

func TestSearch_Keys(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"DPSS.CO.PD.No.1810/02.14.008/2019-20", "dpss co pd no 1810 2 14 8 2019 20"},
		{"CO.DPSS.POLC.No.S-516/02-14-003", "co dpss polc no s 516 2 14 3"},
		{"S516", "s 516"},
		{"Payment Aggregators' authorisation", "payment aggreg author"},
	} {
		if got := Keys(tt.in); got != tt.want {
			t.Errorf("Keys(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSearch_Sentences(t *testing.T) {
	got := Sentences("## Limits\n\nRBI raised the limit to ₹1,000. See DPSS.CO.PD No. 1810 for more. Top-ups are online.\n- A list item")
	want := []string{"Limits", "RBI raised the limit to ₹1,000.", "See DPSS.CO.PD No. 1810 for more.", "Top-ups are online.", "A list item"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSearch_EditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		max  int
		want int
	}{
		{"fraud", "fraud", 2, 0},
		{"frud", "fraud", 2, 1},
		{"guidlines", "guidelines", 2, 1},
		{"tokenisaton", "tokenisation", 2, 1},
		{"abc", "xyz", 1, 2}, // stops past max
	} {
		if got := editDistance(tt.a, tt.b, tt.max); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// fakeVocab is an index holding words, each in one circular.
type fakeVocab []string

func (v fakeVocab) Docs(_ context.Context, keys []string) (map[string]int, error) {
	out := map[string]int{}
	for _, w := range v {
		for _, k := range keys {
			if Key(w) == k {
				out[k]++
			}
		}
	}
	return out, nil
}

func (v fakeVocab) Prefixed(_ context.Context, prefix string, n int) ([]Word, error) {
	var out []Word
	for _, w := range v {
		if strings.HasPrefix(w, prefix) && len(out) < n {
			out = append(out, Word{w, Key(w)})
		}
	}
	return out, nil
}

func (v fakeVocab) Near(_ context.Context, first string, minLen, maxLen int) ([]Word, error) {
	var out []Word
	for _, w := range v {
		if strings.HasPrefix(w, first) && len(w) >= minLen && len(w) <= maxLen {
			out = append(out, Word{w, Key(w)})
		}
	}
	return out, nil
}

func TestSearch_Prepare(t *testing.T) {
	vocab := fakeVocab{"tokenisation", "guidelines", "upi", "lite", "wallet", "limit"}
	tests := []struct {
		name       string
		text       string
		terms      []Term
		number     []string
		latest     bool
		correction *Correction
	}{
		{"StopWordsDropped", "what is the UPI Lite wallet limit", []Term{
			{Word: "upi", Keys: []string{"upi"}}, {Word: "lite", Keys: []string{"lite"}},
			{Word: "wallet", Keys: []string{"wallet"}}, {Word: "limit", Keys: []string{"limit"}},
		}, nil, true, nil},
		{"OnlyStopWords", "the", []Term{{Word: "the", Keys: []string{"the"}}}, nil, false, nil},
		{"Prefix", "tokeni", []Term{{Word: "tokeni", Keys: []string{"token"}}}, nil, false, nil},
		{"Typo", "guidlines", []Term{{Word: "guidlines", Keys: []string{"guidelin"}, Corrected: "guidelines"}}, nil, false,
			&Correction{Original: "guidlines", Corrected: "guidelines"}},
		{"UnknownWordKept", "zzzz", []Term{{Word: "zzzz", Keys: []string{"zzzz"}}}, nil, false, nil},
		{"Number", "RBI/2021-22/96", []Term{
			{Word: "rbi", Keys: []string{"rbi"}}, {Word: "2021", Keys: []string{"2021"}},
			{Word: "22", Keys: []string{"22"}}, {Word: "96", Keys: []string{"96"}},
		}, []string{"rbi", "2021", "22", "96"}, false, nil},
		{"UnifiedPayments", "Unified  Payments Interface", []Term{
			{Word: "unified", Keys: []string{"unifi"}}, {Word: "payments", Keys: []string{"payment"}},
			{Word: "interface", Keys: []string{"interfac"}},
		}, nil, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Prepare(t.Context(), Query{Text: tt.text}, vocab)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.terms, p.Terms); diff != "" {
				t.Errorf("terms (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.number, p.Number); diff != "" {
				t.Errorf("number (-want +got):\n%s", diff)
			}
			if p.Latest != tt.latest {
				t.Errorf("latest = %v, want %v", p.Latest, tt.latest)
			}
			if diff := cmp.Diff(tt.correction, p.Correction()); diff != "" {
				t.Errorf("correction (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("ErrEmptyQuery", func(t *testing.T) {
		if _, err := Prepare(t.Context(), Query{Text: " "}, vocab); err != ErrEmptyQuery {
			t.Errorf("err = %v, want ErrEmptyQuery", err)
		}
	})
	t.Run("ErrQueryTooLong", func(t *testing.T) {
		if _, err := Prepare(t.Context(), Query{Text: strings.Repeat("é", MaxQueryLength+1)}, vocab); err != ErrQueryTooLong {
			t.Errorf("err = %v, want ErrQueryTooLong", err)
		}
	})
}

func TestSearch_Extract(t *testing.T) {
	lite := catalog.Circular{Entry: catalog.Entry{ID: "1", Slug: "lite"}, Source: "NPCI", Title: "UPI Lite",
		Content: "Background first. The UPI Lite wallet limit is ₹5,000. Other text."}
	plan := func(words ...string) Plan {
		p := Plan{}
		for _, w := range words {
			p.Terms = append(p.Terms, Term{Word: w, Keys: []string{Key(w)}})
		}
		return p
	}
	tests := []struct {
		name   string
		p      Plan
		hits   []Hit
		answer catalog.OptString
		conf   float64
	}{
		{"AllTermsInOneSentence", plan("upi", "wallet", "limit"), []Hit{{Circular: lite, Tier: TierStrong}},
			"The UPI Lite wallet limit is ₹5,000.", 0.85},
		{"WeakMatchNoAnswer", plan("wallet", "fraud", "audit"), []Hit{{Circular: lite, Tier: TierAny}}, "", 0.15},
		{"NoHits", plan("upi"), nil, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Extract(tt.p, tt.hits)
			if a.DirectAnswer != tt.answer || a.Confidence != tt.conf || a.Method != MethodExtractive {
				t.Errorf("answer %q, confidence %v, method %q; want %q, %v, extractive", a.DirectAnswer, a.Confidence, a.Method, tt.answer, tt.conf)
			}
			if len(a.Sources) != len(tt.hits) {
				t.Errorf("%d sources, want %d", len(a.Sources), len(tt.hits))
			}
		})
	}
	t.Run("Highlights", func(t *testing.T) {
		a := Extract(plan("wallet"), []Hit{{Circular: lite, Tier: TierStrong}})
		ex := []rune(a.Sources[0].RelevantExcerpt) // ASCII before the match, so runes are UTF-16 units here
		h := a.Sources[0].Highlights
		if len(h) != 1 || string(ex[h[0].Start:h[0].End]) != "wallet" {
			t.Errorf("highlights %v of %q; want the word wallet", h, a.Sources[0].RelevantExcerpt)
		}
	})
}

// TestEachWord: the words Tokens keys, as written.
func TestEachWord(t *testing.T) {
	text := "RBI/2024-25/73 DPSS.CO.PD.No.S516 — Paiement ÉTÉ, naïve Aggregators' KYC: ₹5,000 हिंदी"
	var got []string
	EachWord(text, func(w string) { got = append(got, w) })
	var want []string
	for _, tok := range Tokens(text) {
		want = append(want, text[tok.Start:tok.End])
		if strings.ToLower(text[tok.Start:tok.End]) != tok.Word {
			t.Errorf("token %q: word %q is not its text lower-cased", text[tok.Start:tok.End], tok.Word)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("EachWord (-Tokens +EachWord):\n%s", diff)
	}
	if len(got) < 10 {
		t.Errorf("EachWord found %d words in %q", len(got), text)
	}
}
