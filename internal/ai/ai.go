// Package ai is the portal's AI: a circular's summary, its impact on one
// entity type, and a direct answer to a search from the circulars it
// retrieved. A Provider does the work: the local one (internal/ai/local:
// extractive, no model, no network) or any OpenAI-compatible model
// (internal/ai/openai). Service puts a model behind the invention guard
// (guard.go) and falls back to the local provider whenever the model fails
// or states a number or date its source does not, so an answer is always
// given and never invents a figure.
package ai

import (
	"context"
	"errors"

	"regpulse/internal/catalog"
)

// ProviderLocal is the Provider name of the local, extractive provider.
const ProviderLocal = "local"

// Provider does the AI work. Results name the provider and model that made
// them; a provider leaves GeneratedAt and CircularID to the Service.
type Provider interface {
	Summarize(ctx context.Context, req SummaryRequest) (catalog.GeneratedSummary, error)
	AnalyzeImpact(ctx context.Context, req ImpactRequest) (catalog.ImpactAnalysis, error)
	Answer(ctx context.Context, req AnswerRequest) (Answer, error)
}

// SummaryRequest asks for a summary of Text (Markdown or plain text).
type SummaryRequest struct {
	Title string // optional; a hint of what matters
	Text  string
	// Correction says what was wrong with the provider's previous answer
	// to the same request ("" the first time); a model is told it.
	Correction string
	// Lang is the language the answer is for (LangEnglish or LangHindi;
	// "" is English): a model is asked to write in it. The local provider
	// answers with sentences of the text, in the text's own language.
	Lang string
}

// ImpactRequest asks how hard Circular hits EntityType (one of
// catalog.EntityTypes).
type ImpactRequest struct {
	Circular   catalog.Circular
	EntityType string
	Correction string
	// Lang is the language the reasons are for, as SummaryRequest's.
	Lang string
}

// The languages an answer may be asked for in (the site's: en, hi).
const (
	LangEnglish = "en"
	LangHindi   = "hi"
)

// Langs are the languages an answer may be asked for in.
var Langs = []string{LangEnglish, LangHindi}

// Passage is one retrieved circular's text that an answer may cite.
type Passage struct {
	CircularID  string `json:"circularId"`
	Source      string `json:"source"`
	Title       string `json:"title"`
	Text        string `json:"text"`
	OfficialURL string `json:"officialUrl"`
}

// AnswerRequest asks for an answer to Question from Passages, best first.
type AnswerRequest struct {
	Question string
	// Asks is the kind of fact the question asks for (one of
	// search.AnswerTypes; "" when none): a model is told to state it.
	Asks       string
	Passages   []Passage
	Correction string
}

// Answer is a direct answer with the circulars it cites, each one of the
// request's passages.
type Answer struct {
	Answer    string   `json:"answer"`
	Citations []string `json:"citations"` // circular ids
	Provider  string   `json:"provider"`
	Model     string   `json:"model"`
}

var (
	// ErrNoText is a request with nothing to work on.
	ErrNoText = errors.New("ai: no text")
	// ErrNoAnswer is a question the passages do not answer (the local
	// provider's: no sentence states what is asked).
	ErrNoAnswer = errors.New("ai: the passages do not answer the question")
	// ErrMalformed is a model answer that is not what was asked for (bad
	// JSON, an unknown level, a citation of no passage), after one retry.
	ErrMalformed = errors.New("ai: malformed model answer")
	// ErrUnavailable is a model that did not answer: a network failure, a
	// timeout, 429 or 5xx after the retries.
	ErrUnavailable = errors.New("ai: model unavailable")
	// ErrRejected is a request the model refused: a bad key (401, 403), an
	// unknown model (404), a request it cannot take (400, 413, 422).
	ErrRejected = errors.New("ai: model rejected the request")
)
