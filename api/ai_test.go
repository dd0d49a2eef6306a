package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/ai/openai"
	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store/storetest"
)

// post serves POST target with body (none when body is "") sent as
// contentType, from the client address remote ("" for the default).
func (f *fixture) post(t testing.TB, target, contentType, body string) response {
	t.Helper()
	req := httptest.NewRequest("POST", target, strings.NewReader(body))
	if body == "" {
		req = httptest.NewRequest("POST", target, nil)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	f.api.ServeHTTP(rec, req)
	res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
	recordResponse("POST", target, req.Header, body, res)
	return res
}

const jsonType = "application/json"

// aiFixture is the API over the fixture catalog with the AI configured.
func aiFixture(t testing.TB, c AIConfig) *fixture {
	t.Helper()
	s := newFakeStore(storetest.Catalog())
	return &fixture{store: s, api: New(s, discardLog, WithNow(storetest.Clock), WithAI(c))}
}

func circularID(slug string) string { return catalog.IDForPath("circulars/" + slug + ".md") }

// wantErrorNaming is wantError checking only which fields are named.
func wantErrorNaming(t *testing.T, res response, status int, fields ...string) Error {
	t.Helper()
	e := wantError(t, res, status, nil)
	for _, f := range fields {
		if e.Fields[f] == "" {
			t.Errorf("error %s does not name field %s", res.body, f)
		}
	}
	return e
}

func TestSummarizeCircular(t *testing.T) {
	f := aiFixture(t, AIConfig{})
	id := circularID(storetest.SlugUPILite)
	target := "/circulars/" + id + "/summarize"
	c, _ := f.store.Circular(t.Context(), id)
	for _, tc := range []struct{ name, contentType, body string }{
		{"NoBody", "", ""},
		{"EmptyObject", jsonType, "{}"},
		// fetch wrappers send the JSON type on every POST, body or not
		{"EmptyBodyAsJSON", jsonType, ""},
		{"EmptyBodyAnyType", "text/plain", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := f.post(t, target, tc.contentType, tc.body)
			got := decode[catalog.Circular](t, target, res)
			// The fixture's circular is one sentence long: its summary.
			want := catalog.GeneratedSummary{Summary: c.Content, Provider: ai.ProviderLocal,
				Model: local.ModelSummary, GeneratedAt: storetest.Now}
			if got.AISummary == nil || *got.AISummary != want {
				t.Errorf("aiSummary = %+v, want %+v", got.AISummary, want)
			}
			if stored := f.store.summaries[id]; stored != want {
				t.Errorf("stored %+v, want %+v", stored, want)
			}
			if got.ID != id || got.Summary != "" {
				t.Errorf("circular %s with editors' summary %q", got.ID, got.Summary)
			}
		})
	}
	t.Run("KeepsEditorsSummary", func(t *testing.T) {
		fraud := circularID(storetest.SlugUPIFraud)
		c, _ := f.store.Circular(t.Context(), fraud)
		got := decode[catalog.Circular](t, "summarize", f.post(t, "/circulars/"+fraud+"/summarize", "", ""))
		if got.Summary != c.Summary || got.Summary == "" || got.AISummary == nil {
			t.Errorf("summary %q and aiSummary %+v; want the editors' %q kept beside the generated one", got.Summary, got.AISummary, c.Summary)
		}
	})
	t.Run("ErrUnknownCircular", func(t *testing.T) {
		wantErrorNaming(t, f.post(t, "/circulars/no-such-id/summarize", "", ""), http.StatusNotFound)
	})
	t.Run("ErrUnknownField", func(t *testing.T) {
		wantErrorNaming(t, f.post(t, target, jsonType, `{"force":true}`), http.StatusBadRequest, "force")
	})
	t.Run("ErrNotJSON", func(t *testing.T) {
		wantErrorNaming(t, f.post(t, target, "text/plain", "summarise please"), http.StatusUnsupportedMediaType)
	})
	t.Run("ErrMalformed", func(t *testing.T) {
		wantErrorNaming(t, f.post(t, target, jsonType, "{"), http.StatusBadRequest)
	})
	t.Run("ErrBodyTooLarge", func(t *testing.T) {
		wantErrorNaming(t, f.post(t, target, jsonType, strings.Repeat(" ", 2<<10)+"{}"), http.StatusRequestEntityTooLarge)
	})
	t.Run("ErrStore", func(t *testing.T) {
		broken := aiFixture(t, AIConfig{})
		broken.store.err = errBroken
		e := wantErrorNaming(t, broken.post(t, target, "", ""), http.StatusInternalServerError)
		if strings.Contains(e.Message, "secret") {
			t.Errorf("the store's error reached the client: %s", e.Message)
		}
	})
}

// blockingAI counts its calls and answers when released.
type blockingAI struct {
	calls   atomic.Int32
	release chan struct{}
	started chan struct{}
}

func (b *blockingAI) Summarize(ctx context.Context, req ai.SummaryRequest) (catalog.GeneratedSummary, error) {
	if b.calls.Add(1) == 1 {
		close(b.started)
	}
	<-b.release
	return catalog.GeneratedSummary{Summary: "Once.", Provider: "test", Model: "m"}, nil
}

func (b *blockingAI) AnalyzeImpact(context.Context, ai.ImpactRequest) (catalog.ImpactAnalysis, error) {
	return catalog.ImpactAnalysis{}, nil
}

func (b *blockingAI) Answer(context.Context, ai.AnswerRequest) (ai.Answer, error) {
	return ai.Answer{}, nil
}

func (b *blockingAI) HasModel() bool { return true }

// TestSummarizeCircular_Once: concurrent requests for one circular make
// one summary, which each of them receives.
func TestSummarizeCircular_Once(t *testing.T) {
	b := &blockingAI{release: make(chan struct{}), started: make(chan struct{})}
	f := aiFixture(t, AIConfig{Service: b})
	target := "/circulars/" + circularID(storetest.SlugUPILite) + "/summarize"
	const n = 5
	var wg sync.WaitGroup
	results := make([]response, n)
	wg.Add(1)
	go func() {
		defer wg.Done()
		results[0] = f.post(t, target, "", "")
	}()
	<-b.started
	for i := 1; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = f.post(t, target, "", "")
		}()
	}
	// The others join the work under way before it ends.
	time.Sleep(50 * time.Millisecond)
	close(b.release)
	wg.Wait()
	if got := b.calls.Load(); got != 1 {
		t.Errorf("%d summaries made for %d concurrent requests, want 1", got, n)
	}
	for i, res := range results {
		if c := decode[catalog.Circular](t, target, res); c.AISummary == nil || c.AISummary.Summary != "Once." {
			t.Errorf("request %d got %+v", i, c.AISummary)
		}
	}
}

func TestAnalyzeImpact(t *testing.T) {
	f := aiFixture(t, AIConfig{})
	id := circularID(storetest.SlugUPILite)
	target := "/circulars/" + id + "/impact"
	c, _ := f.store.Circular(t.Context(), id)
	for _, tc := range []struct{ name, body, entityType string }{
		{"Exact", `{"entityType":"Issuer"}`, "Issuer"},
		{"AnyCase", `{"entityType":"psp"}`, "PSP"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := decode[catalog.ImpactAnalysis](t, target, f.post(t, target, jsonType, tc.body))
			want := catalog.ImpactAnalysis{CircularID: id, EntityType: tc.entityType, ImpactLevel: c.ImpactFor(tc.entityType),
				Provider: ai.ProviderLocal, Model: local.ModelImpact, GeneratedAt: storetest.Now}
			if got.ImpactLevel == "" || len(got.Reasons) == 0 {
				t.Fatalf("analysis %+v has no level or reasons", got)
			}
			got.Reasons = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("analysis (-want +got):\n%s", diff)
			}
			if last := f.store.analyses[len(f.store.analyses)-1]; last.EntityType != tc.entityType || last.CircularID != id {
				t.Errorf("stored %+v", last)
			}
		})
	}
	for _, tc := range []struct {
		name, target, contentType, body string
		status                          int
		fields                          []string
	}{
		{"ErrBadEntityType", target, jsonType, `{"entityType":"Bank"}`, 400, []string{"entityType"}},
		{"ErrNoEntityType", target, jsonType, `{}`, 400, []string{"entityType"}},
		{"ErrWrongType", target, jsonType, `{"entityType":7}`, 400, []string{"entityType"}},
		{"ErrUnknownField", target, jsonType, `{"entityType":"PSP","level":"high"}`, 400, []string{"level"}},
		{"ErrTrailingData", target, jsonType, `{"entityType":"PSP"} {}`, 400, nil},
		{"ErrNoBody", target, "", "", 415, nil},
		{"ErrNotJSON", target, "text/plain", "PSP", 415, nil},
		{"ErrTooLarge", target, jsonType, `{"entityType":"` + strings.Repeat("P", 2000) + `"}`, 413, nil},
		{"ErrUnknownCircular", "/circulars/no-such-id/impact", jsonType, `{"entityType":"PSP"}`, 404, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErrorNaming(t, f.post(t, tc.target, tc.contentType, tc.body), tc.status, tc.fields...)
		})
	}
}

func TestSummarizeText(t *testing.T) {
	f := aiFixture(t, AIConfig{MaxContent: 200})
	t.Run("Summary", func(t *testing.T) {
		body := `{"content":"  Card issuers must tokenise cards by 1 April 2026. The weather was fine.  "}`
		got := decode[catalog.GeneratedSummary](t, "/ai/summarize", f.post(t, "/ai/summarize", jsonType, body))
		if !strings.Contains(got.Summary, "Card issuers must tokenise cards by 1 April 2026.") || got.Provider != ai.ProviderLocal || got.Model != local.ModelSummary {
			t.Errorf("summary = %+v", got)
		}
	})
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		fields                  []string
	}{
		{"ErrBlank", jsonType, `{"content":" \n\t "}`, 400, []string{"content"}},
		{"ErrMissing", jsonType, `{}`, 400, []string{"content"}},
		{"ErrTooLong", jsonType, `{"content":"` + strings.Repeat("ab ", 100) + `"}`, 413, []string{"content"}},
		{"ErrBodyTooLarge", jsonType, `{"content":"` + strings.Repeat("a", 5000) + `"}`, 413, []string{"content"}},
		{"ErrNotJSON", "text/plain", "some text", 415, nil},
		{"ErrMalformed", jsonType, `{"content":`, 400, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := wantErrorNaming(t, f.post(t, "/ai/summarize", tc.contentType, tc.body), tc.status, tc.fields...)
			if tc.status == 413 && !strings.Contains(e.Message, "at most 200 characters") {
				t.Errorf("message %q does not state the limit", e.Message)
			}
		})
	}
}

func TestAI_RateLimit(t *testing.T) {
	f := aiFixture(t, AIConfig{RateLimit: 2, RateWindow: time.Hour})
	body := `{"content":"Banks must report."}`
	for i := range 2 {
		if res := f.post(t, "/ai/summarize", jsonType, body); res.status != 200 {
			t.Fatalf("call %d = %d %s", i+1, res.status, res.body)
		}
	}
	// The limit covers all the AI calls together.
	e := wantErrorNaming(t, f.post(t, "/circulars/"+circularID(storetest.SlugUPILite)+"/summarize", "", ""), http.StatusTooManyRequests)
	if !strings.Contains(e.Message, "at most 2 per 1h0m0s") {
		t.Errorf("message %q does not state the limit", e.Message)
	}
	if res := f.get(t, "/circulars"); res.status != 200 {
		t.Errorf("GET /circulars = %d: the AI limit reached a read call", res.status)
	}
}

// TestAI_Model: with a model configured (a fake OpenAI-compatible server),
// the calls use it and say so.
func TestAI_Model(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			ResponseFormat *struct{ Type string } `json:"response_format"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		content := "Content of the circular, summarised."
		if req.ResponseFormat != nil {
			content = `{"impactLevel":"medium","reasons":["The text says so."]}`
		}
		b, _ := json.Marshal(content)
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}]}`, b)
	}))
	defer srv.Close()
	p, err := openai.New(openai.Config{APIKey: "k", BaseURL: srv.URL + "/v1", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	f := aiFixture(t, AIConfig{Service: ai.NewService(p, local.New(), ai.WithNow(storetest.Clock))})
	id := circularID(storetest.SlugUPILite)
	c := decode[catalog.Circular](t, "summarize", f.post(t, "/circulars/"+id+"/summarize", "", ""))
	if c.AISummary == nil || c.AISummary.Provider != p.Name() || c.AISummary.Model != "fake-model" {
		t.Errorf("aiSummary = %+v, want the model's", c.AISummary)
	}
	a := decode[catalog.ImpactAnalysis](t, "impact", f.post(t, "/circulars/"+id+"/impact", jsonType, `{"entityType":"PSP"}`))
	if a.Provider != p.Name() || a.ImpactLevel != "medium" {
		t.Errorf("analysis = %+v, want the model's", a)
	}
	if calls.Load() != 2 {
		t.Errorf("%d model calls, want 2", calls.Load())
	}
}

// TestOpenAPI_AI validates the AI calls' answers, every documented status
// (500 too), against openapi.json.
func TestOpenAPI_AI(t *testing.T) {
	doc := loadOpenAPI(t)
	c := &openAPIChecker{doc: doc}
	f := aiFixture(t, AIConfig{MaxContent: 100})
	limited := aiFixture(t, AIConfig{RateLimit: 1, RateWindow: time.Hour})
	broken := aiFixture(t, AIConfig{})
	broken.store.err = errBroken
	id := circularID(storetest.SlugUPILite)
	check := func(t *testing.T, f *fixture, path, target, contentType, body string, status int) {
		t.Helper()
		res := f.post(t, target, contentType, body)
		if res.status != status {
			t.Fatalf("POST %s = %d %s, want %d", target, res.status, res.body, status)
		}
		req := httptest.NewRequest("POST", "/api"+target, strings.NewReader(body))
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		c.validate(t, "POST", path, req, res)
	}
	summarize, impact, text := "/circulars/{id}/summarize", "/circulars/{id}/impact", "/ai/summarize"
	for _, tc := range []struct {
		f                               *fixture
		path, target, contentType, body string
		status                          int
	}{
		{f, summarize, "/circulars/" + id + "/summarize", "", "", 200},
		{f, summarize, "/circulars/" + id + "/summarize", jsonType, `{"x":1}`, 400},
		{f, summarize, "/circulars/nope/summarize", "", "", 404},
		{f, summarize, "/circulars/" + id + "/summarize", "text/plain", "x", 415},
		{broken, summarize, "/circulars/" + id + "/summarize", "", "", 500},
		{f, impact, "/circulars/" + id + "/impact", jsonType, `{"entityType":"Aggregator"}`, 200},
		{f, impact, "/circulars/" + id + "/impact", jsonType, `{"entityType":"Bank"}`, 400},
		{f, impact, "/circulars/nope/impact", jsonType, `{"entityType":"PSP"}`, 404},
		{f, impact, "/circulars/" + id + "/impact", jsonType, `{"entityType":"` + strings.Repeat("x", 2000) + `"}`, 413},
		{f, impact, "/circulars/" + id + "/impact", "", "", 415},
		{broken, impact, "/circulars/" + id + "/impact", jsonType, `{"entityType":"PSP"}`, 500},
		{f, text, text, jsonType, `{"content":"Banks must report monthly."}`, 200},
		{f, text, text, jsonType, `{"content":""}`, 400},
		{f, text, text, jsonType, `{"content":"` + strings.Repeat("x", 101) + `"}`, 413},
		{f, text, text, "text/plain", "x", 415},
		{limited, summarize, "/circulars/" + id + "/summarize", "", "", 200},
		{limited, impact, "/circulars/" + id + "/impact", jsonType, `{"entityType":"PSP"}`, 429},
		{limited, summarize, "/circulars/" + id + "/summarize", "", "", 429},
	} {
		check(t, tc.f, tc.path, tc.target, tc.contentType, tc.body, tc.status)
	}
	// /ai/summarize's 429 and 500: the limit is per client across calls,
	// and a store failure cannot reach it (nothing is stored), so a
	// failing AI service stands in.
	check(t, limited, text, text, jsonType, `{"content":"x"}`, 429)
	failing := aiFixture(t, AIConfig{Service: ai.NewService(nil, failingProvider{})})
	check(t, failing, text, text, jsonType, `{"content":"x"}`, 500)
}

// failingProvider fails every call as a broken provider would.
type failingProvider struct{}

func (failingProvider) Summarize(context.Context, ai.SummaryRequest) (catalog.GeneratedSummary, error) {
	return catalog.GeneratedSummary{}, errBroken
}

func (failingProvider) AnalyzeImpact(context.Context, ai.ImpactRequest) (catalog.ImpactAnalysis, error) {
	return catalog.ImpactAnalysis{}, errBroken
}

func (failingProvider) Answer(context.Context, ai.AnswerRequest) (ai.Answer, error) {
	return ai.Answer{}, errBroken
}

// TestModelAnswer: the search's direct answer comes from the model when
// one is configured and answers faithfully; otherwise there is none, and
// the search keeps its own.
func TestModelAnswer(t *testing.T) {
	passages := []ai.Passage{
		{CircularID: "c1", Source: "NPCI", Title: "UPI Lite", Text: "The UPI Lite limit is ₹5,000."},
		{CircularID: "c2", Source: "RBI", Title: "Tokenisation", Text: "Merchants may not store card data."},
	}
	model := func(t *testing.T, reply string) AI {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := json.Marshal(reply)
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}]}`, b)
		}))
		t.Cleanup(srv.Close)
		p, err := openai.New(openai.Config{BaseURL: srv.URL, Model: "fake-model", Retries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return ai.NewService(p, local.New())
	}
	for _, tc := range []struct {
		name string
		svc  func(t *testing.T) AI
		want ai.Answer
		ok   bool
	}{
		{"Model", func(t *testing.T) AI { return model(t, `{"answer":"The limit is ₹5,000.","citations":[1]}`) },
			ai.Answer{Answer: "The limit is ₹5,000.", Citations: []string{"c1"}, Model: "fake-model"}, true},
		{"ModelInvents", func(t *testing.T) AI { return model(t, `{"answer":"The limit is ₹9,000.","citations":[1]}`) }, ai.Answer{}, false},
		{"ModelMalformed", func(t *testing.T) AI { return model(t, `not JSON`) }, ai.Answer{}, false},
		{"NoModel", func(*testing.T) AI { return nil }, ai.Answer{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{log: discardLog, now: storetest.Clock, aiCfg: AIConfig{Service: tc.svc(t)}}
			h.initAI()
			got, ok := h.modelAnswer(t.Context(), "What is the UPI Lite limit?", search.AnswerAmount, passages)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v (%+v)", ok, tc.ok, got)
			}
			if ok {
				got.Provider = ""
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("answer (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestSearch_ModelAnswer: with a model, /search's direct answer is the
// model's, citing retrieved circulars only, with retrieval's confidence;
// without one, or when the model invents, it stays extractive.
func TestSearch_ModelAnswer(t *testing.T) {
	const target = "/search?q=upi+lite"
	extractive := decode[search.Response](t, target, aiFixture(t, AIConfig{}).get(t, target))
	if extractive.Answer.Method != search.MethodExtractive || extractive.Answer.DirectAnswer == "" || len(extractive.Answer.Sources) == 0 {
		t.Fatalf("fixture's extractive answer = %+v; want one to replace", extractive.Answer)
	}
	model := func(t *testing.T, reply string) AI {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			b, _ := json.Marshal(reply)
			fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}]}`, b)
		}))
		t.Cleanup(srv.Close)
		p, err := openai.New(openai.Config{BaseURL: srv.URL, Model: "fake-model", Retries: -1})
		if err != nil {
			t.Fatal(err)
		}
		return ai.NewService(p, local.New())
	}
	t.Run("Model", func(t *testing.T) {
		// The model cites the second source; its words state no value.
		f := aiFixture(t, AIConfig{Service: model(t, `{"answer":"UPI Lite limits were revised.","citations":[2]}`)})
		got := decode[search.Response](t, target, f.get(t, target)).Answer
		want := search.Answer{DirectAnswer: "UPI Lite limits were revised.", Confidence: extractive.Answer.Confidence,
			Sources: catalog.List[search.Source]{extractive.Answer.Sources[1]}, Method: search.MethodModel, Model: "fake-model"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("answer (-want +got):\n%s", diff)
		}
	})
	t.Run("ModelInventsKeepsExtractive", func(t *testing.T) {
		f := aiFixture(t, AIConfig{Service: model(t, `{"answer":"The limit is ₹99,999.","citations":[1]}`)})
		got := decode[search.Response](t, target, f.get(t, target)).Answer
		want := extractive.Answer
		want.ModelFallback = search.FallbackNoAnswer
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("answer (-extractive +got):\n%s", diff)
		}
	})
}
