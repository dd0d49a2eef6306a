package openai

import (
	"strings"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

// A Hindi page's request asks the model for Hindi; an English one's (or
// one that names no language) does not mention Hindi at all.
func TestPrompts_Language(t *testing.T) {
	c := catalog.Circular{Entry: catalog.Entry{ID: "c1"}, Title: "Escrow", Source: "RBI", Content: circularText, DocumentType: "circular"}
	impactAnswer := `{"impactLevel":"high","reasons":["भुगतान एग्रीगेटरों को 1 April 2026 से ग्राहकों की राशि एस्क्रो खाते में रखनी होगी।"]}`
	for _, lang := range []string{"", ai.LangEnglish, ai.LangHindi} {
		t.Run("lang="+lang, func(t *testing.T) {
			p, f := serve(t, Config{}, always(200, "भुगतान एग्रीगेटरों को 1 April 2026 से एस्क्रो खाता रखना होगा।"))
			if _, err := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Escrow", Text: circularText, Lang: lang}); err != nil {
				t.Fatal(err)
			}
			q, g := serve(t, Config{}, always(200, impactAnswer))
			if _, err := q.AnalyzeImpact(t.Context(), ai.ImpactRequest{Circular: c, EntityType: "Aggregator", Lang: lang}); err != nil {
				t.Fatal(err)
			}
			for name, u := range map[string]string{"summary": f.userText(0), "impact": g.userText(0)} {
				asks := strings.Contains(u, "Write your answer in Hindi (Devanagari script)")
				if asks != (lang == ai.LangHindi) {
					t.Errorf("%s prompt asks for Hindi: %v, want %v:\n%s", name, asks, lang == ai.LangHindi, u)
				}
				if lang == ai.LangHindi && !strings.Contains(u, "copy circular numbers, amounts, percentages and dates exactly") {
					t.Errorf("%s prompt does not keep the figures as written:\n%s", name, u)
				}
			}
			if hi := strings.Contains(g.userText(0), `the reasons are in Hindi`); hi != (lang == ai.LangHindi) {
				t.Errorf("impact prompt: reasons in Hindi %v, want %v", hi, lang == ai.LangHindi)
			}
		})
	}
}

// A long text is condensed part by part (in the text's language) and the
// parts' combination is asked for in the page's.
func TestSummarize_ChunkedHindi(t *testing.T) {
	long := strings.Repeat(circularText+" ", 40)
	p, f := serve(t, Config{ChunkChars: 1000}, always(200, "Aggregators must use escrow accounts from 1 April 2026."))
	if _, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: long, Lang: ai.LangHindi}); err != nil {
		t.Fatal(err)
	}
	last := f.calls() - 1
	if last < 1 || !strings.Contains(f.userText(last), "Combine them") || !strings.Contains(f.userText(last), "Write your answer in Hindi") {
		t.Errorf("the combining prompt does not ask for Hindi: %q", f.userText(last))
	}
	if strings.Contains(f.userText(0), "Hindi") {
		t.Errorf("a part's summary asks for Hindi: %q", f.userText(0))
	}
}
