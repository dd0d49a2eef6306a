package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/ai/local"
	"regpulse/internal/ai/openai"
	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/searchtest"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// standIn is an OpenAI-compatible model for tests: it answers every
// question with reply(the first passage of its prompt), citing passage 1.
func standIn(t *testing.T, reply func(passage string) string) AI {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) < 2 {
			t.Errorf("model request: %v", err)
			return
		}
		// The prompt quotes each passage between """ lines (prompts/answer.txt).
		_, rest, _ := strings.Cut(req.Messages[1].Content, "\"\"\"\n")
		passage, _, _ := strings.Cut(rest, "\n\"\"\"")
		content, _ := json.Marshal(map[string]any{"answer": reply(passage), "citations": []int{1}})
		b, _ := json.Marshal(string(content))
		fmt.Fprintf(w, `{"choices":[{"message":{"role":"assistant","content":%s}}]}`, b)
	}))
	t.Cleanup(srv.Close)
	p, err := openai.New(openai.Config{BaseURL: srv.URL, Model: "stand-in", Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return ai.NewService(p, local.New(), ai.WithLogger(discardLog))
}

// TestSearch_QuestionsModel asks the question set (internal/search/
// testdata/questions.txt) through GET /api/search over the real content
// with a model configured: a stand-in that answers faithfully from the
// sentences it is given, one that changes their figures, and one that
// answers without stating anything. The invention guard and the check of
// the asked fact keep the facts: each answers at least as many questions
// with their fact as the extractive answer alone, and meets the set's bars.
func TestSearch_QuestionsModel(t *testing.T) {
	db := syncedContent(t)
	qs, err := searchtest.ReadQuestions("../internal/search/testdata/questions.txt")
	if err != nil {
		t.Fatal(err)
	}
	ask := func(t *testing.T, svc AI) (searchtest.Report, map[string]int) {
		f := &fixture{api: New(db, discardLog, WithAI(AIConfig{Service: svc, RateLimit: 1 << 30}))}
		var r searchtest.Report
		how := map[string]int{}
		for _, q := range qs {
			target := "/search?q=" + url.QueryEscape(q.Text)
			a := decode[search.Response](t, target, f.get(t, target)).Answer
			r.Add(q, a)
			if a.DirectAnswer != "" {
				how[a.Method+" "+string(a.ModelFallback)]++
			}
		}
		t.Logf("%s; answers by method and fallback: %v", r.Summary(), how)
		return r, how
	}
	extractive, _ := ask(t, nil)
	if f := extractive.Failure(); f != "" {
		t.Fatalf("extractive: %s", f)
	}
	held := func(t *testing.T, r searchtest.Report) {
		t.Helper()
		if r.Answered < extractive.Answered {
			t.Errorf("%d questions answered with their fact, fewer than the extractive answer's %d:\n%s",
				r.Answered, extractive.Answered, strings.Join(r.Misses(), "\n"))
		}
		if f := r.Failure(); f != "" {
			t.Error(f)
		}
	}

	t.Run("Faithful", func(t *testing.T) {
		// Answers with the sentences it was given: the model's answer is
		// shown, its fact marked in it.
		r, how := ask(t, standIn(t, func(p string) string { return p }))
		held(t, r)
		for _, res := range r.Results {
			a := res.Answer
			if a.DirectAnswer == "" {
				continue
			}
			if a.Method != search.MethodModel || a.Model != "stand-in" || a.ModelFallback != "" {
				t.Errorf("line %d: answer by %s/%s, fallback %q; want the model's", res.Question.Line, a.Method, a.Model, a.ModelFallback)
			}
			if a.AnswerType != "" && a.AnswerType != search.AnswerDefinition && (a.Fact == nil || !strings.Contains(string(a.DirectAnswer), a.Fact.Text)) {
				t.Errorf("line %d: model's answer %q, fact %+v; want its fact marked", res.Question.Line, a.DirectAnswer, a.Fact)
			}
		}
		if how[search.MethodModel+" "] == 0 {
			t.Error("no model answer shown")
		}
	})
	t.Run("Inventing", func(t *testing.T) {
		// Changes every digit: the guard refuses it twice, and the
		// extractive answer stays, saying why.
		shift := strings.NewReplacer("0", "1", "1", "2", "2", "3", "3", "4", "4", "5", "5", "6", "6", "7", "7", "8", "8", "9", "9", "0")
		r, how := ask(t, standIn(t, shift.Replace))
		held(t, r)
		if how[search.MethodExtractive+" "+search.FallbackNoAnswer] == 0 {
			t.Errorf("no invention refused: %v", how)
		}
		for _, res := range r.Results {
			if a := res.Answer; a.Method == search.MethodModel && a.DirectAnswer != catalog.OptString(shift.Replace(string(a.DirectAnswer))) {
				t.Errorf("line %d: the model's changed figures shown: %q", res.Question.Line, a.DirectAnswer)
			}
		}
	})
	t.Run("Vague", func(t *testing.T) {
		// States no fact: wherever the extraction found the asked fact the
		// extractive answer stays, saying the model's lacked it. A
		// definition has no fact of a kind to hold a model to: those
		// answers are the model's, and are counted apart.
		vague := standIn(t, func(string) string { return "The circular sets out what applies; see the passage cited." })
		var typed []searchtest.Question
		for _, q := range qs {
			if q.Type != search.AnswerDefinition {
				typed = append(typed, q)
			}
		}
		all, how := ask(t, vague)
		var r searchtest.Report
		for _, res := range all.Results {
			if res.Question.Type == search.AnswerDefinition {
				continue
			}
			r.Add(res.Question, res.Answer)
			if a := res.Answer; a.DirectAnswer != "" && a.ModelFallback != search.FallbackMissingFact {
				t.Errorf("line %d: answer %q by %s, fallback %q; want the extractive one for want of the fact", res.Question.Line, a.DirectAnswer, a.Method, a.ModelFallback)
			}
		}
		t.Logf("questions of a kind (%d): %s; all answers: %v", len(typed), r.Summary(), how)
		if f := r.Failure(); f != "" {
			t.Error(f)
		}
	})
}

// syncedContent is an in-memory SQLite store holding the real content,
// on the tests' clock.
func syncedContent(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(t.Context(), ":memory:", store.WithNow(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cat, err := catalog.Load("../content")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestSearch_ProvisionAnswer: over the real content, a question that a
// Master Direction's provision in force answers is answered from it, the
// answer citing the direction, the paragraph and its place on the
// direction's page, and the provisions listing it apart from the
// circulars; with a model configured the answer stays the provision's
// words (the model writes from circulars).
func TestSearch_ProvisionAnswer(t *testing.T) {
	db := syncedContent(t)
	const q = "what details are collected before issuing a small PPI"
	for name, svc := range map[string]AI{"Extractive": nil, "Model": standIn(t, func(p string) string { return p })} {
		t.Run(name, func(t *testing.T) {
			f := &fixture{api: New(db, discardLog, WithAI(AIConfig{Service: svc, RateLimit: 1 << 30}))}
			target := "/search?q=" + url.QueryEscape(q)
			res := decode[search.Response](t, target, f.get(t, target))
			a := res.Answer
			if a.Provision == nil {
				t.Fatalf("answer %q from %v; want one from a provision", a.DirectAnswer, a.Sources)
			}
			got := fmt.Sprintf("%s para %s (%s) %s %s", a.Provision.DirectionTitle, a.Provision.ID, a.Provision.Heading, a.Provision.URL, a.Method)
			want := "MD-PPIs, 2021 para 9.1(i)(b) (Small PPIs that can be reloaded: minimum details) /master-directions/ppi-2021/#p-9-1-i-b extractive"
			if got != want || !strings.Contains(a.Provision.Text, string(a.DirectAnswer)) || a.ModelFallback != "" {
				t.Errorf("answer %q cites %s (fallback %q); want its words citing %s", a.DirectAnswer, got, a.ModelFallback, want)
			}
			if len(res.Provisions) == 0 || res.Provisions[0].ID != "9.1(i)(b)" || len(res.Circulars) == 0 {
				t.Errorf("provisions %+v beside %d circulars; want 9.1(i)(b) first, and the circulars still listed", res.Provisions, len(res.Circulars))
			}
		})
	}
}
