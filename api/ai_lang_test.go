package api

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"regpulse/internal/ai"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
)

// langAI records the language each call asked for and answers in it.
type langAI struct {
	model bool
	mu    sync.Mutex
	langs []string
}

func (l *langAI) record(lang string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.langs = append(l.langs, lang)
}

func (l *langAI) Summarize(_ context.Context, req ai.SummaryRequest) (catalog.GeneratedSummary, error) {
	l.record(req.Lang)
	text := "A summary."
	if req.Lang == ai.LangHindi {
		text = "एक सारांश।"
	}
	return catalog.GeneratedSummary{Summary: text, Provider: "model", Model: "m"}, nil
}

func (l *langAI) AnalyzeImpact(_ context.Context, req ai.ImpactRequest) (catalog.ImpactAnalysis, error) {
	l.record(req.Lang)
	return catalog.ImpactAnalysis{CircularID: req.Circular.ID, EntityType: req.EntityType, ImpactLevel: "low", Reasons: catalog.TextList{"कारण।"}, Provider: "model", Model: "m"}, nil
}

func (l *langAI) Answer(context.Context, ai.AnswerRequest) (ai.Answer, error) {
	return ai.Answer{}, ai.ErrNoAnswer
}

func (l *langAI) HasModel() bool { return l.model }

// The AI calls take the page's language (lang=en|hi, English by default)
// and pass it to the service; a circular's Hindi answer from a model is
// answered, not stored over the English one.
func TestAI_Lang(t *testing.T) {
	svc := &langAI{model: true}
	f := aiFixture(t, AIConfig{Service: svc})
	id := circularID(storetest.SlugUPILite)

	sum := decode[catalog.GeneratedSummary](t, "summarize hi", f.post(t, "/ai/summarize?lang=hi", jsonType, `{"content":"Banks must report. It is due."}`))
	if sum.Summary != "एक सारांश।" {
		t.Errorf("summary %q, want the Hindi one", sum.Summary)
	}
	decode[catalog.GeneratedSummary](t, "summarize", f.post(t, "/ai/summarize", jsonType, `{"content":"Banks must report."}`))
	decode[catalog.GeneratedSummary](t, "summarize HI", f.post(t, "/ai/summarize?lang=HI", jsonType, `{"content":"Banks must report."}`))

	c := decode[catalog.Circular](t, "circular hi", f.post(t, "/circulars/"+id+"/summarize?lang=hi", "", ""))
	if c.AISummary == nil || c.AISummary.Summary != "एक सारांश।" {
		t.Errorf("aiSummary %+v, want the Hindi one", c.AISummary)
	}
	if _, stored := f.store.summaries[id]; stored {
		t.Errorf("a model's Hindi summary was stored: %+v", f.store.summaries[id])
	}
	decode[catalog.Circular](t, "circular en", f.post(t, "/circulars/"+id+"/summarize?lang=en", "", ""))
	if f.store.summaries[id].Summary != "A summary." {
		t.Errorf("stored %+v, want the English summary", f.store.summaries[id])
	}

	a := decode[catalog.ImpactAnalysis](t, "impact hi", f.post(t, "/circulars/"+id+"/impact?lang=hi", jsonType, `{"entityType":"PSP"}`))
	if a.Reasons[0] != "कारण।" || len(f.store.analyses) != 0 {
		t.Errorf("analysis %+v, %d stored; want it answered, not stored", a, len(f.store.analyses))
	}
	decode[catalog.ImpactAnalysis](t, "impact", f.post(t, "/circulars/"+id+"/impact", jsonType, `{"entityType":"PSP"}`))
	if len(f.store.analyses) != 1 {
		t.Errorf("%d analyses stored, want the English one", len(f.store.analyses))
	}

	want := []string{"hi", "en", "hi", "hi", "en", "hi", "en"}
	if len(svc.langs) != len(want) {
		t.Fatalf("langs %v, want %v", svc.langs, want)
	}
	for i := range want {
		if svc.langs[i] != want[i] {
			t.Errorf("call %d asked in %q, want %q (all: %v)", i, svc.langs[i], want[i], svc.langs)
		}
	}

	for _, tc := range []struct{ target, body string }{
		{"/ai/summarize?lang=fr", `{"content":"x"}`},
		{"/circulars/" + id + "/summarize?lang=hindi", ""},
		{"/circulars/" + id + "/impact?lang=en-IN", `{"entityType":"PSP"}`},
	} {
		wantErrorNaming(t, f.post(t, tc.target, jsonType, tc.body), http.StatusBadRequest, "lang")
	}
}

// Without a model, the local provider's answer is the same in either
// language (sentences of the text), and is stored as before.
func TestAI_LangLocalStored(t *testing.T) {
	svc := &langAI{model: false}
	f := aiFixture(t, AIConfig{Service: svc})
	id := circularID(storetest.SlugUPILite)
	decode[catalog.Circular](t, "circular hi", f.post(t, "/circulars/"+id+"/summarize?lang=hi", "", ""))
	if _, stored := f.store.summaries[id]; !stored {
		t.Error("the local provider's summary asked for from a Hindi page was not stored")
	}
}
