package local

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// The patterns below match lower-cased text (faster than (?i)).

// entityNames find the sentences that speak of an entity type.
var entityNames = map[string]*regexp.Regexp{
	"PSP":        regexp.MustCompile(`\b(payment service providers?|psps?|payment system (providers?|operators?|participants?)|psos?|third[- ]party app(lication)? providers?|tpaps?|member banks?|remitter banks?|beneficiary banks?|banks?|upi apps?)\b`),
	"Issuer":     regexp.MustCompile(`\b(issuers?|card[- ]issu(ers?|ing)( banks?)?|issuing banks?|ppi issuers?|card networks?)\b`),
	"Aggregator": regexp.MustCompile(`\b(payment aggregators?|aggregators?|pas?|pa-cb|pa-p|payment gateways?|pgs?|merchants?)\b`),
}

// instruments find the payment instruments and channels a circular names.
var instruments = regexp.MustCompile(`\b(cards?|credit cards?|debit cards?|upi|ppis?|prepaid|wallets?|tokeni[sz](ation|ed)|e-mandates?|mandates?|qr|nfc|aeps|imps|neft|rtgs|bbps|net banking|checkout)\b`)

// maxReasons bounds the sentences an analysis cites.
const maxReasons = 3

// AnalyzeImpact rates how hard req.Circular hits req.EntityType. The
// editors' rating for that type wins when the circular has one; otherwise
// the text decides: high when it obliges the type (a sentence naming it
// states an obligation) and sets a deadline or obliges it twice, medium
// when it obliges the type once or obliges someone while naming the type
// or its instruments, low otherwise. A document that obliges no one (a
// draft, a paper, a press release) is at most medium. The reasons are the
// sentences that led to the level, in the circular's order.
func (p *Provider) AnalyzeImpact(ctx context.Context, req ai.ImpactRequest) (catalog.ImpactAnalysis, error) {
	if err := ctx.Err(); err != nil {
		return catalog.ImpactAnalysis{}, err
	}
	c := req.Circular
	names, ok := entityNames[req.EntityType]
	if !ok {
		return catalog.ImpactAnalysis{}, fmt.Errorf("local: unknown entity type %q", req.EntityType)
	}
	sents := Sentences(c.Content)
	type evidence struct{ named, obliges, due, instrument bool }
	ev := make([]evidence, len(sents))
	var obligedNamed, obligations int
	var due, named, instrumented bool
	for i, sent := range sents {
		// "Non-bank aggregators" speaks of aggregators, not of banks.
		s := strings.ReplaceAll(strings.ToLower(sent), "non-bank", "nonbank")
		e := evidence{names.MatchString(s), obligation.MatchString(s), deadline(sent), instruments.MatchString(s)}
		ev[i] = e
		if e.named && e.obliges {
			obligedNamed++
		}
		if e.obliges {
			obligations++
		}
		due = due || (e.obliges && e.due)
		named = named || e.named
		instrumented = instrumented || e.instrument
	}
	due = due || c.EffectiveDate != nil || len(c.ComplianceDates) > 0

	level := "low"
	switch {
	case obligedNamed >= 1 && (due || obligedNamed >= 2):
		level = "high"
	case obligedNamed == 1 || (obligations > 0 && (named || instrumented)):
		level = "medium"
	}
	if !catalog.Binding(c.DocumentType) && level == "high" {
		level = "medium"
	}

	// The reasons: the sentences with the most evidence, in text order.
	score := func(e evidence) int {
		n := 0
		if e.named {
			n += 2
		}
		if e.obliges {
			n += 2
		}
		if e.due {
			n++
		}
		if e.instrument {
			n++
		}
		return n
	}
	idx := make([]int, 0, len(sents))
	for i := range sents {
		if score(ev[i]) > 0 {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return score(ev[b]) - score(ev[a]) })
	idx = slices.Sorted(slices.Values(idx[:min(len(idx), maxReasons)]))
	reasons := catalog.TextList{}
	if editorial := c.ImpactFor(req.EntityType); editorial != "" {
		level = editorial
		reasons = append(reasons, fmt.Sprintf("The editors rate this circular's impact on %s as %s.", impact.DisplayName(req.EntityType), editorial))
	}
	for _, i := range idx {
		reasons = append(reasons, sents[i])
	}
	if len(reasons) == 0 {
		reasons = append(reasons, fmt.Sprintf("The circular states no obligation, deadline or instrument that concerns %s.", impact.DisplayName(req.EntityType)))
	}
	return catalog.ImpactAnalysis{ImpactLevel: level, Reasons: reasons, Provider: ai.ProviderLocal, Model: ModelImpact}, nil
}
