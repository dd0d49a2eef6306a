package local

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"FullStops", "Banks shall report. PSPs must comply! Is it due? Yes.", []string{"Banks shall report.", "PSPs must comply!", "Is it due?", "Yes."}},
		{"Abbreviations", "See circular No. 12 of 2020. A fee of Rs. 500 applies, e.g. for cards. Done.", []string{"See circular No. 12 of 2020.", "A fee of Rs. 500 applies, e.g. for cards.", "Done."}},
		{"Decimals", "The rate is 2.5 per cent. It rose from 1.75.", []string{"The rate is 2.5 per cent.", "It rose from 1.75."}},
		{"Identifiers", "Circular DPSS.CO.PD.No.1810/02.14.008/2019-20 applies. It is new.", []string{"Circular DPSS.CO.PD.No.1810/02.14.008/2019-20 applies.", "It is new."}},
		{"Initials", "Signed by A. K. Sharma. Next.", []string{"Signed by A. K. Sharma.", "Next."}},
		{"LowerCaseAfterStop", "Use the approx. value here.", []string{"Use the approx. value here."}},
		{"Quotes", `NPCI said "stop now." Then it acted.`, []string{"NPCI said “stop now.”", "Then it acted."}},
		{"Markdown", "## Who must comply\n\nEntities must:\n\n- **register** by 1 April\n- report [monthly](https://x.test)\n\nThat is all.", []string{"Who must comply", "Entities must:", "register by 1 April", "report monthly", "That is all."}},
		{"Danda", "सभी परिचालक मासिक रिपोर्ट देंगे। यह निदेश तुरंत लागू होगा॥ दर 2.5 प्रतिशत है।", []string{"सभी परिचालक मासिक रिपोर्ट देंगे।", "यह निदेश तुरंत लागू होगा॥", "दर 2.5 प्रतिशत है।"}},
		{"DandaQuoted", "उसने कहा \"रुकिए।\" फिर", []string{"उसने कहा “रुकिए।”", "फिर"}},
		{"Empty", " \n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Sentences(tc.text)); diff != "" {
				t.Errorf("Sentences (-want +got):\n%s", diff)
			}
		})
	}
}

// realCirculars loads the portal's own content.
func realCirculars(t *testing.T) map[string]catalog.Circular {
	t.Helper()
	cat, err := catalog.Load("../../../content")
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]catalog.Circular{}
	for _, c := range cat.Circulars {
		m[c.Slug] = c
	}
	return m
}

// madeOfSentences reports whether summary is sentences of sents joined by
// spaces, and how many.
func madeOfSentences(summary string, sents []string) (int, bool) {
	n := 0
	for rest := summary; rest != ""; n++ {
		found := false
		for _, s := range sents {
			if strings.HasPrefix(rest, s) {
				rest = strings.TrimPrefix(strings.TrimPrefix(rest, s), " ")
				found = true
				break
			}
		}
		if !found {
			return n, false
		}
	}
	return n, true
}

func TestSummarize_Circulars(t *testing.T) {
	p := New()
	for slug, c := range realCirculars(t) {
		t.Run(slug, func(t *testing.T) {
			got, err := p.Summarize(t.Context(), ai.SummaryRequest{Title: c.Title, Text: c.Content})
			if err != nil {
				t.Fatal(err)
			}
			if got.Provider != ai.ProviderLocal || got.Model != ModelSummary {
				t.Errorf("made by %s/%s, want local/%s", got.Provider, got.Model, ModelSummary)
			}
			if n := utf8.RuneCountInString(got.Summary); n > p.MaxChars || n == 0 {
				t.Errorf("summary is %d characters, want 1 to %d", n, p.MaxChars)
			}
			n, ok := madeOfSentences(got.Summary, Sentences(c.Content))
			if !ok {
				t.Errorf("summary %q is not made of the circular's sentences", got.Summary)
			}
			if n > p.MaxSentences {
				t.Errorf("summary has %d sentences, want at most %d", n, p.MaxSentences)
			}
			if missing := ai.Unsupported(got.Summary, c.Content); missing != nil {
				t.Errorf("summary states %q, not in the circular", missing)
			}
		})
	}
}

// TestSummarize_KeyObligation: on real circulars, the summary keeps the
// sentence that says what the circular demands.
func TestSummarize_KeyObligation(t *testing.T) {
	circulars := realCirculars(t)
	for _, tc := range []struct{ slug, obligation string }{
		{"rbi-2025-09-15-payment-aggregators-master-direction", "Non-bank aggregators must be authorised"},
		{"npci-2025-05-21-upi-api-usage-limits", "must monitor and throttle the API traffic"},
		{"rbi-2025-09-25-authentication-mechanisms-directions", "must be authenticated with at least two distinct factors"},
		{"npci-2025-07-29-p2p-collect-discontinued", "had to update their systems"},
		{"sebi-2025-06-11-validated-upi-ids", "Intermediaries must adopt the IDs"},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			c, ok := circulars[tc.slug]
			if !ok {
				t.Fatalf("no circular %s in content/", tc.slug)
			}
			got, err := New().Summarize(t.Context(), ai.SummaryRequest{Title: c.Title, Text: c.Content})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Summary, tc.obligation) {
				t.Errorf("summary %q leaves out %q", got.Summary, tc.obligation)
			}
		})
	}
}

// TestSummarize_FactsFirst: on real circulars, the summary keeps the
// sentences stating figures and deadlines before descriptive ones.
func TestSummarize_FactsFirst(t *testing.T) {
	circulars := realCirculars(t)
	for _, tc := range []struct{ slug, fact string }{
		{"npci-2025-05-21-upi-api-usage-limits", "limited to 50 per app per customer per day"},
		{"rbi-2026-01-16-integrated-ombudsman-scheme-2026", "up to ₹30 lakh"},
		{"rbi-2026-04-21-e-mandate-framework-2026", "up to ₹15,000"},
	} {
		t.Run(tc.slug, func(t *testing.T) {
			c := circulars[tc.slug]
			got, err := New().Summarize(t.Context(), ai.SummaryRequest{Title: c.Title, Text: c.Content})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(got.Summary, tc.fact) {
				t.Errorf("summary %q leaves out %q", got.Summary, tc.fact)
			}
		})
	}
	t.Run("DescriptiveFillsTheRest", func(t *testing.T) {
		p := &Provider{MaxSentences: 2, MaxChars: 300}
		text := "The framework has a long history of consultation with the industry and its users. " +
			"Banks must report fraud within 7 days. The consultation with the industry was long and the users were many."
		got, _ := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Framework consultation with the industry", Text: text})
		if !strings.Contains(got.Summary, "Banks must report fraud within 7 days.") {
			t.Errorf("summary %q leaves out the obligation", got.Summary)
		}
		if n, _ := madeOfSentences(got.Summary, Sentences(text)); n != 2 {
			t.Errorf("summary %q has %d sentences; a descriptive one fills the room left", got.Summary, n)
		}
	})
}

func TestSummarize_Text(t *testing.T) {
	p := &Provider{MaxSentences: 2, MaxChars: 200}
	t.Run("DropsRepetition", func(t *testing.T) {
		text := "Payment aggregators must settle funds within one day. " +
			"Payment aggregators must settle the funds within one day. " +
			"Merchants must be onboarded after due diligence. The weather was fine."
		got, err := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Payment aggregators", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Count(got.Summary, "settle") != 1 {
			t.Errorf("summary %q repeats itself", got.Summary)
		}
	})
	t.Run("DocumentOrder", func(t *testing.T) {
		text := "Background only. Issuers must tokenise cards by 1 April 2026. History follows. Issuers must report tokenised cards monthly."
		got, _ := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Card tokenisation by issuers", Text: text})
		if want := "Issuers must tokenise cards by 1 April 2026. Issuers must report tokenised cards monthly."; got.Summary != want {
			t.Errorf("summary = %q, want %q", got.Summary, want)
		}
	})
	t.Run("LongSentenceCut", func(t *testing.T) {
		got, _ := (&Provider{MaxSentences: 2, MaxChars: 30}).Summarize(t.Context(), ai.SummaryRequest{Text: "Every bank must adopt the new framework for all its card payments."})
		if want := "Every bank must adopt the…"; got.Summary != want {
			t.Errorf("summary = %q, want %q", got.Summary, want)
		}
	})
	t.Run("ErrNoText", func(t *testing.T) {
		if _, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: "  "}); !errors.Is(err, ai.ErrNoText) {
			t.Errorf("err = %v, want ErrNoText", err)
		}
	})
	t.Run("Canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := p.Summarize(ctx, ai.SummaryRequest{Text: "Banks shall comply."}); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestAnswer_Passages(t *testing.T) {
	passages := []ai.Passage{
		{CircularID: "c1", Title: "UPI Lite limits", Text: "The UPI Lite wallet limit is raised to ₹5,000. Each payment may be up to ₹1,000."},
		{CircularID: "c2", Title: "Tokenisation", Text: "Card issuers must offer tokenisation. Merchants may not store card data."},
	}
	p := New()
	t.Run("CitesTheMatchingCircular", func(t *testing.T) {
		got, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "May merchants store card data?", Passages: passages})
		if err != nil {
			t.Fatal(err)
		}
		want := ai.Answer{Answer: "Merchants may not store card data.",
			Citations: []string{"c2"}, Provider: ai.ProviderLocal, Model: ModelAnswer}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Answer (-want +got):\n%s", diff)
		}
	})
	t.Run("TheAskedFact", func(t *testing.T) {
		got, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "What is the UPI Lite limit per payment?", Passages: passages})
		if err != nil {
			t.Fatal(err)
		}
		// The sentence before adds the question's "UPI Lite".
		want := ai.Answer{Answer: "The UPI Lite wallet limit is raised to ₹5,000. Each payment may be up to ₹1,000.", Citations: []string{"c1"},
			Provider: ai.ProviderLocal, Model: ModelAnswer}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Answer (-want +got):\n%s", diff)
		}
	})
	t.Run("NoSharedTerms", func(t *testing.T) {
		// No answer rather than a sentence that does not answer.
		if got, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "zebra", Passages: passages}); !errors.Is(err, ai.ErrNoAnswer) {
			t.Errorf("Answer = %+v, %v; want ErrNoAnswer", got, err)
		}
		if got, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "When must card issuers offer tokenisation?", Passages: passages}); !errors.Is(err, ai.ErrNoAnswer) {
			t.Errorf("Answer = %+v, %v; want ErrNoAnswer: no passage states a date", got, err)
		}
	})
	t.Run("ErrNoText", func(t *testing.T) {
		if _, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "x"}); !errors.Is(err, ai.ErrNoText) {
			t.Errorf("err = %v, want ErrNoText", err)
		}
	})
}

func TestAnalyzeImpact_Rules(t *testing.T) {
	p := New()
	due := catalog.Date{}
	for _, tc := range []struct {
		name       string
		c          catalog.Circular
		entityType string
		level      string
		reasons    int
	}{
		{"Editorial", catalog.Circular{Content: "Aggregators must register.",
			EntityImpact: catalog.List[catalog.EntityImpact]{{EntityType: "PSP", ImpactLevel: "low"}}}, "PSP", "low", 2},
		{"HighObligationAndDeadline", catalog.Circular{Content: "Card issuers must tokenise cards by 1 April 2026. Nothing else."}, "Issuer", "high", 1},
		{"HighEffectiveDate", catalog.Circular{Content: "Payment aggregators shall keep funds in escrow.", EffectiveDate: &due}, "Aggregator", "high", 1},
		{"MediumOneObligation", catalog.Circular{Content: "PSPs must display the payee's name."}, "PSP", "medium", 1},
		{"MediumInstrument", catalog.Circular{Content: "Banks must support UPI handles."}, "Issuer", "medium", 1},
		{"DraftAtMostMedium", catalog.Circular{DocumentType: "draft", Content: "Issuers must tokenise cards by 1 April 2026."}, "Issuer", "medium", 1},
		{"LowNothing", catalog.Circular{Content: "The board met in Mumbai."}, "Aggregator", "low", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.c.DocumentType == "" {
				tc.c.DocumentType = "circular"
			}
			got, err := p.AnalyzeImpact(t.Context(), ai.ImpactRequest{Circular: tc.c, EntityType: tc.entityType})
			if err != nil {
				t.Fatal(err)
			}
			if got.ImpactLevel != tc.level || len(got.Reasons) != tc.reasons {
				t.Errorf("AnalyzeImpact = %s with reasons %q, want %s with %d", got.ImpactLevel, got.Reasons, tc.level, tc.reasons)
			}
			if got.Provider != ai.ProviderLocal || got.Model != ModelImpact {
				t.Errorf("made by %s/%s", got.Provider, got.Model)
			}
		})
	}
	t.Run("ReasonsAreSentences", func(t *testing.T) {
		c := realCirculars(t)["npci-2025-05-21-upi-api-usage-limits"]
		c.EntityImpact = nil
		got, _ := p.AnalyzeImpact(t.Context(), ai.ImpactRequest{Circular: c, EntityType: "PSP"})
		if got.ImpactLevel != "high" {
			t.Errorf("level = %s, want high", got.ImpactLevel)
		}
		for _, r := range got.Reasons {
			if !strings.Contains(c.Content, r) {
				t.Errorf("reason %q is not in the circular", r)
			}
		}
	})
	t.Run("UnknownEntityType", func(t *testing.T) {
		if _, err := p.AnalyzeImpact(t.Context(), ai.ImpactRequest{EntityType: "Bank"}); err == nil {
			t.Error("no error for an unknown entity type")
		}
	})
}
