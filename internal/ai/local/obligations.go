package local

import (
	"context"
	"regexp"
	"strings"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// ModelObligations is the model name of rule-extracted obligations.
const ModelObligations = "rules"

// The rules that find obligations, over lower-cased sentences. A
// sentence states an obligation when it holds a modal of duty or bar
// (shall, must, are required to, should not, are advised to, had to, may
// not...) and is not about the document itself (what was seen, comments
// invited, what a title is).
var (
	dutyRe = regexp.MustCompile(`\b(shall|must|(?:is|are|was|were) required|required to|should|(?:is|are) advised to|` +
		`(?:have|has|had|need|needs) to|needed|need (?:a|an|the)|may not|(?:may|can|must|will) no longer|may be \w+ only|may \w+(?: \w+){0,3} only|` +
		`not permitted|prohibit(?:s|ed)?|bar(?:s|red)?|(?:is|are) directed to|told|ruled that|asked [\w ,'-]{3,80}? to|` +
		`(?:is|are|was|were) limited to|(?:is|are|was|were) capped at|(?:is|are) restricted|must be met|` +
		`(?:has|have|had) (?:\S+ ){1,3}(?:days?|weeks?|months?|hours?|time) to|(?:was|were) given (?:\S+ ){0,3}timelines?|` +
		`(?:granted|gave|allowed) (?:a |an )?(?:\S+ )?extension|no\b[^.;]{3,80}\bmay be \w+ed|` +
		`compliance (?:is|was) (?:due|phased)|(?:rbi|npci|sebi|irdai|pfrda) (?:has )?(?:increased|raised|revised|updated|amended))\b`)
	// aboutDocument marks sentences that speak of the document, its
	// sources or its consultation, not of a duty.
	aboutDocument = regexp.MustCompile(`\b(comments? (?:were|was|are|is) (?:due|invited)|not (?:been )?(?:seen|confirmed)|title shown|has not been seen|were not seen|number .* (?:seen|shown)|not affected|need not|do not need|does not need|did not need)\b`)
	// The parties a sentence may name, by entity type.
	partyRes = map[string]*regexp.Regexp{
		"PSP":        regexp.MustCompile(`\b(psps?|payment service providers?|upi apps?|third-party apps?|tpaps?|upi participants?|upi members?|member banks?|payment system operators?|psos?|operators?|participants?|acquir(?:ing banks?|ers?)|apps?)\b`),
		"Issuer":     regexp.MustCompile(`\b(issuers?|issuing banks?|card-issuing|cardholders?|ppi issuers?|credit cards?|debit cards?)\b`),
		"Aggregator": regexp.MustCompile(`\b(payment aggregators?|aggregators?|pas|pa-cb|pa-o|pa-p|payment gateways?|merchants? they onboard)\b`),
	}
	// allParties are words naming every regulated entity.
	allParties = regexp.MustCompile(`\b(every entity|all regulated|regulated entit(?:y|ies)|every digital payment|every operator|banks|lenders|intermediaries)\b`)
	// The kind of an obligation, first match wins (a bar before a report).
	kindRes = []struct {
		kind string
		re   *regexp.Regexp
	}{
		{"deadline-extension", regexp.MustCompile(`\b(extension|extended|extends the (?:deadline|timeline))\b`)},
		{"repeal", regexp.MustCompile(`\b(repeal(?:ed|s)?|withdr[ae]w(?:n)?|rescind(?:ed)?)\b`)},
		{"prohibition", regexp.MustCompile(`\b(may not|must not|shall not|should not|cannot|can no longer|no longer|not permitted|prohibit\w*|bar(?:s|red)?|stop|declined?|reject)\b`)},
		{"reporting", regexp.MustCompile(`\b(report(?:s|ing)?|submit|furnish|publish|disclose|notify|undertaking|inform)\b`)},
		{"amendment", regexp.MustCompile(`\b(amend\w*|revis\w*|raised|increased|updated)\b`)},
	}
	// deadlineLead is a word that makes the value after it a deadline:
	// by, within, on or before, with effect from, not later than, from.
	deadlineLead = regexp.MustCompile(`(?i)(?:\bby|\bwithin|\bon or before|\bwith effect from|\bw\.e\.f\.?|\bnot later than|\bno later than|\bfrom|\buntil|\btill|\bbefore|\bapply from|\bon)\s+(?:the\s+)?$`)
)

// ExtractObligations finds the obligations of req.Circular's text by
// rules: each sentence stating a duty or a bar, with the parties it
// names (the circular's entity types when it names none), its kind, and
// its deadline (a date after by, within, on or before, with effect from,
// not later than; a period kept as stated).
func (p *Provider) ExtractObligations(ctx context.Context, req ai.ObligationRequest) ([]catalog.Obligation, error) {
	c := req.Circular
	if strings.TrimSpace(c.Content) == "" {
		return nil, ai.ErrNoText
	}
	var out []catalog.Obligation
	for _, s := range Sentences(c.Content) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		lower := strings.ToLower(s)
		if !dutyRe.MatchString(lower) || aboutDocument.MatchString(lower) {
			continue
		}
		// The text's own spelling (the splitter writes typographic quotes).
		if start, end, ok := catalog.LocateBytes(c.Content, s); ok {
			s = strings.Join(strings.Fields(c.Content[start:end]), " ")
		}
		o := catalog.Obligation{
			Provider:   ai.ProviderLocal,
			Model:      ModelObligations,
			AppliesTo:  parties(lower, c),
			What:       s,
			Kind:       obligationKind(lower),
			SourceText: s,
		}
		o.DueDate, o.Deadline = deadlineOf(s)
		out = append(out, o)
	}
	return out, nil
}

// parties are the entity types sentence s names; else every one when it
// names all regulated entities (or banks, lenders, intermediaries); else
// the types the circular's editors rated it for.
func parties(s string, c catalog.Circular) catalog.TextList {
	var out catalog.TextList
	for _, t := range catalog.EntityTypes {
		if partyRes[t].MatchString(s) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return out
	}
	if allParties.MatchString(s) {
		return catalog.TextList{catalog.AllEntities}
	}
	for _, ei := range c.EntityImpact {
		if ei.ImpactLevel != "low" {
			out = append(out, ei.EntityType)
		}
	}
	if len(out) == 0 {
		return catalog.TextList{catalog.AllEntities}
	}
	return out
}

func obligationKind(s string) string {
	for _, k := range kindRes {
		if k.re.MatchString(s) {
			return k.kind
		}
	}
	return "new-requirement"
}

// deadlineOf is the first deadline sentence s sets: a full date after a
// deadline's lead word (also the due date), or a period after "within"
// kept as stated with the words that say of what ("within 10 working
// days of the notice").
func deadlineOf(s string) (*catalog.Date, catalog.OptString) {
	for _, v := range search.Figures(s) {
		lead := deadlineLead.FindString(s[:v.Start])
		if lead == "" {
			continue
		}
		phrase := strings.TrimSpace(s[v.Start-len(lead) : v.End])
		switch v.Kind {
		case search.ValueDate:
			for _, k := range v.Keys {
				if d, ok := strings.CutPrefix(k, "date:"); ok {
					var date catalog.Date
					if date.UnmarshalText([]byte(d)) == nil {
						return &date, catalog.OptString(phrase)
					}
				}
			}
		case search.ValueDuration:
			if !strings.HasPrefix(strings.ToLower(lead), "within") {
				continue
			}
			return nil, catalog.OptString(phrase + clauseOf(s[v.End:]))
		}
	}
	return nil, ""
}

// clauseOf is the start of rest up to the clause's end ("of the event"),
// at most eight words.
func clauseOf(rest string) string {
	if !strings.HasPrefix(rest, " of ") && !strings.HasPrefix(rest, " from ") && !strings.HasPrefix(rest, " after ") {
		return ""
	}
	end := strings.IndexAny(rest, ",;.:")
	if end < 0 {
		end = len(rest)
	}
	words := strings.Fields(rest[:end])
	return " " + strings.Join(words[:min(len(words), 8)], " ")
}
