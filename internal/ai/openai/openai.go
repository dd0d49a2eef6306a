// Package openai is the AI provider for any OpenAI-compatible chat model
// (OpenAI itself, or Ollama, vLLM, LM Studio and gateways through a base
// URL), with sashabaranov/go-openai. Each attempt has a timeout; 429, 5xx
// and network failures are retried a bounded number of times with
// exponential backoff and jitter; the request's context cancels it all.
// Long texts are summarised in parts and the parts' summaries combined
// (map-reduce), so no request exceeds the model's context. Impact and
// answers are structured JSON, validated; a malformed answer is asked for
// once more, then reported as ai.ErrMalformed, never shown. The prompts
// are the files in prompts/.
package openai

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strings"
	"text/template"
	"time"
	"unicode/utf8"

	goopenai "github.com/sashabaranov/go-openai"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
)

// DefaultModel is used when Config.Model is empty.
const DefaultModel = "gpt-4o-mini"

// Config says which model to use and how patiently.
type Config struct {
	APIKey string
	// BaseURL is the API's root, e.g. http://localhost:11434/v1 for
	// Ollama; "" is OpenAI's.
	BaseURL string
	Model   string
	// Timeout bounds one attempt (default 60s).
	Timeout time.Duration
	// Retries is how many times a 429, 5xx, timeout or network failure is
	// retried (default 2; negative for none).
	Retries int
	// Backoff is the wait before the first retry, doubled for each next
	// one, and half of it drawn at random (default 1s).
	Backoff time.Duration
	// ChunkChars is the most text one request carries (default 12,000
	// characters, about 3,000 tokens); longer texts are split.
	ChunkChars int
	// MaxTokens bounds each answer's length (default 800).
	MaxTokens int
	// HTTPClient, when set, sends the requests (tests).
	HTTPClient *http.Client
}

// Provider is the OpenAI-compatible provider.
type Provider struct {
	client *goopenai.Client
	cfg    Config
	name   string
}

var _ ai.Provider = (*Provider)(nil)

// New returns a provider for cfg, with its defaults filled in.
func New(cfg Config) (*Provider, error) {
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return nil, errors.New("openai: no API key and no base URL")
	}
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.Retries == 0 {
		cfg.Retries = 2
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = time.Second
	}
	if cfg.ChunkChars <= 0 {
		cfg.ChunkChars = 12000
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 800
	}
	c := goopenai.DefaultConfig(cfg.APIKey)
	name := "openai"
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("openai: base URL %q: want an http or https URL", cfg.BaseURL)
		}
		c.BaseURL = strings.TrimSuffix(cfg.BaseURL, "/")
		if u.Host != "api.openai.com" {
			// Another server speaking OpenAI's API: name it, so a reader
			// knows which service wrote a summary.
			name = "openai-compatible " + u.Host
		}
	}
	if cfg.HTTPClient != nil {
		c.HTTPClient = cfg.HTTPClient
	}
	return &Provider{client: goopenai.NewClientWithConfig(c), cfg: cfg, name: name}, nil
}

// Name is the provider's name as results carry it.
func (p *Provider) Name() string { return p.name }

//go:embed prompts/*.txt
var promptFiles embed.FS

var prompts = template.Must(template.New("").Funcs(template.FuncMap{
	"inc": func(i int) int { return i + 1 },
}).ParseFS(promptFiles, "prompts/*.txt"))

// prompt renders the prompt file name with data.
func prompt(name string, data any) string {
	var b bytes.Buffer
	if err := prompts.ExecuteTemplate(&b, name, data); err != nil {
		panic("openai: prompt " + name + ": " + err.Error()) // the embedded files are fixed
	}
	return b.String()
}

// chat sends one conversation: the system prompt, the user's prompt and,
// when retrying, what was wrong with the last answer. schema, when set,
// asks for JSON of that schema.
func (p *Provider) chat(ctx context.Context, user, correction string, schema *goopenai.ChatCompletionResponseFormatJSONSchema) (string, error) {
	msgs := []goopenai.ChatCompletionMessage{
		{Role: goopenai.ChatMessageRoleSystem, Content: prompt("system.txt", nil)},
		{Role: goopenai.ChatMessageRoleUser, Content: user},
	}
	if correction != "" {
		msgs = append(msgs, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleUser, Content: correction})
	}
	req := goopenai.ChatCompletionRequest{
		Model:    p.cfg.Model,
		Messages: msgs,
		//lint:ignore SA1019 OpenAI-compatible servers (Ollama, vLLM, LM Studio) read max_tokens; few read its successor.
		MaxTokens:   p.cfg.MaxTokens,
		Temperature: 0,
	}
	if schema != nil {
		req.ResponseFormat = &goopenai.ChatCompletionResponseFormat{
			Type:       goopenai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: schema,
		}
	}
	for attempt := 0; ; attempt++ {
		text, err := p.attempt(ctx, req)
		if err == nil {
			return text, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if !errors.Is(err, ai.ErrUnavailable) || attempt >= p.cfg.Retries {
			return "", err
		}
		if err := sleep(ctx, p.backoff(attempt)); err != nil {
			return "", err
		}
	}
}

// attempt sends req once, within the attempt timeout.
func (p *Provider) attempt(ctx context.Context, req goopenai.ChatCompletionRequest) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	resp, err := p.client.CreateChatCompletion(ctx, req)
	if err != nil {
		return "", classify(err)
	}
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("%w: no choices", ai.ErrMalformed)
	}
	return resp.Choices[0].Message.Content, nil
}

// classify maps a go-openai error to ai.ErrUnavailable (worth retrying:
// 408, 429, 5xx, timeouts and network failures) or ai.ErrRejected.
func classify(err error) error {
	status := 0
	var apiErr *goopenai.APIError
	var reqErr *goopenai.RequestError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.HTTPStatusCode
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
	}
	var netErr net.Error
	switch {
	case status == http.StatusTooManyRequests, status == http.StatusRequestTimeout, status >= 500:
		return fmt.Errorf("%w: status %d: %v", ai.ErrUnavailable, status, err)
	case status >= 400:
		return fmt.Errorf("%w: status %d: %v", ai.ErrRejected, status, err)
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr):
		return fmt.Errorf("%w: %v", ai.ErrUnavailable, err)
	case status == 0 && (reqErr != nil || apiErr != nil):
		return fmt.Errorf("%w: %v", ai.ErrUnavailable, err)
	}
	// An answer that is not the API's JSON: a proxy's page, a wrong URL.
	return fmt.Errorf("%w: %v", ai.ErrMalformed, err)
}

// backoff is the wait before retry n+1: Backoff × 2ⁿ, its second half
// random ("equal jitter"), so clients that failed together retry apart.
func (p *Provider) backoff(n int) time.Duration {
	d := p.cfg.Backoff << n
	return d/2 + rand.N(d/2+1)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// prefix is s cut to at most n bytes, at a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// chunks splits text into parts of at most max characters at sentence
// boundaries (a sentence longer than max is a part of its own, cut).
func chunks(text string, max int) []string {
	var out []string
	var b strings.Builder
	for _, s := range local.Sentences(text) {
		s = prefix(s, max)
		if b.Len() > 0 && b.Len()+1+len(s) > max {
			out = append(out, b.String())
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	return out
}

// NewService is the portal's AI for cfg: the model behind the invention
// guard, with the local provider as fallback, when cfg names one (an API
// key or a base URL); otherwise the local provider alone.
func NewService(cfg Config, opts ...ai.Option) (*ai.Service, error) {
	if cfg.APIKey == "" && cfg.BaseURL == "" {
		return ai.NewService(nil, local.New(), opts...), nil
	}
	p, err := New(cfg)
	if err != nil {
		return nil, err
	}
	return ai.NewService(p, local.New(), opts...), nil
}
