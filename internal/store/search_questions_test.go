package store

import (
	"strings"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/search/searchtest"
)

// questionsPath is the question set of the direct answer.
const questionsPath = "../search/testdata/questions.txt"

// readQuestionSet reads the question set and checks it against cat: at
// least 40 questions, every answer type, questions the content does not
// answer, and every fact stated by one of its circulars.
func readQuestionSet(t *testing.T, cat *catalog.Catalog) []searchtest.Question {
	t.Helper()
	qs, err := searchtest.ReadQuestions(questionsPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 40 {
		t.Fatalf("%d questions; the set needs at least 40", len(qs))
	}
	types := map[string]int{}
	unanswerable := 0
	for _, q := range qs {
		types[q.Type]++
		if !q.Answerable() {
			unanswerable++
			continue
		}
		stated := false
		for _, slug := range q.Circulars {
			c, ok := circularBySlug(cat, slug)
			if !ok {
				t.Fatalf("line %d: no circular %s in content/", q.Line, slug)
			}
			stated = stated || searchtest.HoldsFact(q, c.Title+"\n"+string(c.Summary)+"\n"+c.Content)
		}
		if !stated {
			t.Errorf("line %d: none of %v states %q", q.Line, q.Circulars, q.Facts)
		}
	}
	for _, typ := range search.AnswerTypes {
		if types[typ] == 0 {
			t.Errorf("no question asks for a %s", typ)
		}
	}
	if unanswerable < 5 {
		t.Errorf("%d questions the content does not answer; want at least 5", unanswerable)
	}
	return qs
}

// TestSearch_Questions asks the question set through the search over the
// real content and judges each direct answer: answered with the fact (and
// citing a circular stating it), answered without it (wrong), unanswered.
// It fails when fewer than 85% of the answerable questions are answered
// with their fact, when more than 5% of all answers are wrong, or when a
// question's kind is misread.
func TestSearch_Questions(t *testing.T) {
	forEachStore(t, func(t *testing.T, open opener) {
		cat, err := catalog.Load("../../content")
		if err != nil {
			t.Fatal(err)
		}
		db := openSynced(t, open, cat)
		var r searchtest.Report
		for _, q := range readQuestionSet(t, cat) {
			res, err := db.Search(t.Context(), search.Query{Text: q.Text})
			if err != nil {
				t.Fatalf("%q: %v", q.Text, err)
			}
			r.Add(q, res.Answer)
			if string(res.Answer.AnswerType) != q.Type {
				t.Errorf("line %d: %q read as asking for %q, want %q", q.Line, q.Text, res.Answer.AnswerType, q.Type)
			}
		}
		t.Log(r.Summary())
		if misses := r.Misses(); len(misses) > 0 {
			t.Logf("misses:\n%s", strings.Join(misses, "\n"))
		}
		if f := r.Failure(); f != "" {
			t.Error(f)
		}
		// Every answer's fact is where the answer says it is.
		for _, res := range r.Results {
			if f := res.Answer.Fact; f != nil && highlighted(string(res.Answer.DirectAnswer), f.Start, f.End) != f.Text {
				t.Errorf("line %d: fact %q is not at [%d, %d) of %q", res.Question.Line, f.Text, f.Start, f.End, res.Answer.DirectAnswer)
			}
		}
	})
}

// highlighted is text's [start, end) in UTF-16 offsets, "" when out of it.
func highlighted(text string, start, end int) string {
	u := 0
	from, to := -1, -1
	for i, r := range text {
		if u == start {
			from = i
		}
		if u == end {
			to = i
		}
		if r >= 0x10000 {
			u += 2
		} else {
			u++
		}
	}
	if u == end {
		to = len(text)
	}
	if from < 0 || to < from {
		return ""
	}
	return text[from:to]
}
