package local

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/ai"
)

// TestSentencesHindi: Hindi text splits at the danda, the double danda, and
// at a question mark, exclamation mark or full stop followed by a Hindi
// word; not inside figures, identifiers or after Hindi abbreviations.
func TestSentencesHindi(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"Danda", "बैंक रिपोर्ट देंगे। यह तुरंत लागू होगा।", []string{"बैंक रिपोर्ट देंगे।", "यह तुरंत लागू होगा।"}},
		{"DoubleDanda", "परिपत्र समाप्त॥ अगला भाग", []string{"परिपत्र समाप्त॥", "अगला भाग"}},
		{"DandaWithoutSpace", "पहला वाक्य।दूसरा वाक्य।", []string{"पहला वाक्य।", "दूसरा वाक्य।"}},
		{"Question", "क्या यह नियम लागू है? हाँ, यह लागू है।", []string{"क्या यह नियम लागू है?", "हाँ, यह लागू है।"}},
		{"Exclamation", "ध्यान दें! अंतिम तिथि निकट है।", []string{"ध्यान दें!", "अंतिम तिथि निकट है।"}},
		{"FullStopBeforeHindi", "यह निदेश जारी किया गया. सभी बैंक पालन करें.", []string{"यह निदेश जारी किया गया.", "सभी बैंक पालन करें."}},
		{"Decimal", "दर 2.5 प्रतिशत है। सीमा ₹1,00,000 है।", []string{"दर 2.5 प्रतिशत है।", "सीमा ₹1,00,000 है।"}},
		{"ReferenceNumber", "परिपत्र भारिबैं/2020-21/60 देखें। यह नया है।", []string{"परिपत्र भारिबैं/2020-21/60 देखें।", "यह नया है।"}},
		{"Abbreviation", "शुल्क रु. 500 होगा। परिपत्र सं. 12 देखें।", []string{"शुल्क रु. 500 होगा।", "परिपत्र सं. 12 देखें।"}},
		{"Mixed", "RBI ने KYC नियम बदले। Banks must comply. क्या UPI पर लागू है? हाँ।", []string{"RBI ने KYC नियम बदले।", "Banks must comply.", "क्या UPI पर लागू है?", "हाँ।"}},
		{"QuestionLowerCaseEnglish", "Is it due? yes, it is.", []string{"Is it due? yes, it is."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Sentences(tc.text)); diff != "" {
				t.Errorf("Sentences (-want +got):\n%s", diff)
			}
		})
	}
}

// hindiCircular is a Hindi circular's text as OCR reads a scanned PDF:
// paragraphs of sentences ending in the danda, a heading, numbered points.
const hindiCircular = `भारतीय रिज़र्व बैंक

भुगतान एग्रीगेटरों का विनियमन

सभी भुगतान एग्रीगेटरों को सूचित किया जाता है कि वे इस परिपत्र के प्रावधानों का पालन करें। भुगतान एग्रीगेटरों को 1 अप्रैल 2026 से ग्राहकों की राशि एक एस्क्रो खाते में रखनी होगी। यह खाता किसी अनुसूचित वाणिज्यिक बैंक में खोला जाएगा।

व्यापारियों को जोड़ने से पहले भुगतान एग्रीगेटरों को उनका KYC सत्यापन करना होगा। भुगतान एग्रीगेटर की न्यूनतम निवल संपत्ति ₹25 करोड़ होनी चाहिए। पिछले वर्ष इस विषय पर कई हितधारकों से परामर्श किया गया था। बैंक ने इस पर एक चर्चा पत्र भी प्रकाशित किया था।

क्या यह परिपत्र गैर-बैंक संस्थाओं पर भी लागू है? हाँ, यह सभी भुगतान एग्रीगेटरों पर लागू है। ये निदेश तत्काल प्रभाव से लागू होंगे।`

// A Hindi text is summarised in Hindi: whole sentences of the text, the
// ones stating obligations, deadlines and figures first; whatever language
// the page asks for (the local provider writes only the text's sentences).
func TestSummarize_Hindi(t *testing.T) {
	sents := Sentences(hindiCircular)
	for _, lang := range []string{"", ai.LangHindi, ai.LangEnglish} {
		got, err := New().Summarize(t.Context(), ai.SummaryRequest{Title: "भुगतान एग्रीगेटरों का विनियमन", Text: hindiCircular, Lang: lang})
		if err != nil {
			t.Fatal(err)
		}
		if got.Provider != ai.ProviderLocal || got.Model != ModelSummary {
			t.Errorf("provider %q model %q", got.Provider, got.Model)
		}
		picked := Sentences(got.Summary)
		if len(picked) == 0 || len(picked) > 3 {
			t.Fatalf("lang %q: summary %q: %d sentences, want 1 to 3", lang, got.Summary, len(picked))
		}
		for _, s := range picked {
			if !slices.Contains(sents, s) {
				t.Errorf("lang %q: %q is not a sentence of the text", lang, s)
			}
			if !strings.HasSuffix(s, "।") && !strings.HasSuffix(s, "?") {
				t.Errorf("lang %q: %q does not end as a Hindi sentence", lang, s)
			}
			if devanagari(s) < 0.6 {
				t.Errorf("lang %q: %q is not Hindi", lang, s)
			}
		}
		// What a reader acts on: the escrow deadline and the KYC check.
		for _, want := range []string{"1 अप्रैल 2026 से ग्राहकों की राशि एक एस्क्रो खाते में रखनी होगी", "KYC सत्यापन करना होगा"} {
			if !strings.Contains(got.Summary, want) {
				t.Errorf("lang %q: summary %q leaves out %q", lang, got.Summary, want)
			}
		}
		// Background is left out.
		if strings.Contains(got.Summary, "परामर्श किया गया था") || strings.Contains(got.Summary, "चर्चा पत्र") {
			t.Errorf("lang %q: summary %q has the background", lang, got.Summary)
		}
	}
}

// devanagari is the share of s's letters that are Devanagari.
func devanagari(s string) float64 {
	var letters, deva int
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) {
			letters++
			if unicode.Is(unicode.Devanagari, r) {
				deva++
			}
		}
	}
	if letters == 0 {
		return 0
	}
	return float64(deva) / float64(letters)
}
