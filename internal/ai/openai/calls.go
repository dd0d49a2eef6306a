package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
	"regpulse/internal/impact"
	"regpulse/internal/search"
)

// Summary bounds, as the local provider's: a card's summary block.
const (
	summarySentences = 3
	summaryWords     = 90
)

// Summarize summarises req.Text; a text longer than ChunkChars is
// summarised part by part and the parts' summaries combined.
func (p *Provider) Summarize(ctx context.Context, req ai.SummaryRequest) (catalog.GeneratedSummary, error) {
	text, err := p.condense(ctx, req.Title, req.Text)
	if err != nil {
		return catalog.GeneratedSummary{}, err
	}
	file := "summarize.txt"
	if text != req.Text {
		file = "summarize_parts.txt"
	}
	out, err := p.chat(ctx, prompt(file, map[string]any{
		"Title": req.Title, "Text": text, "Sentences": summarySentences, "Words": summaryWords, "Lang": req.Lang,
	}), req.Correction, nil)
	if err != nil {
		return catalog.GeneratedSummary{}, err
	}
	out = strings.TrimSpace(out)
	if out == "" {
		return catalog.GeneratedSummary{}, fmt.Errorf("%w: empty summary", ai.ErrMalformed)
	}
	return catalog.GeneratedSummary{Summary: out, Provider: p.name, Model: p.cfg.Model}, nil
}

// condense is text when it fits one request, otherwise the summaries of
// its parts (the map step), one paragraph each.
func (p *Provider) condense(ctx context.Context, title, text string) (string, error) {
	if len(text) <= p.cfg.ChunkChars {
		return text, nil
	}
	parts := chunks(text, p.cfg.ChunkChars)
	sums := make([]string, len(parts))
	for i, part := range parts {
		out, err := p.chat(ctx, prompt("summarize_chunk.txt", map[string]any{
			"Title": title, "Text": part, "Part": i + 1, "Parts": len(parts), "Sentences": summarySentences,
		}), "", nil)
		if err != nil {
			return "", fmt.Errorf("part %d of %d: %w", i+1, len(parts), err)
		}
		sums[i] = strings.TrimSpace(out)
	}
	return strings.Join(sums, "\n\n"), nil
}

// jsonSchema is a JSON Schema as the API takes it.
type jsonSchema map[string]any

func (s jsonSchema) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]any(s)) }

var impactSchema = &goopenai.ChatCompletionResponseFormatJSONSchema{
	Name:   "impact_analysis",
	Strict: true,
	Schema: jsonSchema{
		"type": "object",
		"properties": map[string]any{
			"impactLevel": map[string]any{"type": "string", "enum": catalog.ImpactLevels},
			"reasons":     map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "minItems": 1, "maxItems": 5},
		},
		"required":             []string{"impactLevel", "reasons"},
		"additionalProperties": false,
	},
}

var answerSchema = &goopenai.ChatCompletionResponseFormatJSONSchema{
	Name:   "direct_answer",
	Strict: true,
	Schema: jsonSchema{
		"type": "object",
		"properties": map[string]any{
			"answer":    map[string]any{"type": "string"},
			"citations": map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "minItems": 1},
		},
		"required":             []string{"answer", "citations"},
		"additionalProperties": false,
	},
}

// structured asks for JSON, decodes it into v and validates it; a
// malformed answer is asked for once more, naming the fault, then is
// ai.ErrMalformed.
func structured[T any](ctx context.Context, p *Provider, user, correction string,
	schema *goopenai.ChatCompletionResponseFormatJSONSchema, validate func(*T) error) (T, error) {
	var v T
	for attempt := 0; ; attempt++ {
		out, err := p.chat(ctx, user, correction, schema)
		if err != nil {
			return v, err
		}
		v = *new(T)
		dec := json.NewDecoder(strings.NewReader(jsonPart(out)))
		dec.DisallowUnknownFields()
		fault := dec.Decode(&v)
		if fault == nil {
			fault = validate(&v)
		}
		if fault == nil {
			return v, nil
		}
		if attempt == 1 {
			return v, fmt.Errorf("%w: %v", ai.ErrMalformed, fault)
		}
		correction = strings.TrimSpace(correction + "\n" + fmt.Sprintf(
			"Your previous answer could not be used (%v). Answer with one JSON object of the requested shape only.", fault))
	}
}

// jsonPart is the JSON object in a model's answer, without the code fence
// some models wrap it in.
func jsonPart(s string) string {
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		return s[i : j+1]
	}
	return s
}

// AnalyzeImpact rates req.Circular's impact on req.EntityType.
func (p *Provider) AnalyzeImpact(ctx context.Context, req ai.ImpactRequest) (catalog.ImpactAnalysis, error) {
	text, err := p.condense(ctx, req.Circular.Title, req.Circular.Content)
	if err != nil {
		return catalog.ImpactAnalysis{}, err
	}
	c := req.Circular
	c.Content = text
	type result struct {
		ImpactLevel string   `json:"impactLevel"`
		Reasons     []string `json:"reasons"`
	}
	r, err := structured(ctx, p, prompt("impact.txt", map[string]any{
		"EntityType": req.EntityType, "EntityName": impact.DisplayName(req.EntityType), "Lang": req.Lang,
		"Text": ai.CircularSource(c) + "\nDocument type: " + catalog.DocumentTypeLabel(c.DocumentType),
	}), req.Correction, impactSchema, func(r *result) error {
		if !slices.Contains(catalog.ImpactLevels, r.ImpactLevel) {
			return fmt.Errorf("impactLevel %q is not high, medium or low", r.ImpactLevel)
		}
		if len(r.Reasons) == 0 || len(r.Reasons) > 5 || slices.ContainsFunc(r.Reasons, func(s string) bool { return strings.TrimSpace(s) == "" }) {
			return errors.New("reasons must be 1 to 5 non-empty sentences")
		}
		return nil
	})
	if err != nil {
		return catalog.ImpactAnalysis{}, err
	}
	return catalog.ImpactAnalysis{ImpactLevel: r.ImpactLevel, Reasons: r.Reasons, Provider: p.name, Model: p.cfg.Model}, nil
}

// asks says, by the kind of fact a question asks for (search.AnswerTypes),
// what the model is told to state.
var asks = map[string]string{
	search.AnswerDate:       "a date (or a time)",
	search.AnswerAmount:     "an amount or a limit",
	search.AnswerDuration:   "a duration or a time limit",
	search.AnswerCount:      "a number of things",
	search.AnswerYesNo:      "yes or no: whether something is allowed, required or barred, and on what condition",
	search.AnswerWho:        "who: the entities concerned",
	search.AnswerDefinition: "what something is",
}

// Answer answers req.Question from req.Passages, citing them by number;
// each passage's text is cut so that all of them fit one request.
func (p *Provider) Answer(ctx context.Context, req ai.AnswerRequest) (ai.Answer, error) {
	if len(req.Passages) == 0 {
		return ai.Answer{}, ai.ErrNoText
	}
	per := p.cfg.ChunkChars / len(req.Passages)
	passages := slices.Clone(req.Passages)
	for i := range passages {
		passages[i].Text = prefix(passages[i].Text, per)
	}
	type result struct {
		Answer    string `json:"answer"`
		Citations []int  `json:"citations"`
	}
	r, err := structured(ctx, p, prompt("answer.txt", map[string]any{"Question": req.Question, "Asks": asks[req.Asks], "Passages": passages}),
		req.Correction, answerSchema, func(r *result) error {
			if strings.TrimSpace(r.Answer) == "" {
				return errors.New("the answer is empty")
			}
			if len(r.Citations) == 0 {
				return errors.New("no passage is cited")
			}
			for _, n := range r.Citations {
				if n < 1 || n > len(passages) {
					return fmt.Errorf("citation %d names no passage (1 to %d)", n, len(passages))
				}
			}
			return nil
		})
	if err != nil {
		return ai.Answer{}, err
	}
	a := ai.Answer{Answer: strings.TrimSpace(r.Answer), Citations: []string{}, Provider: p.name, Model: p.cfg.Model}
	for _, n := range r.Citations {
		if id := passages[n-1].CircularID; !slices.Contains(a.Citations, id) {
			a.Citations = append(a.Citations, id)
		}
	}
	return a, nil
}

var obligationsSchema = &goopenai.ChatCompletionResponseFormatJSONSchema{
	Name:   "obligations",
	Strict: true,
	Schema: jsonSchema{
		"type": "object",
		"properties": map[string]any{
			"obligations": map[string]any{"type": "array", "items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"appliesTo": map[string]any{"type": "array", "items": map[string]any{"type": "string", "enum": catalog.ObligationParties}, "minItems": 1},
					"what":      map[string]any{"type": "string"},
					"kind":      map[string]any{"type": "string", "enum": catalog.ObligationKinds},
					"deadline":  map[string]any{"type": "string"},
					"dueDate":   map[string]any{"type": "string"},
					"source":    map[string]any{"type": "string"},
				},
				"required":             []string{"appliesTo", "what", "kind", "deadline", "dueDate", "source"},
				"additionalProperties": false,
			}},
		},
		"required":             []string{"obligations"},
		"additionalProperties": false,
	},
}

// ExtractObligations asks the model for req.Circular's obligations as
// JSON of obligationsSchema, validated (known parties and kinds, a due
// date that is a date, a what and a source); the Service then holds each
// to its source sentence (ai.CheckObligations).
func (p *Provider) ExtractObligations(ctx context.Context, req ai.ObligationRequest) ([]catalog.Obligation, error) {
	text, err := p.condense(ctx, req.Circular.Title, req.Circular.Content)
	if err != nil {
		return nil, err
	}
	if text != req.Circular.Content {
		// A condensed text holds no sentence of the circular to quote.
		return nil, fmt.Errorf("%w: the circular is too long to extract obligations from in one request", ai.ErrRejected)
	}
	type item struct {
		AppliesTo []string `json:"appliesTo"`
		What      string   `json:"what"`
		Kind      string   `json:"kind"`
		Deadline  string   `json:"deadline"`
		DueDate   string   `json:"dueDate"`
		Source    string   `json:"source"`
	}
	type result struct {
		Obligations []item `json:"obligations"`
	}
	r, err := structured(ctx, p, prompt("obligations.txt", map[string]any{
		"Parties": strings.Join(catalog.ObligationParties, ", "), "Kinds": strings.Join(catalog.ObligationKinds, ", "),
		"Text": text,
	}), req.Correction, obligationsSchema, func(r *result) error {
		for i, o := range r.Obligations {
			switch {
			case strings.TrimSpace(o.What) == "" || strings.TrimSpace(o.Source) == "":
				return fmt.Errorf("obligation %d has no what or no source", i+1)
			case !slices.Contains(catalog.ObligationKinds, o.Kind):
				return fmt.Errorf("obligation %d: kind %q is not one of %s", i+1, o.Kind, strings.Join(catalog.ObligationKinds, ", "))
			case len(o.AppliesTo) == 0 || slices.ContainsFunc(o.AppliesTo, func(s string) bool { return !slices.Contains(catalog.ObligationParties, s) }):
				return fmt.Errorf("obligation %d: appliesTo must name %s", i+1, strings.Join(catalog.ObligationParties, ", "))
			case o.DueDate != "":
				var d catalog.Date
				if err := d.UnmarshalText([]byte(o.DueDate)); err != nil {
					return fmt.Errorf("obligation %d: dueDate %q is not YYYY-MM-DD", i+1, o.DueDate)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]catalog.Obligation, 0, len(r.Obligations))
	for _, o := range r.Obligations {
		ob := catalog.Obligation{AppliesTo: o.AppliesTo, What: strings.TrimSpace(o.What), Kind: o.Kind,
			Deadline: catalog.OptString(strings.TrimSpace(o.Deadline)), SourceText: o.Source,
			Provider: catalog.OptString(p.name), Model: catalog.OptString(p.cfg.Model)}
		if o.DueDate != "" {
			var d catalog.Date
			_ = d.UnmarshalText([]byte(o.DueDate)) // validated above
			ob.DueDate = &d
		}
		out = append(out, ob)
	}
	return out, nil
}
