package ai

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"regpulse/internal/catalog"
)

// ObligationRequest asks for the obligations of Circular's text.
type ObligationRequest struct {
	Circular   catalog.Circular
	Correction string
}

// ObligationExtractor proposes a circular's obligations: who, what, kind,
// deadline and the sentence of its text each comes from. Both providers
// are one; the Service checks what they propose.
type ObligationExtractor interface {
	ExtractObligations(ctx context.Context, req ObligationRequest) ([]catalog.Obligation, error)
}

// ExtractObligations proposes the obligations of req.Circular, each
// checked: its source sentence must be one of the circular's text (its
// offsets are set from it), its kind and parties known, and its what and
// deadline may state no date, amount or period the source sentence does
// not (the invention guard, sentence by sentence). A model's answer with
// a faulty obligation is asked for once more, naming the fault, then the
// local rules answer; the local rules' own faulty ones are dropped. The
// results carry ids, positions, origin "extracted", the provider and
// model, binding from the document type, and the circular's names.
func (s *Service) ExtractObligations(ctx context.Context, req ObligationRequest) ([]catalog.Obligation, error) {
	c := req.Circular
	if strings.TrimSpace(c.Content) == "" {
		return nil, ErrNoText
	}
	local, ok := s.local.(ObligationExtractor)
	if !ok {
		return nil, fmt.Errorf("ai: the local provider extracts no obligations")
	}
	provider, model := ProviderLocal, "rules"
	if m, ok := s.model.(ObligationExtractor); ok {
		correction := ""
		for attempt := 1; attempt <= 2; attempt++ {
			req.Correction = correction
			obs, err := m.ExtractObligations(ctx, req)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				s.log.Warn("ai: model failed; extracting obligations with the local rules", "err", err)
				break
			}
			kept, faults := CheckObligations(c, obs)
			if len(faults) == 0 {
				s.stats.modelAnswers.Add(1)
				return finishObligations(c, kept, providerOf(obs), modelOf(obs)), nil
			}
			s.stats.inventions.Add(1)
			s.log.Warn("ai: model's obligations rejected", "attempt", attempt, "faults", faults)
			correction = "Your previous answer could not be used: " + strings.Join(faults, "; ") +
				". Quote each source sentence exactly from the text, and state only dates, amounts and periods that sentence states."
		}
		s.stats.fallbacks.Add(1)
	}
	obs, err := local.ExtractObligations(ctx, ObligationRequest{Circular: c})
	if err != nil {
		return nil, err
	}
	if len(obs) > 0 {
		provider, model = providerOf(obs), modelOf(obs)
	}
	kept, faults := CheckObligations(c, obs)
	if len(faults) > 0 {
		s.log.Warn("ai: local obligations dropped", "circular", c.Slug, "faults", faults)
	}
	return finishObligations(c, kept, provider, model), nil
}

// CheckObligations keeps the obligations that pass the checks and says
// what was wrong with the others.
func CheckObligations(c catalog.Circular, obs []catalog.Obligation) (kept []catalog.Obligation, faults []string) {
	for i, o := range obs {
		o.SourceText = strings.Join(strings.Fields(o.SourceText), " ")
		o.What = strings.TrimSpace(o.What)
		start, end, found := catalog.LocateText(c.Content, o.SourceText)
		var fault string
		switch {
		case !found:
			fault = fmt.Sprintf("obligation %d: its source sentence is not in the text", i+1)
		case end-start < 12:
			fault = fmt.Sprintf("obligation %d: its source is not a sentence", i+1)
		case o.What == "":
			fault = fmt.Sprintf("obligation %d: what is empty", i+1)
		case !slices.Contains(catalog.ObligationKinds, o.Kind):
			fault = fmt.Sprintf("obligation %d: unknown kind %q", i+1, o.Kind)
		case len(o.AppliesTo) == 0 || slices.ContainsFunc(o.AppliesTo, func(p string) bool { return !slices.Contains(catalog.ObligationParties, p) }):
			fault = fmt.Sprintf("obligation %d: appliesTo must name %s", i+1, strings.Join(catalog.ObligationParties, ", "))
		default:
			stated := o.What + "\n" + string(o.Deadline)
			if o.DueDate != nil {
				stated += "\n" + o.DueDate.String()
			}
			if missing := Unsupported(stated, o.SourceText); len(missing) > 0 {
				fault = fmt.Sprintf("obligation %d states %s, which its source sentence does not", i+1, quoteList(missing))
			}
		}
		if fault != "" {
			faults = append(faults, fault)
			continue
		}
		// The text's own spelling, so ids and highlights agree with the
		// editors' (the splitter writes typographic quotes).
		o.SourceStart, o.SourceEnd = start, end
		o.SourceText = strings.Join(strings.Fields(catalog.SliceUTF16(c.Content, start, end)), " ")
		kept = append(kept, o)
	}
	return kept, faults
}

// finishObligations stamps what every extracted obligation carries.
func finishObligations(c catalog.Circular, obs []catalog.Obligation, provider, model string) []catalog.Obligation {
	binding := catalog.Binding(c.DocumentType)
	for i := range obs {
		o := &obs[i]
		o.Origin, o.Binding, o.Accepted = catalog.OriginExtracted, binding, false
		o.Provider, o.Model = catalog.OptString(provider), catalog.OptString(model)
		o.CircularSlug, o.CircularTitle, o.Source, o.ImpactLevel = c.Slug, c.Title, c.Source, c.ImpactLevel
	}
	catalog.AssignObligationIDs(c.ID, obs)
	if obs == nil {
		obs = []catalog.Obligation{}
	}
	return obs
}

func providerOf(obs []catalog.Obligation) string {
	if len(obs) > 0 && obs[0].Provider != "" {
		return string(obs[0].Provider)
	}
	return ProviderLocal
}

func modelOf(obs []catalog.Obligation) string {
	if len(obs) > 0 && obs[0].Model != "" {
		return string(obs[0].Model)
	}
	return "rules"
}
