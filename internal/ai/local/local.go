// Package local is the AI provider that needs no model and no network:
// extractive summaries (biased LexRank over TF-IDF sentence similarity,
// MMR against redundancy, sentences stating obligations, deadlines and
// figures first), a rule-based impact analysis, and extractive answers
// (the search's: search.Extract). Everything it writes is a sentence of its input, so it cannot
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
	"regpulse/internal/search"
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
	// AnswerChars bounds an answer.
	AnswerChars int
}

var _ ai.Provider = (*Provider)(nil)

// New returns the local provider with the portal's bounds: summaries of at
// most 3 sentences and 600 characters (a card's summary block), answers
// of at most 450 characters.
func New() *Provider {
	return &Provider{MaxSentences: 3, MaxChars: 600, AnswerChars: 450}
}

// mmrLambda weighs a sentence's own score against its redundancy with the
// sentences already picked.
const mmrLambda = 0.7

// obligation and deadlinePhrase match lower-cased text.
var (
	// obligation finds what a circular requires of someone.
	obligation = regexp.MustCompile(`\b(shall|must|required to|requires?|are directed to|is directed to|mandatory|mandated|should ensure|have to|has to|obliged|prohibited|not permitted|barred?|bars|may not|no longer|needs?|had to|limited to|capped at|restricted|told|asked)\b`)
	// deadlinePhrase finds words that set a date or a time limit
	// without stating it.
	deadlinePhrase = regexp.MustCompile(`\b(with effect from|w\.e\.f|effective from|no later than|not later than|on or before|deadline|timeline)\b`)
	// hindiObligation and hindiDeadline are the same in Hindi (Go's \b
	// is ASCII's: Devanagari words are matched by their phrases alone).
	hindiObligation = regexp.MustCompile(`अनिवार्य|आवश्यक होगा|आवश्यक है|सुनिश्चित कर|करना होगा|करनी होगी|करने होंगे|रखना होगा|रखनी होगी|देना होगा|देनी होगी|बाध्य|निषिद्ध|अनुमति नहीं|निदेश दिया|निर्देश दिया|निदेशित|निर्देशित|तक सीमित|नहीं करेंगे|नहीं करेगा|नहीं करेगी|होनी चाहिए|होना चाहिए|करना चाहिए`)
	hindiDeadline   = regexp.MustCompile(`से प्रभावी|से लागू|अंतिम तिथि|अंतिम तारीख|तक या उससे पहले|से पहले|के भीतर|समय-सीमा|समयसीमा`)
)

// deadline reports whether the sentence s sets a date or a time limit: it
// states a date or a duration (search.Figures reads them as the search's
// answers and the invention guard do), or says it sets one.
func deadline(s string) bool {
	if deadlinePhrase.MatchString(strings.ToLower(s)) || hindiDeadline.MatchString(s) {
		return true
	}
	return slices.ContainsFunc(search.Figures(s), func(v search.Value) bool {
		return v.Kind == search.ValueDate || v.Kind == search.ValueDuration
	})
}

// obliges reports whether the sentence s states an obligation, in English
// or Hindi.
func obliges(s string) bool {
	return obligation.MatchString(strings.ToLower(s)) || hindiObligation.MatchString(s)
}

// factual reports whether the sentence s states what a reader acts on: an
// obligation, a deadline, or a figure (an amount, a count).
func factual(s string) bool {
	return obliges(s) || deadline(s) || len(search.Figures(s)) > 0
}

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
		bias[i] = 1 + 2*cosine(title, vs[i])
		// What a circular requires, by when, and its limits.
		if obliges(s) {
			bias[i]++
		}
		if deadline(s) {
			bias[i]++
		}
		if slices.ContainsFunc(search.Figures(s), func(v search.Value) bool {
			return v.Kind == search.ValueAmount || v.Kind == search.ValueNumber
		}) {
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
	// What a reader acts on first: the sentences stating obligations,
	// deadlines and figures are picked before descriptive ones, which
	// only fill the room they leave.
	stating, describing := slices.Clone(scores), slices.Clone(scores)
	for i, s := range sents {
		if factual(s) {
			describing[i] = 0
		} else {
			stating[i] = 0
		}
	}
	fits := bounded(sents, p.MaxSentences, p.MaxChars)
	picked := mmr(describing, sim, mmrLambda, fits, mmr(stating, sim, mmrLambda, fits, nil))
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

// Answer is the search's extractive answer (search.Extract) over the
// passages, in their order as retrieval's: the sentence stating the fact
// the question asks for, quoted as written, citing its circular. When no
// sentence answers it, ai.ErrNoAnswer.
func (p *Provider) Answer(ctx context.Context, req ai.AnswerRequest) (ai.Answer, error) {
	if len(req.Passages) == 0 {
		return ai.Answer{}, ai.ErrNoText
	}
	if err := ctx.Err(); err != nil {
		return ai.Answer{}, err
	}
	plan, err := search.PlanText(req.Question)
	if err != nil {
		return ai.Answer{}, ai.ErrNoText
	}
	hits := make([]search.Hit, len(req.Passages))
	for i, ps := range req.Passages {
		hits[i] = search.Hit{Tier: search.TierAll, Circular: catalog.Circular{Entry: catalog.Entry{ID: ps.CircularID, Slug: ps.CircularID},
			Source: ps.Source, Title: ps.Title, Content: ps.Text}}
	}
	a := search.Extract(plan, hits)
	if a.DirectAnswer == "" {
		return ai.Answer{}, ai.ErrNoAnswer
	}
	return ai.Answer{Answer: cut(string(a.DirectAnswer), p.AnswerChars), Citations: []string{a.Sources[0].CircularID},
		Provider: ai.ProviderLocal, Model: ModelAnswer}, nil
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
