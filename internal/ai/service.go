package ai

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/metrics"
)

// Service is the portal's AI as the API calls it: the configured model
// behind the invention guard, with the local provider as its fallback.
// With no model, the local provider answers everything.
type Service struct {
	model Provider // nil: no model configured
	local Provider
	log   *slog.Logger
	now   func() time.Time
	stats stats
}

// stats counts what the guard and the fallback did for this service
// (Stats); the process's totals go to metrics.AICalls.
type stats struct {
	modelAnswers, inventions, fallbacks atomic.Int64
}

// Stats is a snapshot of a Service's counters.
type Stats struct {
	// ModelAnswers are answers the model gave that were used.
	ModelAnswers int64 `json:"modelAnswers"`
	// Inventions are model answers rejected for stating a value their
	// source does not (each retry's too).
	Inventions int64 `json:"inventions"`
	// Fallbacks are requests the local provider answered instead of the
	// model: after a failure, a malformed answer or a second invention.
	Fallbacks int64 `json:"fallbacks"`
}

// Option configures NewService.
type Option func(*Service)

// WithLogger logs the model's failures to log.
func WithLogger(log *slog.Logger) Option {
	return func(s *Service) {
		if log != nil {
			s.log = log
		}
	}
}

// WithNow reads the time results are stamped with from now.
func WithNow(now func() time.Time) Option {
	return func(s *Service) {
		if now != nil {
			s.now = now
		}
	}
}

// NewService puts model (nil for none) in front of local.
func NewService(model, local Provider, opts ...Option) *Service {
	s := &Service{model: model, local: local, log: slog.Default(), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// HasModel reports whether a model is configured: without one, the
// answers are the local provider's.
func (s *Service) HasModel() bool { return s.model != nil }

// Stats reports the counters.
func (s *Service) Stats() Stats {
	return Stats{
		ModelAnswers: s.stats.modelAnswers.Load(),
		Inventions:   s.stats.inventions.Load(),
		Fallbacks:    s.stats.fallbacks.Load(),
	}
}

// Summarize summarises req.Text.
func (s *Service) Summarize(ctx context.Context, req SummaryRequest) (catalog.GeneratedSummary, error) {
	if strings.TrimSpace(req.Text) == "" {
		return catalog.GeneratedSummary{}, ErrNoText
	}
	r, err := guarded(ctx, s, "summarize", req.Title+"\n"+req.Text,
		func(ctx context.Context, p Provider, correction string) (catalog.GeneratedSummary, error) {
			req.Correction = correction
			return p.Summarize(ctx, req)
		},
		func(r catalog.GeneratedSummary) string { return r.Summary })
	r.GeneratedAt = s.now().UTC().Truncate(time.Second)
	return r, err
}

// AnalyzeImpact analyses req.Circular's impact on req.EntityType.
func (s *Service) AnalyzeImpact(ctx context.Context, req ImpactRequest) (catalog.ImpactAnalysis, error) {
	r, err := guarded(ctx, s, "impact", CircularSource(req.Circular),
		func(ctx context.Context, p Provider, correction string) (catalog.ImpactAnalysis, error) {
			req.Correction = correction
			return p.AnalyzeImpact(ctx, req)
		},
		func(r catalog.ImpactAnalysis) string { return strings.Join(r.Reasons, "\n") })
	r.CircularID = req.Circular.ID
	r.EntityType = req.EntityType
	r.GeneratedAt = s.now().UTC().Truncate(time.Second)
	return r, err
}

// Answer answers req.Question from req.Passages.
func (s *Service) Answer(ctx context.Context, req AnswerRequest) (Answer, error) {
	if len(req.Passages) == 0 || strings.TrimSpace(req.Question) == "" {
		return Answer{}, ErrNoText
	}
	var src strings.Builder
	src.WriteString(req.Question)
	for _, p := range req.Passages {
		fmt.Fprintf(&src, "\n%s\n%s", p.Title, p.Text)
	}
	return guarded(ctx, s, "answer", src.String(),
		func(ctx context.Context, p Provider, correction string) (Answer, error) {
			req.Correction = correction
			return p.Answer(ctx, req)
		},
		func(r Answer) string { return r.Answer })
}

// CircularSource is what a model is told about a circular, and so all an
// analysis of it may state: its number, title, dates, summary and text.
func CircularSource(c catalog.Circular) string {
	var b strings.Builder
	if c.CircularNumber != "" {
		fmt.Fprintf(&b, "Circular number: %s\n", c.CircularNumber)
	}
	fmt.Fprintf(&b, "Title: %s\nIssued by: %s\nPublished: %s\n", c.Title, c.Source, c.PublishedDate.Format(time.DateOnly))
	if c.EffectiveDate != nil {
		fmt.Fprintf(&b, "Effective: %s\n", c.EffectiveDate.Format(time.DateOnly))
	}
	for _, d := range c.ComplianceDates {
		fmt.Fprintf(&b, "Compliance date: %s: %s\n", d.Date.Format(time.DateOnly), d.What)
	}
	if c.Summary != "" {
		fmt.Fprintf(&b, "Summary: %s\n", c.Summary)
	}
	b.WriteString("\n")
	b.WriteString(c.Content)
	return b.String()
}

// guarded runs op on the model, checks the text of its result against
// source, asks once more naming what it invented, and falls back to the
// local provider when the model fails or invents twice. Only the
// request's own cancellation is returned as an error from the model's side.
func guarded[R any](ctx context.Context, s *Service, op, source string,
	run func(ctx context.Context, p Provider, correction string) (R, error), text func(R) string) (R, error) {
	if s.model == nil {
		metrics.AICalls.WithLabelValues(op, "local").Inc()
		return run(ctx, s.local, "")
	}
	correction := ""
	for attempt := 1; attempt <= 2; attempt++ {
		r, err := run(ctx, s.model, correction)
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		if err != nil {
			s.log.Warn("ai: model failed; answering with the local provider", "op", op, "err", err)
			break
		}
		missing := Unsupported(text(r), source)
		if len(missing) == 0 {
			s.stats.modelAnswers.Add(1)
			metrics.AICalls.WithLabelValues(op, "model").Inc()
			return r, nil
		}
		s.stats.inventions.Add(1)
		metrics.AICalls.WithLabelValues(op, "invention").Inc()
		s.log.Warn("ai: model stated values not in the source", "op", op, "attempt", attempt, "values", missing)
		correction = Correction(missing)
	}
	s.stats.fallbacks.Add(1)
	metrics.AICalls.WithLabelValues(op, "fallback").Inc()
	return run(ctx, s.local, "")
}
