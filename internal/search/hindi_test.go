package search

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTranslate(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
		ok               bool
	}{
		{"Devanagari", "केवाईसी नियम", "kyc rules", true},
		{"mixed", "UPI लाइट सीमा", "upi lite limit", true},
		{"Hinglish", "bhugtan aggregator", "payment aggregator", true},
		{"Hinglish capitals", "Bhugtan Aggregator", "payment aggregator", true},
		{"the longest form first", "सीमा पार भुगतान एग्रीगेटर", "cross border payment aggregator", true},
		{"a phrase for one word", "अपने ग्राहक को जानिए निदेश", "kyc directions", true},
		{"function words dropped", "कार्ड डेटा का भंडारण", "card data storage", true},
		{"Hinglish function words in a Hindi query", "upi lite ki seema kitni hai", "upi lite limit how much", true},
		{"how much, with its mark", "UPI लाइट की सीमा कितनी है?", "upi lite limit how much?", true},
		{"yes or no", "क्या व्यापारी कार्ड डेटा का भंडारण कर सकते हैं?", "do merchant card data storage can?", true},
		{"what is", "kyc kya hai", "kyc what is", true},
		{"when", "केवाईसी संशोधन कब लागू होगा", "kyc amendment when apply", true},
		{"within how many days", "विफल लेनदेन कितने दिनों में", "failed transaction how many days", true},
		{"nukta not typed", "धोखाधडी", "fraud", true},
		{"nukta typed", "धोखाधड़ी", "fraud", true},
		{"chandrabindu", "सीमाएँ", "limit", true},
		{"candra o or plain", "ओनलाइन विवाद समाधान", "online dispute resolution", true},
		{"a word the list lacks is kept", "भारतीय रिज़र्व बैंक", "भारतीय रिज़र्व bank", true},
		// English is left as it is, Hinglish-looking function words too.
		{"English", "card tokenisation", "card tokenisation", false},
		{"English with ko and se", "KYC se ko", "KYC se ko", false},
		{"Bima Sugam is a name", "bima sugam", "bima sugam", false},
		{"other scripts", "Règlements naïve", "Règlements naïve", false},
		{"Devanagari no term", "भारतीय", "भारतीय", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Translate(tt.text)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Translate(%q) = %q, %v; want %q, %v", tt.text, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestTerms: the list reads, holds at least 40 concepts, and each English
// side keys to words the index has a key for.
func TestTerms(t *testing.T) {
	concepts := map[string]bool{}
	for _, p := range terms {
		if p.english != nil {
			concepts[strings.Join(p.english, " ")] = true
		}
	}
	if len(concepts) < 40 {
		t.Errorf("%d concepts in terms.txt; want at least 40", len(concepts))
	}
	for form, p := range terms {
		if form != strings.TrimSpace(form) || form == "" {
			t.Errorf("form %q", form)
		}
		for _, w := range p.english {
			if Key(w) == "" {
				t.Errorf("%q: English word %q has no key", form, w)
			}
		}
	}
}

func TestParseTerms(t *testing.T) {
	for _, tt := range []struct {
		name, text, err string
	}{
		{"two columns", "kyc | केवाईसी", "terms.txt:1: want English | Devanagari forms | Hinglish forms"},
		{"no English", "# c\n ,, | केवाईसी |", "terms.txt:2: no English words"},
		{"a form twice", "kyc | केवाईसी |\nbank | केवाईसी |", `terms.txt:2: "केवाईसी" is already "kyc"`},
		{"a variant of a form twice", "fraud | धोखाधड़ी |\nkyc | धोखाधडी |", `terms.txt:2: "धोखाधडी" is already "fraud"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := parseTerms(tt.text)
			if err == nil || err.Error() != tt.err {
				t.Errorf("parseTerms: %v, want %s", err, tt.err)
			}
		})
	}
	m, n, err := parseTerms("payment aggregator | भुगतान एग्रीगेटर | bhugtan aggregator\n- | का | ka")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]phrase{
		"भुगतान एग्रीगेटर":   {english: []string{"payment", "aggregator"}},
		"bhugtan aggregator": {english: []string{"payment", "aggregator"}},
		"का":                 {},
		"ka":                 {function: true},
	}
	if diff := cmp.Diff(want, m, cmp.AllowUnexported(phrase{})); diff != "" || n != 2 {
		t.Errorf("parseTerms (-want +got), longest %d:\n%s", n, diff)
	}
}

// TestReadQuestion_Hindi: a Hindi question, translated, is read as its
// English one.
func TestReadQuestion_Hindi(t *testing.T) {
	for _, tt := range []struct{ text, typ string }{
		{"UPI लाइट की सीमा कितनी है?", AnswerAmount},
		{"upi lite ki seema kitni hai", AnswerAmount},
		{"केवाईसी संशोधन कब लागू होगा", AnswerDate},
		{"विफल लेनदेन की क्षतिपूर्ति कितने दिनों में", AnswerDuration},
		{"टोकन सेवा प्रदाता कौन हो सकता है", AnswerWho},
		{"क्या व्यापारी कार्ड डेटा का भंडारण कर सकते हैं?", AnswerYesNo},
		{"यूपीआई रिज़र्व पे क्या है", AnswerDefinition},
		{"केवाईसी नियम", ""},
	} {
		en, _ := Translate(tt.text)
		if got := readQuestion(en).typ; got != tt.typ {
			t.Errorf("%q (%q) asks %q, want %q", tt.text, en, got, tt.typ)
		}
	}
}

// hindiVocab holds both English keys and a Hindi circular's.
type hindiVocab map[string]int

func (v hindiVocab) Docs(_ context.Context, keys []string) (map[string]int, error) {
	out := map[string]int{}
	for _, k := range keys {
		if n := v[k]; n > 0 {
			out[k] = n
		}
	}
	return out, nil
}
func (hindiVocab) Prefixed(context.Context, string, int) ([]Word, error)  { return nil, nil }
func (hindiVocab) Near(context.Context, string, int, int) ([]Word, error) { return nil, nil }

// TestPrepare_Hindi: a translated word's term matches its English key
// and, where the index has it, the Hindi word typed (a Hindi circular's);
// the Hindi word alone when only it is indexed.
func TestPrepare_Hindi(t *testing.T) {
	vocab := hindiVocab{Key("bank"): 9, Key("बैंक"): 1, Key("परिचालक"): 1, "kyc": 3}
	p, err := Prepare(t.Context(), Query{Text: "बैंक परिचालक केवाईसी"}, vocab)
	if err != nil {
		t.Fatal(err)
	}
	want := []Term{
		{Word: "bank", Keys: []string{Key("bank"), "बैंक"}},
		{Word: "operator", Keys: []string{"परिचालक"}},
		{Word: "kyc", Keys: []string{"kyc"}},
	}
	if diff := cmp.Diff(want, p.Terms); diff != "" {
		t.Errorf("terms (-want +got):\n%s", diff)
	}
	if p.English != "bank operator kyc" || p.Text() != p.English {
		t.Errorf("English %q, Text %q", p.English, p.Text())
	}
	if p, _ := Prepare(t.Context(), Query{Text: "यूपीआई लाइट"}, vocab); !p.Latest {
		t.Error("यूपीआई is not read as UPI (Latest)")
	}
}
