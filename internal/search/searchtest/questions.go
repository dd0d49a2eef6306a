// Package searchtest holds the question set of the search's direct answer
// (internal/search/testdata/questions.txt) and judges answers against it,
// for every path that answers: the store's search (extractive) and the
// API's model path.
package searchtest

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"

	"regpulse/internal/search"
)

// Question is one question of the set and what its answer must hold.
type Question struct {
	Line int
	Text string
	// Type is the kind of fact asked for: the answerType the search
	// must read from the question.
	Type string
	// Circulars are the slugs of the circulars that state the fact; the
	// answer must cite one of them. Empty when no circular does.
	Circulars []string
	// Facts are the texts the answer must hold, any one of them; empty
	// for a question the content does not answer.
	Facts []string
}

// Answerable reports whether the content states the asked fact.
func (q Question) Answerable() bool { return len(q.Facts) > 0 }

// ReadQuestions reads a question set: "question | type | circulars |
// fact | fact ...", "-" for no circulars and no fact.
func ReadQuestions(path string) ([]Question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Question
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "|")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if len(fields) < 4 {
			return nil, fmt.Errorf("%s:%d: want question | type | circulars | fact", path, n)
		}
		q := Question{Line: n, Text: fields[0], Type: fields[1]}
		if !slices.Contains(search.AnswerTypes, q.Type) {
			return nil, fmt.Errorf("%s:%d: type %q is none of %v", path, n, q.Type, search.AnswerTypes)
		}
		if fields[2] != "-" {
			for s := range strings.SplitSeq(fields[2], ",") {
				q.Circulars = append(q.Circulars, strings.TrimSpace(s))
			}
		}
		if fields[3] != "-" {
			q.Facts = fields[3:]
		}
		if (len(q.Circulars) == 0) != (len(q.Facts) == 0) {
			return nil, fmt.Errorf("%s:%d: a fact needs the circulars stating it, and no fact none", path, n)
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// LowConfidence is the confidence below which an answer to a question the
// content does not answer is not counted wrong: shown, it is shown as
// doubtful.
const LowConfidence = 0.5

// Outcome is how an answer fares against its question.
type Outcome int

const (
	// Answered: the answer states the fact and cites a circular stating it
	// (or, for a question the content does not answer, there is none or
	// it is of low confidence).
	Answered Outcome = iota
	// Wrong: an answer that does not state the fact, or cites another
	// circular, or answers what the content does not with confidence.
	Wrong
	// Unanswered: no direct answer to a question the content answers.
	Unanswered
)

func (o Outcome) String() string { return [...]string{"answered", "wrong", "unanswered"}[o] }

// Judge says how a fares against q.
func Judge(q Question, a search.Answer) Outcome {
	if !q.Answerable() {
		if a.DirectAnswer == "" || a.Confidence < LowConfidence {
			return Answered
		}
		return Wrong
	}
	if a.DirectAnswer == "" {
		return Unanswered
	}
	if HoldsFact(q, string(a.DirectAnswer)) && len(a.Sources) > 0 && slices.Contains(q.Circulars, a.Sources[0].Slug) {
		return Answered
	}
	return Wrong
}

// HoldsFact reports whether text states one of q's facts.
func HoldsFact(q Question, text string) bool {
	t := Normalize(text)
	return slices.ContainsFunc(q.Facts, func(f string) bool { return strings.Contains(t, Normalize(f)) })
}

// Highlighted reports whether a's fact span covers (or lies within) one of
// q's facts: the card marks the asked fact itself.
func Highlighted(q Question, a search.Answer) bool {
	if a.Fact == nil {
		return false
	}
	u := utf16.Encode([]rune(string(a.DirectAnswer)))
	if a.Fact.Start < 0 || a.Fact.End > len(u) || a.Fact.Start >= a.Fact.End {
		return false
	}
	span := Normalize(string(utf16.Decode(u[a.Fact.Start:a.Fact.End])))
	return slices.ContainsFunc(q.Facts, func(f string) bool {
		f = Normalize(f)
		return strings.Contains(span, f) || strings.Contains(f, span)
	})
}

var (
	spaces     = regexp.MustCompile(`\s+`)
	grouping   = regexp.MustCompile(`(\d),(\d)`)
	rupees     = regexp.MustCompile(`\b(?:rs\.?|inr)\s*(\d)`)
	typography = strings.NewReplacer("’", "'", "‘", "'", "“", `"`, "”", `"`, "\u00a0", " ")
	// A hyphen or dash between words is a space: "one-year" is "one year".
	dashes = regexp.MustCompile(`(\pL)\s*[-‑–—]\s*(\pL)`)
)

// Normalize is text as facts are compared: lower-cased, typography
// plain, one space between words (a hyphen between letters is one), no digit grouping ("1,000" is "1000")
// and rupees written ₹ ("Rs. 500" is "₹500").
func Normalize(text string) string {
	s := typography.Replace(strings.ToLower(text))
	s = dashes.ReplaceAllString(s, "$1 $2")
	s = spaces.ReplaceAllString(strings.TrimSpace(s), " ")
	for grouping.MatchString(s) {
		s = grouping.ReplaceAllString(s, "$1$2")
	}
	return rupees.ReplaceAllString(s, "₹$1")
}

// Result is a question, the answer given and how it fared.
type Result struct {
	Question Question
	Answer   search.Answer
	Outcome  Outcome
}

// Report sums up a run of the question set.
type Report struct {
	Results []Result
	// Answerable and Unanswerable count the questions of each kind.
	Answerable, Unanswerable int
	// Answered: answerable questions answered with the fact; Wrong:
	// answers without it (or to a question the content does not answer,
	// with confidence); Unanswered: answerable questions without an
	// answer; Abstained: unanswerable ones rightly left without one (or
	// with a doubtful one); Highlighted: answers whose fact span is the
	// asked fact; TypeRead: questions whose answerType is the set's.
	Answered, Wrong, Unanswered, Abstained, Highlighted, TypeRead int
}

// Add judges one answer.
func (r *Report) Add(q Question, a search.Answer) Result {
	res := Result{Question: q, Answer: a, Outcome: Judge(q, a)}
	r.Results = append(r.Results, res)
	if string(a.AnswerType) == q.Type {
		r.TypeRead++
	}
	switch {
	case !q.Answerable():
		r.Unanswerable++
		if res.Outcome == Answered {
			r.Abstained++
		} else {
			r.Wrong++
		}
	default:
		r.Answerable++
		switch res.Outcome {
		case Answered:
			r.Answered++
			if Highlighted(q, a) {
				r.Highlighted++
			}
		case Wrong:
			r.Wrong++
		case Unanswered:
			r.Unanswered++
		}
	}
	return res
}

// The set's bars: answered with the fact for at least MinAnswered of the
// answerable questions, wrong for at most MaxWrong of all.
const (
	MinAnswered = 0.85
	MaxWrong    = 0.05
)

// Total is how many questions were judged.
func (r *Report) Total() int { return r.Answerable + r.Unanswerable }

// Summary is the report's figures in a line.
func (r *Report) Summary() string {
	pct := func(n, of int) float64 {
		if of == 0 {
			return 0
		}
		return 100 * float64(n) / float64(of)
	}
	return fmt.Sprintf("%d questions (%d answerable): answered with the fact %d (%.1f%%), wrong %d (%.1f%% of all), "+
		"unanswered %d; %d of %d unanswerable left without a confident answer; fact highlighted in %d of %d answers; "+
		"answer type read for %d of %d",
		r.Total(), r.Answerable, r.Answered, pct(r.Answered, r.Answerable), r.Wrong, pct(r.Wrong, r.Total()),
		r.Unanswered, r.Abstained, r.Unanswerable, r.Highlighted, r.Answered, r.TypeRead, r.Total())
}

// Failure says what bar the report misses, "" when it meets them.
func (r *Report) Failure() string {
	var out []string
	if r.Answerable == 0 || float64(r.Answered) < MinAnswered*float64(r.Answerable) {
		out = append(out, fmt.Sprintf("answered with the fact %d of %d answerable, want at least %.0f%%", r.Answered, r.Answerable, 100*MinAnswered))
	}
	if float64(r.Wrong) > MaxWrong*float64(r.Total()) {
		out = append(out, fmt.Sprintf("%d wrong answers of %d questions, want at most %.0f%%", r.Wrong, r.Total(), 100*MaxWrong))
	}
	return strings.Join(out, "; ")
}

// Misses are the results that are not right, one line each.
func (r *Report) Misses() []string {
	var out []string
	for _, res := range r.Results {
		if res.Outcome == Answered {
			continue
		}
		src := ""
		if len(res.Answer.Sources) > 0 {
			src = res.Answer.Sources[0].Slug
		}
		out = append(out, fmt.Sprintf("line %d %s: %q (%s; want %q from %v): answer %q (%.2f, %s, type %q)",
			res.Question.Line, res.Outcome, res.Question.Text, res.Question.Type, res.Question.Facts, res.Question.Circulars,
			res.Answer.DirectAnswer, res.Answer.Confidence, src, res.Answer.AnswerType))
	}
	return out
}
