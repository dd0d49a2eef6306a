package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	goopenai "github.com/sashabaranov/go-openai"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/catalog"
)

// fakeModel is an OpenAI-compatible chat completions endpoint: it records
// each request and answers with reply's status and content.
type fakeModel struct {
	t     *testing.T
	reply func(n int, req goopenai.ChatCompletionRequest) (int, string)
	mu    sync.Mutex
	reqs  []goopenai.ChatCompletionRequest
	auth  []string
	paths []string
}

func (f *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req goopenai.ChatCompletionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		f.t.Errorf("request body: %v", err)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.paths = append(f.paths, r.URL.Path)
	n := len(f.reqs)
	f.mu.Unlock()
	status, content := f.reply(n, req)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if status != http.StatusOK {
		fmt.Fprintf(w, `{"error":{"message":%q,"type":"test"}}`, content)
		return
	}
	json.NewEncoder(w).Encode(goopenai.ChatCompletionResponse{
		ID: "x", Object: "chat.completion", Model: req.Model,
		Choices: []goopenai.ChatCompletionChoice{{Message: goopenai.ChatCompletionMessage{Role: "assistant", Content: content}}},
	})
}

func (f *fakeModel) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// userText is the text of the user messages of request i.
func (f *fakeModel) userText(i int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	for _, m := range f.reqs[i].Messages {
		if m.Role == goopenai.ChatMessageRoleUser {
			b.WriteString(m.Content + "\n")
		}
	}
	return b.String()
}

// serve starts a fake model over HTTP and a provider using it.
func serve(t *testing.T, cfg Config, reply func(n int, req goopenai.ChatCompletionRequest) (int, string)) (*Provider, *fakeModel) {
	t.Helper()
	f := &fakeModel{t: t, reply: reply}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	cfg.BaseURL = srv.URL + "/v1"
	if cfg.APIKey == "" {
		cfg.APIKey = "test-key"
	}
	if cfg.Backoff == 0 {
		cfg.Backoff = time.Millisecond
	}
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, f
}

func always(status int, content string) func(int, goopenai.ChatCompletionRequest) (int, string) {
	return func(int, goopenai.ChatCompletionRequest) (int, string) { return status, content }
}

const circularText = "Payment aggregators must keep customer funds in an escrow account from 1 April 2026. Merchants must be onboarded after KYC."

func TestSummarize_Request(t *testing.T) {
	p, f := serve(t, Config{Model: "llama3.1", APIKey: "sk-secret"}, always(200, " Aggregators must use escrow accounts from 1 April 2026. "))
	got, err := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Escrow for aggregators", Text: circularText})
	if err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(strings.TrimSuffix(p.cfg.BaseURL, "/v1"), "http://")
	want := catalog.GeneratedSummary{Summary: "Aggregators must use escrow accounts from 1 April 2026.", Provider: "openai-compatible " + host, Model: "llama3.1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Summarize (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/v1/chat/completions"}, f.paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bearer sk-secret"}, f.auth); diff != "" {
		t.Errorf("Authorization (-want +got):\n%s", diff)
	}
	req := f.reqs[0]
	//lint:ignore SA1019 the provider sends max_tokens (see chat)
	maxTokens := req.MaxTokens
	if req.Model != "llama3.1" || maxTokens != 800 || req.ResponseFormat != nil {
		t.Errorf("request model %q, max tokens %d, format %v", req.Model, maxTokens, req.ResponseFormat)
	}
	if len(req.Messages) != 2 || req.Messages[0].Role != "system" || !strings.Contains(req.Messages[0].Content, "State only what the text") {
		t.Errorf("messages = %+v, want the system prompt first", req.Messages)
	}
	if u := req.Messages[1].Content; !strings.Contains(u, circularText) || !strings.Contains(u, "Title: Escrow for aggregators") {
		t.Errorf("user prompt %q lacks the title or text", u)
	}
}

func TestNew_Config(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      Config
		provider string
		err      bool
	}{
		{"OpenAI", Config{APIKey: "k"}, "openai", false},
		{"OpenAIBaseURL", Config{APIKey: "k", BaseURL: "https://api.openai.com/v1"}, "openai", false},
		{"Ollama", Config{BaseURL: "http://localhost:11434/v1"}, "openai-compatible localhost:11434", false},
		{"Nothing", Config{}, "", true},
		{"BadURL", Config{APIKey: "k", BaseURL: "localhost:11434"}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New(tc.cfg)
			if (err != nil) != tc.err {
				t.Fatalf("err = %v, want error %v", err, tc.err)
			}
			if err == nil && (p.Name() != tc.provider || p.cfg.Model != DefaultModel) {
				t.Errorf("provider %q model %q, want %q %q", p.Name(), p.cfg.Model, tc.provider, DefaultModel)
			}
		})
	}
}

func TestChat_Errors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reply  func(int, goopenai.ChatCompletionRequest) (int, string)
		want   error
		calls  int
		result string
	}{
		{"Unauthorized", always(401, "bad key"), ai.ErrRejected, 1, ""},
		{"UnknownModel", always(404, "no model"), ai.ErrRejected, 1, ""},
		{"BadRequest", always(400, "too long"), ai.ErrRejected, 1, ""},
		{"ServerErrorRetried", always(500, "down"), ai.ErrUnavailable, 3, ""},
		{"RateLimitedRetried", always(429, "slow down"), ai.ErrUnavailable, 3, ""},
		{"RecoversOnRetry", func(n int, _ goopenai.ChatCompletionRequest) (int, string) {
			if n < 3 {
				return 503, "busy"
			}
			return 200, "Aggregators must use escrow accounts."
		}, nil, 3, "Aggregators must use escrow accounts."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := serve(t, Config{}, tc.reply)
			got, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: circularText})
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tc.want)
			}
			if f.calls() != tc.calls || got.Summary != tc.result {
				t.Errorf("%d calls, summary %q; want %d, %q", f.calls(), got.Summary, tc.calls, tc.result)
			}
		})
	}
	t.Run("NotTheAPI", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "<html>a proxy's login page</html>")
		}))
		defer srv.Close()
		p, _ := New(Config{BaseURL: srv.URL})
		if _, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: circularText}); !errors.Is(err, ai.ErrMalformed) {
			t.Errorf("err = %v, want ErrMalformed", err)
		}
	})
}

func TestChat_Timeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	// The handler answers only when the test ends; only the client's
	// timeout can end each attempt.
	p, f := serve(t, Config{Timeout: 50 * time.Millisecond, Retries: 1}, func(int, goopenai.ChatCompletionRequest) (int, string) {
		<-release
		return 200, "late"
	})
	_, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: circularText})
	if !errors.Is(err, ai.ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable", err)
	}
	if f.calls() != 2 {
		t.Errorf("%d attempts, want 2 (one retry)", f.calls())
	}
}

func TestChat_Canceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	p, f := serve(t, Config{}, func(int, goopenai.ChatCompletionRequest) (int, string) {
		cancel()
		return 503, "busy"
	})
	if _, err := p.Summarize(ctx, ai.SummaryRequest{Text: circularText}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if f.calls() != 1 {
		t.Errorf("%d calls after the request was canceled, want 1", f.calls())
	}
}

// handlerTransport serves requests with a handler in memory, so a test
// in a synctest bubble has no network connection to wait on.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

func TestChat_Backoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var at []time.Duration
		start := time.Now()
		f := &fakeModel{t: t, reply: func(n int, _ goopenai.ChatCompletionRequest) (int, string) {
			at = append(at, time.Since(start))
			if n <= 3 {
				return 429, "slow down"
			}
			return 200, "Done."
		}}
		p, err := New(Config{APIKey: "k", BaseURL: "http://model.test/v1", Retries: 3, Backoff: time.Second,
			HTTPClient: &http.Client{Transport: handlerTransport{f}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Summarize(t.Context(), ai.SummaryRequest{Text: circularText}); err != nil {
			t.Fatal(err)
		}
		if len(at) != 4 {
			t.Fatalf("%d attempts, want 4", len(at))
		}
		// Waits of 1s, 2s and 4s, each between half and all of it.
		for i := 1; i < len(at); i++ {
			wait, full := at[i]-at[i-1], time.Second<<(i-1)
			if wait < full/2 || wait > full {
				t.Errorf("wait before attempt %d = %v, want %v to %v", i+1, wait, full/2, full)
			}
		}
	})
}

func TestSummarize_Chunked(t *testing.T) {
	var text strings.Builder
	for i := range 12 {
		fmt.Fprintf(&text, "Sentence number %d says that payment aggregators must act. ", i+1)
	}
	p, f := serve(t, Config{ChunkChars: 200}, func(n int, req goopenai.ChatCompletionRequest) (int, string) {
		return 200, fmt.Sprintf("Summary %d.", n)
	})
	got, err := p.Summarize(t.Context(), ai.SummaryRequest{Title: "Aggregators", Text: text.String()})
	if err != nil {
		t.Fatal(err)
	}
	parts := chunks(text.String(), 200)
	if len(parts) < 3 {
		t.Fatalf("%d parts, want several", len(parts))
	}
	for _, part := range parts {
		if len(part) > 200 {
			t.Errorf("part of %d characters, over 200", len(part))
		}
	}
	if f.calls() != len(parts)+1 {
		t.Fatalf("%d calls, want %d parts and one to combine", f.calls(), len(parts))
	}
	for i := range parts {
		if u := f.userText(i); !strings.Contains(u, fmt.Sprintf("part %d of %d", i+1, len(parts))) || !strings.Contains(u, parts[i]) {
			t.Errorf("call %d does not carry part %d", i+1, i+1)
		}
	}
	reduce := f.userText(len(parts))
	for i := range parts {
		if !strings.Contains(reduce, fmt.Sprintf("Summary %d.", i+1)) {
			t.Errorf("the combining call lacks part %d's summary", i+1)
		}
	}
	if got.Summary != fmt.Sprintf("Summary %d.", len(parts)+1) {
		t.Errorf("summary = %q, want the combined one", got.Summary)
	}
}

func TestAnalyzeImpact_Structured(t *testing.T) {
	c := catalog.Circular{Entry: catalog.Entry{ID: "c1"}, Title: "Escrow", Source: "RBI", Content: circularText, DocumentType: "circular"}
	valid := `{"impactLevel":"high","reasons":["Payment aggregators must keep customer funds in an escrow account from 1 April 2026."]}`
	for _, tc := range []struct {
		name    string
		answers []string
		want    error
		calls   int
	}{
		{"Valid", []string{valid}, nil, 1},
		{"FencedValid", []string{"```json\n" + valid + "\n```"}, nil, 1},
		{"MalformedThenValid", []string{"High impact, because escrow.", valid}, nil, 2},
		{"BadLevelThenValid", []string{`{"impactLevel":"severe","reasons":["x"]}`, valid}, nil, 2},
		{"MalformedTwice", []string{"not JSON", `{"impactLevel":"high","reasons":[]}`}, ai.ErrMalformed, 2},
		{"UnknownField", []string{`{"impactLevel":"high","reasons":["x"],"score":9}`, `{"level":"high"}`}, ai.ErrMalformed, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := serve(t, Config{}, func(n int, _ goopenai.ChatCompletionRequest) (int, string) { return 200, tc.answers[n-1] })
			got, err := p.AnalyzeImpact(t.Context(), ai.ImpactRequest{Circular: c, EntityType: "Aggregator"})
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if f.calls() != tc.calls {
				t.Errorf("%d calls, want %d", f.calls(), tc.calls)
			}
			if tc.want == nil && (got.ImpactLevel != "high" || len(got.Reasons) != 1 || got.Model != DefaultModel) {
				t.Errorf("AnalyzeImpact = %+v", got)
			}
			rf := f.reqs[0].ResponseFormat
			if rf == nil || rf.Type != goopenai.ChatCompletionResponseFormatTypeJSONSchema || rf.JSONSchema.Name != "impact_analysis" || !rf.JSONSchema.Strict {
				t.Errorf("response format = %+v, want the impact JSON schema", rf)
			}
			if u := f.userText(0); !strings.Contains(u, "Payment Aggregators") || !strings.Contains(u, circularText) {
				t.Errorf("prompt lacks the entity type or the text: %q", u)
			}
			if tc.calls == 2 && !strings.Contains(f.userText(1), "could not be used") {
				t.Errorf("the retry does not name the fault: %q", f.userText(1))
			}
		})
	}
}

func TestAnswer_Citations(t *testing.T) {
	passages := []ai.Passage{
		{CircularID: "c1", Source: "NPCI", Title: "UPI Lite", Text: "The UPI Lite limit is ₹5,000."},
		{CircularID: "c2", Source: "RBI", Title: "Tokenisation", Text: "Merchants may not store card data."},
	}
	t.Run("MapsNumbersToCirculars", func(t *testing.T) {
		p, f := serve(t, Config{}, always(200, `{"answer":"Merchants may not store card data.","citations":[2,2]}`))
		got, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "Can merchants store cards?", Passages: passages})
		if err != nil {
			t.Fatal(err)
		}
		want := ai.Answer{Answer: "Merchants may not store card data.", Citations: []string{"c2"}, Provider: p.Name(), Model: DefaultModel}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Answer (-want +got):\n%s", diff)
		}
		if u := f.userText(0); !strings.Contains(u, "[2] RBI: Tokenisation") || !strings.Contains(u, "Can merchants store cards?") {
			t.Errorf("prompt %q lacks the numbered passages or the question", u)
		}
	})
	t.Run("CitesNoPassage", func(t *testing.T) {
		p, f := serve(t, Config{}, always(200, `{"answer":"Yes.","citations":[3]}`))
		if _, err := p.Answer(t.Context(), ai.AnswerRequest{Question: "q", Passages: passages}); !errors.Is(err, ai.ErrMalformed) {
			t.Errorf("err = %v, want ErrMalformed", err)
		}
		if f.calls() != 2 || !strings.Contains(f.userText(1), "citation 3 names no passage") {
			t.Errorf("%d calls; the retry should name the bad citation", f.calls())
		}
	})
}

// TestService_InventionGuard drives the whole path with a model that
// invents a date: the guard rejects the answer, asks again naming the
// date, and when the model invents again the local summary is used.
func TestService_InventionGuard(t *testing.T) {
	req := ai.SummaryRequest{Title: "Escrow for aggregators", Text: circularText}
	for _, tc := range []struct {
		name     string
		answers  []string
		provider string
		summary  string
		stats    ai.Stats
	}{
		{"Faithful", []string{"Aggregators must use escrow from 1 April 2026."}, "model", "Aggregators must use escrow from 1 April 2026.",
			ai.Stats{ModelAnswers: 1}},
		{"InventsThenCorrects", []string{"Aggregators must use escrow from 1 May 2026.", "Aggregators must use escrow from April 1, 2026."}, "model",
			"Aggregators must use escrow from April 1, 2026.", ai.Stats{ModelAnswers: 1, Inventions: 1}},
		{"InventsTwice", []string{"Aggregators must use escrow from 1 May 2026.", "Aggregators must act by 30 June 2026."}, ai.ProviderLocal,
			circularText, ai.Stats{Inventions: 2, Fallbacks: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := serve(t, Config{}, func(n int, _ goopenai.ChatCompletionRequest) (int, string) { return 200, tc.answers[n-1] })
			svc := ai.NewService(p, local.New(), ai.WithNow(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC) }))
			got, err := svc.Summarize(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			if tc.provider == "model" {
				tc.provider = p.Name()
			}
			if got.Provider != tc.provider || got.Summary != tc.summary {
				t.Errorf("Summarize = %q by %s, want %q by %s", got.Summary, got.Provider, tc.summary, tc.provider)
			}
			if want := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC); !got.GeneratedAt.Equal(want) {
				t.Errorf("generated at %v, want %v", got.GeneratedAt, want)
			}
			if diff := cmp.Diff(tc.stats, svc.Stats()); diff != "" {
				t.Errorf("Stats (-want +got):\n%s", diff)
			}
			if f.calls() != len(tc.answers) {
				t.Errorf("%d calls, want %d", f.calls(), len(tc.answers))
			}
			if len(tc.answers) > 1 && !strings.Contains(f.userText(1), `"1 May 2026", which the source text does not state`) {
				t.Errorf("the retry does not name the invented date: %q", f.userText(1))
			}
		})
	}
	t.Run("ModelDownFallsBack", func(t *testing.T) {
		p, _ := serve(t, Config{Retries: -1}, always(500, "down"))
		svc := ai.NewService(p, local.New())
		got, err := svc.AnalyzeImpact(t.Context(), ai.ImpactRequest{Circular: catalog.Circular{Entry: catalog.Entry{ID: "c1"}, Content: circularText, DocumentType: "circular"}, EntityType: "Aggregator"})
		if err != nil {
			t.Fatal(err)
		}
		if got.Provider != ai.ProviderLocal || got.CircularID != "c1" || got.EntityType != "Aggregator" || got.ImpactLevel != "high" {
			t.Errorf("AnalyzeImpact = %+v, want the local analysis", got)
		}
		if diff := cmp.Diff(ai.Stats{Fallbacks: 1}, svc.Stats()); diff != "" {
			t.Errorf("Stats (-want +got):\n%s", diff)
		}
	})
	t.Run("AnswerInventsAmount", func(t *testing.T) {
		p, _ := serve(t, Config{}, always(200, `{"answer":"The limit is ₹10,000.","citations":[1]}`))
		svc := ai.NewService(p, local.New())
		got, err := svc.Answer(t.Context(), ai.AnswerRequest{Question: "What is the UPI Lite limit?",
			Passages: []ai.Passage{{CircularID: "c1", Title: "UPI Lite", Text: "The UPI Lite limit is ₹5,000."}}})
		if err != nil {
			t.Fatal(err)
		}
		want := ai.Answer{Answer: "The UPI Lite limit is ₹5,000.", Citations: []string{"c1"}, Provider: ai.ProviderLocal, Model: local.ModelAnswer}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Answer (-want +got):\n%s", diff)
		}
	})
}

func TestPrefix(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, "abc"},
		{"abcdef", 3, "abc"},
		{"₹500", 2, ""},   // ₹ is three bytes: never half of it
		{"a₹500", 3, "a"}, // nor the start of it
		{"a₹500", 4, "a₹"},
	} {
		if got := prefix(tc.s, tc.n); got != tc.want {
			t.Errorf("prefix(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestExtractObligations_Model(t *testing.T) {
	c := catalog.Circular{Entry: catalog.Entry{ID: "6f1d3c2e-9a47-4e0b-8f5a-2c7b1e9d4a10", Slug: "escrow"}, Title: "Escrow", Source: "RBI",
		Content: circularText, DocumentType: "circular", ImpactLevel: "high"}
	const src = "Payment aggregators must keep customer funds in an escrow account from 1 April 2026."
	faithful := `{"obligations":[{"appliesTo":["Aggregator"],"what":"Keep customer funds in escrow.","kind":"new-requirement","deadline":"from 1 April 2026","dueDate":"2026-04-01","source":"` + src + `"}]}`
	invents := `{"obligations":[{"appliesTo":["Aggregator"],"what":"Keep customer funds in escrow within 30 days.","kind":"new-requirement","deadline":"by 1 May 2026","dueDate":"2026-05-01","source":"` + src + `"}]}`
	misquotes := `{"obligations":[{"appliesTo":["Aggregator"],"what":"Keep funds in escrow.","kind":"new-requirement","deadline":"","dueDate":"","source":"Aggregators must use escrow."}]}`
	for _, tc := range []struct {
		name     string
		answers  []string
		provider string
		due      string
		stats    ai.Stats
	}{
		{"Faithful", []string{faithful}, "model", "2026-04-01", ai.Stats{ModelAnswers: 1}},
		{"InventsThenCorrects", []string{invents, faithful}, "model", "2026-04-01", ai.Stats{ModelAnswers: 1, Inventions: 1}},
		{"InventsTwice", []string{invents, misquotes}, ai.ProviderLocal, "2026-04-01", ai.Stats{Inventions: 2, Fallbacks: 1}},
		{"Malformed", []string{`{"obligations":[{"appliesTo":["Bank"]}]}`, `not json`}, ai.ProviderLocal, "2026-04-01", ai.Stats{Fallbacks: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, f := serve(t, Config{}, func(n int, _ goopenai.ChatCompletionRequest) (int, string) { return 200, tc.answers[n-1] })
			svc := ai.NewService(p, local.New())
			got, err := svc.ExtractObligations(t.Context(), ai.ObligationRequest{Circular: c})
			if err != nil {
				t.Fatal(err)
			}
			if tc.provider == "model" {
				tc.provider = p.Name()
			}
			if len(got) == 0 || string(got[0].Provider) != tc.provider || got[0].DueDate == nil || got[0].DueDate.String() != tc.due ||
				got[0].SourceText != src || got[0].Origin != catalog.OriginExtracted || got[0].Accepted {
				t.Fatalf("ExtractObligations = %+v, want one by %s due %s", got, tc.provider, tc.due)
			}
			if diff := cmp.Diff(tc.stats, svc.Stats()); diff != "" {
				t.Errorf("Stats (-want +got):\n%s", diff)
			}
			if f.calls() != len(tc.answers) {
				t.Errorf("%d calls, want %d", f.calls(), len(tc.answers))
			}
			if tc.name == "InventsThenCorrects" && !strings.Contains(f.userText(1), `"30 days"`) {
				t.Errorf("the retry does not name the invented period: %q", f.userText(1))
			}
			if rf := f.reqs[0].ResponseFormat; rf == nil || rf.JSONSchema == nil || rf.JSONSchema.Name != "obligations" {
				t.Errorf("response format = %+v, want the obligations schema", rf)
			}
		})
	}
}
