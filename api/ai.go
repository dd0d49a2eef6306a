package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/singleflight"

	"regpulse/api/apispec"
	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/catalog"
	"regpulse/internal/indian"
	"regpulse/internal/search"
)

// aiRoutes: the AI calls, sharing one rate limit.
func aiRoutes() []*route {
	return []*route{
		limited(aiLimit, handle(opSummarizeCircular, func(h *Handler, w http.ResponseWriter, r *http.Request, in aiCircularIn) {
			h.summarizeCircular(w, r, in.ID, in.Lang)
		})),
		limited(aiLimit, handle(opAnalyzeImpact, func(h *Handler, w http.ResponseWriter, r *http.Request, in aiCircularIn) {
			h.analyzeImpact(w, r, in.ID, in.Lang)
		})),
		limited(aiLimit, handle(opSummarizeText, func(h *Handler, w http.ResponseWriter, r *http.Request, in aiLangIn) { h.summarizeText(w, r, in.Lang) })),
	}
}

// aiParams are the AI calls' own parameters: the language of the answer.
var aiParams = map[string]*apispec.Param{
	"AILang": {Component: "AILang", Name: "lang", In: "query",
		Description: "The language to answer in: the page's (en or hi; default en). With a language model configured, the model is asked to write the summary or the impact's reasons in it; " +
			"the local summariser answers with sentences of the text itself, in the text's language (it splits Hindi text at the danda). " +
			"A circular's summary or analysis asked for in Hindi from a model is answered but not stored: the stored one stays English.",
		Schema: apispec.Schema{Type: "string", Enum: ai.Langs, Default: ai.LangEnglish}},
}

type (
	aiLangIn struct {
		Lang string `param:"AILang"`
	}
	aiCircularIn struct {
		circularIn
		aiLangIn
	}
)

// aiStores reports whether a circular's summary or analysis made for lang
// is stored: an English one always; a Hindi one only from the local
// provider, whose answer is the same in either language (sentences of the
// text), so a model's Hindi never replaces the English readers see.
func (h *Handler) aiStores(lang string) bool {
	return lang != ai.LangHindi || !h.ai.svc.HasModel()
}

// aiLimit is the AI calls' shared limit: one limiter, built once per
// Handler.
func aiLimit(h *Handler) func(http.Handler) http.Handler { return h.ai.limit }

var rAIPayloadTooLarge = &apispec.Response{Component: "AIPayloadTooLarge", Description: "The body, or the text to summarise, is over its limit; the message says the limit.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}
var rAITooManyRequests = &apispec.Response{Component: "AITooManyRequests", Description: "The client made more AI calls than its rate limit allows (20 a minute by default, shared by the AI calls); Retry-After says when to try again.",
	Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}}

var opSummarizeCircular = &apispec.Operation{ID: "summarizeCircular", Method: "POST", Path: "/circulars/{id}/summarize",
	Summary:     "Summarise a circular and store the summary.",
	Description: "Summarises the circular with the configured model (behind the invention guard) or, without one, the local extractive summariser, and stores the result as the circular's aiSummary (provider, model and time included), beside the editors' summary, which is never replaced. Kept across catalog syncs. Concurrent calls for one circular share one piece of work. Takes no body (or an empty JSON object).",
	Responses: []*apispec.Response{
		{Status: 200, Description: "The circular with its new aiSummary.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.Circular]()}}},
		rBadBody.At(400),
		rNotFound.At(404),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

var opAnalyzeImpact = &apispec.Operation{ID: "analyzeImpact", Method: "POST", Path: "/circulars/{id}/impact",
	Summary:     "Analyse a circular's impact on one entity type and store it.",
	Description: "Rates how hard the circular hits the entity type (high, medium or low) with the reasons, each from the circular's text. The local provider takes the editors' rating for the type when the circular has one, otherwise rules over the text (obligations, deadlines, the entity types and instruments named). Stored per circular and entity type.",
	Body:        &apispec.Body{Description: "The entity type to analyse for.", Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[ImpactRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The analysis.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.ImpactAnalysis]()}}},
		rBadBody.At(400),
		rNotFound.At(404),
		rAIPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

var opSummarizeText = &apispec.Operation{ID: "summarizeText", Method: "POST", Path: "/ai/summarize",
	Summary:     "Summarise pasted text (not stored).",
	Description: "Summarises the content (plain text or Markdown, trimmed; at most 100,000 characters by default).",
	Body:        &apispec.Body{Description: "The text to summarise.", Required: true, Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[SummarizeRequest]()}}},
	Responses: []*apispec.Response{
		{Status: 200, Description: "The summary, with the provider and model that made it.",
			Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[catalog.GeneratedSummary]()}}},
		rBadBody.At(400),
		rAIPayloadTooLarge.At(413),
		rUnsupportedMediaType.At(415),
		rAITooManyRequests.At(429),
		rInternalError.At(500)},
}

// AI is what the AI calls need: *ai.Service.
type AI interface {
	Summarize(ctx context.Context, req ai.SummaryRequest) (catalog.GeneratedSummary, error)
	AnalyzeImpact(ctx context.Context, req ai.ImpactRequest) (catalog.ImpactAnalysis, error)
	Answer(ctx context.Context, req ai.AnswerRequest) (ai.Answer, error)
	// HasModel reports whether a language model is configured.
	HasModel() bool
}

// AIResults is what the AI calls keep in persistence: PutCircularSummary
// and PutImpactAnalysis keep what they made (catalog.ErrNotFound for an
// unknown circular).
type AIResults interface {
	PutCircularSummary(ctx context.Context, circularID string, s catalog.GeneratedSummary) error
	PutImpactAnalysis(ctx context.Context, a catalog.ImpactAnalysis) error
}

// AIConfig configures the AI calls (WithAI).
type AIConfig struct {
	// Service does the work; nil is the local provider alone.
	Service AI
	// RateLimit calls per RateWindow are allowed to each client across
	// the AI calls, so that a paid model's bill stays bounded (defaults:
	// 20 per minute).
	RateLimit  int
	RateWindow time.Duration
	// MaxContent is the most characters POST /ai/summarize takes
	// (default 100,000).
	MaxContent int
}

// WithAI configures the AI calls.
func WithAI(c AIConfig) Option { return func(h *Handler) { h.aiCfg = c } }

// aiWorkTimeout bounds the work one summary or analysis may take; it runs
// apart from the request that started it (see shared).
const aiWorkTimeout = 3 * time.Minute

// aiCalls are the AI calls' state: the service and the work under way.
type aiCalls struct {
	svc      AI
	max      int
	inFlight singleflight.Group
	limit    func(http.Handler) http.Handler // every AI call's, shared
}

// initAI sets up the AI calls: the configured service (by default the
// local one), their limits and their shared rate limit.
func (h *Handler) initAI() {
	c := h.aiCfg
	if c.Service == nil {
		c.Service = ai.NewService(nil, local.New(), ai.WithLogger(h.log), ai.WithNow(h.now))
	}
	if c.RateLimit <= 0 {
		c.RateLimit = 20
	}
	if c.RateWindow <= 0 {
		c.RateWindow = time.Minute
	}
	if c.MaxContent <= 0 {
		c.MaxContent = 100_000
	}
	h.ai = &aiCalls{svc: c.Service, max: c.MaxContent,
		limit: h.rateLimit("ai", c.RateLimit, c.RateWindow, fmt.Sprintf("too many AI requests: at most %d per %v; try again later", c.RateLimit, c.RateWindow))}
}

// summarizeCircular is POST /circulars/{id}/summarize: it summarises the
// circular, stores the summary beside the editors' and answers with the
// circular as lists show it now.
func (h *Handler) summarizeCircular(w http.ResponseWriter, r *http.Request, id, lang string) {
	aboutCircular(h, w, r, id, "summary "+lang, func(ctx context.Context, c catalog.Circular) (catalog.Circular, error) {
		sum, err := h.ai.svc.Summarize(ctx, ai.SummaryRequest{Title: c.Title, Text: c.Content, Lang: lang})
		if err != nil {
			return c, err
		}
		if !h.aiStores(lang) {
			c.AISummary = &sum
			return c, nil
		}
		if err := h.store.PutCircularSummary(ctx, c.ID, sum); err != nil {
			return c, err
		}
		c.AISummary = &sum
		return c, nil
	})
}

// ImpactRequest is POST /circulars/{id}/impact's body.
type ImpactRequest struct {
	EntityType string `json:"entityType"`
}

// analyzeImpact is POST /circulars/{id}/impact: the circular's impact on
// one entity type, stored per circular and type.
func (h *Handler) analyzeImpact(w http.ResponseWriter, r *http.Request, id, lang string) {
	var body ImpactRequest
	if err := decodeBodyLimit(w, r, &body, 1<<10); err != nil {
		h.writeError(w, r, err)
		return
	}
	i := slices.IndexFunc(catalog.EntityTypes, func(t string) bool { return strings.EqualFold(t, body.EntityType) })
	if i < 0 {
		h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: "invalid entityType",
			Fields: map[string]string{"entityType": "must be one of " + strings.Join(catalog.EntityTypes, ", ")}})
		return
	}
	entityType := catalog.EntityTypes[i]
	aboutCircular(h, w, r, id, "impact "+entityType+" "+lang, func(ctx context.Context, c catalog.Circular) (catalog.ImpactAnalysis, error) {
		a, err := h.ai.svc.AnalyzeImpact(ctx, ai.ImpactRequest{Circular: c, EntityType: entityType, Lang: lang})
		if err != nil || !h.aiStores(lang) {
			return a, err
		}
		return a, h.store.PutImpactAnalysis(ctx, a)
	})
}

// aboutCircular answers a call about the circular {id}: 404 when there is
// none, else work's result, the work done once for all concurrent calls
// of the same kind about the circular (shared).
func aboutCircular[T any](h *Handler, w http.ResponseWriter, r *http.Request, id, kind string, work func(context.Context, catalog.Circular) (T, error)) {
	c, ok := h.circular(w, r, id)
	if !ok {
		return
	}
	v, err := shared(r.Context(), &h.ai.inFlight, kind+" "+id, func(ctx context.Context) (T, error) { return work(ctx, c) })
	if err != nil {
		h.writeError(w, r, aiError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// SummarizeRequest is POST /ai/summarize's body.
type SummarizeRequest struct {
	Content string `json:"content"`
}

// summarizeText is POST /ai/summarize: a summary of pasted text, not stored.
func (h *Handler) summarizeText(w http.ResponseWriter, r *http.Request, lang string) {
	var body SummarizeRequest
	// JSON may spell a character in up to 12 bytes (a surrogate pair of
	// \u escapes); the character count is checked after decoding.
	tooLong := &Error{Status: http.StatusRequestEntityTooLarge,
		Message: fmt.Sprintf("The text is too long to summarise: at most %s characters.", indian.Int(h.ai.max)),
		Fields:  map[string]string{"content": fmt.Sprintf("at most %s characters", indian.Int(h.ai.max))}}
	if err := decodeBodyLimit(w, r, &body, int64(12*h.ai.max+1024)); err != nil {
		var e *Error
		if errors.As(err, &e) && e.Status == http.StatusRequestEntityTooLarge {
			err = tooLong
		}
		h.writeError(w, r, err)
		return
	}
	content := strings.TrimSpace(body.Content)
	switch {
	case content == "":
		h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: "content is required",
			Fields: map[string]string{"content": "Paste the text to summarise"}})
		return
	case utf8.RuneCountInString(content) > h.ai.max:
		h.writeError(w, r, tooLong)
		return
	}
	sum, err := h.ai.svc.Summarize(r.Context(), ai.SummaryRequest{Text: content, Lang: lang})
	if err != nil {
		h.writeError(w, r, aiError(err))
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

// modelAnswer is the configured model's answer to question from passages
// (the search's retrieved circulars, best first), citing only them; asks
// is the kind of fact the question asks for. ok is false when there is no
// model or it gave no usable answer (it failed, or invented values twice,
// and the service answered locally): the caller keeps its own extractive
// answer, so a model failure never becomes an error. This is the seam of
// GET /search's direct answer.
func (h *Handler) modelAnswer(ctx context.Context, question, asks string, passages []ai.Passage) (a ai.Answer, ok bool) {
	if !h.ai.svc.HasModel() || len(passages) == 0 {
		return a, false
	}
	a, err := h.ai.svc.Answer(ctx, ai.AnswerRequest{Question: question, Asks: asks, Passages: passages})
	if err != nil || a.Provider == ai.ProviderLocal {
		return a, false
	}
	return a, true
}

// withModelAnswer has the configured model write res's direct answer from
// the sentences the extraction chose of each retrieved circular (each
// source's Passage), citing only them; the sources become the cited ones
// and the confidence stays retrieval's. The model is held to the same
// facts as the extraction: the invention guard refuses values the
// passages do not state, and when the extraction found the asked fact (a
// date, an amount...) the model's answer must state it too, where it is
// then marked. Otherwise the extractive answer stays, and ModelFallback
// says why: one quoting the circular with the fact is worth more to a
// professional than fluent words without it, and the card shows one
// answer, not two to weigh. Retrieval that found no answer good enough
// stays without one; with no model the extractive answer stays as it is.
// An answer drawn from a Master Direction's provision in force stays the
// provision's own words: the model writes from circulars, and the rule
// in force is what the answer cites.
func (h *Handler) withModelAnswer(ctx context.Context, question string, res *search.Response) {
	a := &res.Answer
	if a.DirectAnswer == "" || a.Provision != nil || len(a.Sources) == 0 || !h.ai.svc.HasModel() {
		return
	}
	passages := make([]ai.Passage, len(a.Sources))
	for i, s := range a.Sources {
		text := s.Passage
		if text == "" {
			text = s.RelevantExcerpt
		}
		passages[i] = ai.Passage{CircularID: s.CircularID, Source: s.Source, Title: s.Title, Text: text, OfficialURL: string(s.OfficialURL)}
	}
	m, ok := h.modelAnswer(ctx, question, string(a.AnswerType), passages)
	if !ok {
		a.ModelFallback = search.FallbackNoAnswer
		return
	}
	var fact *search.Fact
	if a.Fact != nil {
		f, found := search.Locate(m.Answer, *a.Fact)
		if !found {
			h.log.Info("search: the model's answer lacks the fact the circulars state; showing theirs",
				"question", question, "fact", a.Fact.Text, "model", m.Model)
			a.ModelFallback = search.FallbackMissingFact
			return
		}
		fact = &f
	}
	var cited catalog.List[search.Source]
	for _, id := range m.Citations {
		if i := slices.IndexFunc(a.Sources, func(s search.Source) bool { return s.CircularID == id }); i >= 0 {
			cited = append(cited, a.Sources[i])
		}
	}
	a.DirectAnswer, a.Sources, a.Method, a.Model, a.Fact = catalog.OptString(m.Answer), cited, search.MethodModel, catalog.OptString(m.Model), fact
}

// aiError maps what the AI service answers to the client's error.
func aiError(err error) error {
	switch {
	case errors.Is(err, ai.ErrNoText):
		return errorStatus(http.StatusUnprocessableEntity, "there is no text to work on")
	case errors.Is(err, context.DeadlineExceeded):
		return errorStatus(http.StatusGatewayTimeout, "the AI did not answer in time; try again")
	}
	return err
}

// shared runs work once for all concurrent requests with the same key and
// gives each its result. The work runs apart from any one request's
// context (bounded by aiWorkTimeout), so a client that leaves neither
// cancels the others' answer nor wastes a paid model's work, which is
// stored anyway; each request still stops waiting when it ends.
func shared[T any](ctx context.Context, g *singleflight.Group, key string, work func(context.Context) (T, error)) (T, error) {
	ch := g.DoChan(key, func() (any, error) {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), aiWorkTimeout)
		defer cancel()
		return work(wctx)
	})
	select {
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	case res := <-ch:
		v, _ := res.Val.(T)
		return v, res.Err
	}
}
