package local

import (
	"strings"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

// BenchmarkLocal times the local provider alone on the real content: a
// circular's summary and impact (the PA master direction, six sentences),
// a summary of every circular's text at once (about 50,000 characters,
// 400 sentences: LexRank is quadratic in sentences), and an answer from
// five retrieved circulars.
func BenchmarkLocal(b *testing.B) {
	cat, err := catalog.Load("../../../content")
	if err != nil {
		b.Fatal(err)
	}
	var pa catalog.Circular
	var all strings.Builder
	var passages []ai.Passage
	for _, c := range cat.Circulars {
		if c.Slug == "rbi-2025-09-15-payment-aggregators-master-direction" {
			pa = c
		}
		all.WriteString(c.Content + "\n\n")
		if len(passages) < 5 {
			passages = append(passages, ai.Passage{CircularID: c.ID, Source: c.Source, Title: c.Title, Text: c.Content})
		}
	}
	p := New()
	for _, bc := range []struct {
		name string
		run  func() error
	}{
		{"SummarizeCircular", func() error {
			_, err := p.Summarize(b.Context(), ai.SummaryRequest{Title: pa.Title, Text: pa.Content})
			return err
		}},
		{"AnalyzeImpact", func() error {
			c := pa
			c.EntityImpact = nil // the rules, not the editors' rating
			_, err := p.AnalyzeImpact(b.Context(), ai.ImpactRequest{Circular: c, EntityType: "Aggregator"})
			return err
		}},
		{"SummarizeAllContent", func() error {
			_, err := p.Summarize(b.Context(), ai.SummaryRequest{Text: all.String()})
			return err
		}},
		{"Answer", func() error {
			_, err := p.Answer(b.Context(), ai.AnswerRequest{Question: "What is the UPI Lite wallet limit?", Passages: passages})
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
