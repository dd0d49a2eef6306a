// Package local is the AI provider that needs no model and no network:
// extractive summaries (biased LexRank over TF-IDF sentence similarity,
// MMR against redundancy), a rule-based impact analysis, and extractive
// answers. Everything it writes is a sentence of its input, so it cannot
// state a value its source does not.
package local

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
)

// The model names results carry.
const (
	ModelSummary = "lexrank"
	ModelImpact  = "rules"
	ModelAnswer  = "extractive"
)

// Provider is the local provider. Its zero value is not usable: use New.
type Provider struct {
	// MaxSentences and MaxChars bound a summary.
	MaxSentences, MaxChars int
	// AnswerSentences and AnswerChars bound an answer.
	AnswerSentences, AnswerChars int
}

var _ ai.Provider = (*Provider)(nil)

// New returns the local provider with the portal's bounds: summaries of at
// most 3 sentences and 600 characters (a card's summary block), answers
// of at most 2 sentences and 450 characters.
func New() *Provider {
	return &Provider{MaxSentences: 3, MaxChars: 600, AnswerSentences: 2, AnswerChars: 450}
}

// mmrLambda weighs a sentence's own score against its redundancy with the
// sentences already picked.
const mmrLambda = 0.7

// minRelevance is the share of the best sentence's relevance another
// sentence needs to join an answer.
const minRelevance = 0.3

// obligation and deadline match lower-cased text.
var (
	// obligation finds what a circular requires of someone.
	obligation = regexp.MustCompile(`\b(shall|must|required to|requires?|are directed to|is directed to|mandatory|mandated|should ensure|have to|has to|obliged|prohibited|not permitted|barred?|bars|may not|no longer|need to|needs to|need the|had to)\b`)
	// deadline finds a date or a time limit.
	deadline = regexp.MustCompile(`\b(\d{1,2}(st|nd|rd|th)? (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}|(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2},? \d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{4}|within \w+ (working )?(days?|hours?|weeks?|months?)|with effect from|w\.e\.f|effective from|no later than|not later than|on or before|deadline|timeline|by (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)\b`)
)

// Summarize picks the sentences of req.Text that best summarise it.
func (p *Provider) Summarize(ctx context.Context, req ai.SummaryRequest) (catalog.GeneratedSummary, error) {
	sents := Sentences(req.Text)
	if len(sents) == 0 {
		return catalog.GeneratedSummary{}, ai.ErrNoText
	}
	if err := ctx.Err(); err != nil {
		return catalog.GeneratedSummary{}, err
	}
	vs, title := vectors(sents, req.Title)
	sim := similarities(vs)
	bias := make([]float64, len(sents))
	for i, s := range sents {
		s = strings.ToLower(s)
		bias[i] = 1 + 2*cosine(title, vs[i])
		if obligation.MatchString(s) {
			bias[i]++
		}
		if deadline.MatchString(s) {
			bias[i] += 0.5
		}
	}
	scores := lexRank(sim, bias)
	for i, s := range sents {
		// A heading or a list's lead-in says little on its own.
		if len(strings.Fields(s)) < 5 {
			scores[i] *= 0.2
		}
	}
	picked := mmr(scores, sim, mmrLambda, bounded(sents, p.MaxSentences, p.MaxChars))
	var text string
	if len(picked) == 0 {
		// Every sentence is longer than a summary may be: the best one, cut.
		best := 0
		for i, s := range scores {
			if s > scores[best] {
				best = i
			}
		}
		text = cut(sents[best], p.MaxChars)
	} else {
		text = join(sents, picked)
	}
	return catalog.GeneratedSummary{Summary: text, Provider: ai.ProviderLocal, Model: ModelSummary}, nil
}

// Answer picks the sentences of the passages most like the question.
func (p *Provider) Answer(ctx context.Context, req ai.AnswerRequest) (ai.Answer, error) {
	var sents []string
	var from []int // the passage of each sentence
	for i, ps := range req.Passages {
		for _, s := range Sentences(ps.Text) {
			sents = append(sents, s)
			from = append(from, i)
		}
	}
	if len(sents) == 0 {
		return ai.Answer{}, ai.ErrNoText
	}
	if err := ctx.Err(); err != nil {
		return ai.Answer{}, err
	}
	vs, q := vectors(sents, req.Question)
	rel := make([]float64, len(sents))
	var best float64
	for i := range vs {
		rel[i] = cosine(q, vs[i])
		best = max(best, rel[i])
	}
	for i := range rel {
		// A sentence far less relevant than the best one dilutes the answer.
		if rel[i] < minRelevance*best {
			rel[i] = 0
		}
	}
	picked := mmr(rel, similarities(vs), mmrLambda, bounded(sents, p.AnswerSentences, p.AnswerChars))
	if len(picked) == 0 {
		// Nothing shares a term with the question: retrieval still ranked
		// the first passage best, so its first sentence answers.
		picked = []int{0}
	}
	a := ai.Answer{Provider: ai.ProviderLocal, Model: ModelAnswer, Citations: []string{}}
	parts := make([]string, len(picked))
	for k, i := range picked {
		parts[k] = cut(sents[i], p.AnswerChars)
		if id := req.Passages[from[i]].CircularID; !slices.Contains(a.Citations, id) {
			a.Citations = append(a.Citations, id)
		}
	}
	a.Answer = strings.Join(parts, " ")
	return a, nil
}

// bounded is MMR's length bound: at most n sentences and chars characters
// (with a space between sentences).
func bounded(sents []string, n, chars int) func(picked []int, i int) bool {
	return func(picked []int, i int) bool {
		if len(picked) >= n {
			return false
		}
		total := utf8.RuneCountInString(sents[i])
		for _, j := range picked {
			total += 1 + utf8.RuneCountInString(sents[j])
		}
		return total <= chars
	}
}

// join is the picked sentences in the document's order.
func join(sents []string, picked []int) string {
	picked = slices.Sorted(slices.Values(picked))
	parts := make([]string, len(picked))
	for k, i := range picked {
		parts[k] = sents[i]
	}
	return strings.Join(parts, " ")
}

// cut shortens s to at most n characters at a word boundary, with an
// ellipsis when it cuts.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	if i := strings.LastIndexByte(string(r), ' '); i > 0 {
		return string(r)[:i] + "…"
	}
	return string(r) + "…"
}
