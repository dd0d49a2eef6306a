package search

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// Hit is a circular a store found, with the tier it matched in.
type Hit struct {
	Circular catalog.Circular
	Tier     int
}

// Results is what a store finds for a Plan: the page of hits, the top
// hits the answer is drawn from, the total and the facet counts.
type Results struct {
	Hits  []Hit
	Top   []Hit // the best AnswerSources hits, whatever the page
	Total int
	// Facets count the matches by each filter's values, with the other
	// filter applied (what choosing the value would give).
	Facets Facets
}

// Facets counts matches per source and per category.
type Facets struct {
	Source   map[string]int `json:"source"`
	Category map[string]int `json:"category"`
}

// Response is GET /api/search's answer.
type Response struct {
	// Circulars is never nil (Respond): a plain slice rather than a
	// catalog.List, whose MarshalJSON would have encoding/json check
	// its long output a second time.
	Circulars  []catalog.Circular `json:"circulars"`
	Answer     Answer             `json:"answer"`
	Pagination Pagination         `json:"pagination"`
	Facets     Facets             `json:"facets"`
	// Correction, when terms were misspelt, says what was searched instead.
	Correction *Correction `json:"correction"`
	// Latest says the strong matches are sorted newest first (a UPI query).
	Latest bool `json:"latest"`
}

// Answer is the direct answer to a query: a passage of the best circulars,
// how far it can be trusted (0 to 1) and where it comes from.
type Answer struct {
	// DirectAnswer is null when no passage answers the query well enough:
	// no answer rather than a wrong one.
	DirectAnswer catalog.OptString    `json:"directAnswer"`
	Confidence   float64              `json:"confidence"`
	Sources      catalog.List[Source] `json:"sources"`
	// Method is how the answer was made: "extractive" (passages chosen
	// from the circulars by the ranking, no language model) or "model"
	// (written by the configured language model from those circulars,
	// checked against them; Model names it).
	Method string `json:"method" enum:"AnswerMethod"`
	// Model is the language model that wrote the answer; null when
	// extractive.
	Model catalog.OptString `json:"model"`
}

// AnswerMethods are the ways an answer is made.
var AnswerMethods = []string{MethodExtractive, MethodModel}

// MethodExtractive: the answer is sentences of the circulars themselves.
const MethodExtractive = "extractive"

// MethodModel: a language model wrote the answer from the circulars.
const MethodModel = "model"

// Source is a circular an answer draws on, with the passage that matched.
type Source struct {
	CircularID      string             `json:"circularId"`
	Slug            string             `json:"slug"`
	Source          string             `json:"source" enum:"Source"`
	Title           string             `json:"title"`
	RelevantExcerpt string             `json:"relevantExcerpt"`
	Highlights      catalog.List[Span] `json:"highlights"`
	OfficialURL     catalog.OptString  `json:"officialUrl"`
}

// Span is a part of a text that matched the query, as UTF-16 offsets
// (how JavaScript indexes strings): [Start, End).
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Pagination says where a page sits among the results.
type Pagination struct {
	CurrentPage  int  `json:"currentPage"`
	TotalPages   int  `json:"totalPages"`
	TotalResults int  `json:"totalResults"`
	HasPrev      bool `json:"hasPrev"`
	HasNext      bool `json:"hasNext"`
}

// AnswerSources is how many circulars an answer draws on.
const AnswerSources = 3

// Respond turns a store's results for p into the response.
func Respond(p Plan, r Results) Response {
	pages := (r.Total + PageSize - 1) / PageSize
	page := max(p.Query.Page, 1)
	cs := make([]catalog.Circular, len(r.Hits))
	for i, h := range r.Hits {
		cs[i] = h.Circular
	}
	f := r.Facets
	if f.Source == nil {
		f.Source = map[string]int{}
	}
	if f.Category == nil {
		f.Category = map[string]int{}
	}
	return Response{
		Circulars: cs,
		Answer:    Extract(p, r.Top),
		Pagination: Pagination{
			CurrentPage: page, TotalPages: pages, TotalResults: r.Total,
			HasPrev: page > 1, HasNext: page < pages,
		},
		Facets:     f,
		Correction: p.Correction(),
		Latest:     p.Latest,
	}
}

// tierConfidence is how much a match of each tier says about relevance:
// the number typed is near certain; terms only scattered through the text
// say little.
var tierConfidence = [...]float64{TierNumber: 0.95, TierStrong: 0.85, TierAll: 0.7, TierAny: 0.45}

// minConfidence is the least confidence an answer is given with.
const minConfidence = 0.35

// passage is a sentence of a hit and how well it answers.
type passage struct {
	hit      int
	text     string
	spans    []Span
	coverage float64 // share of the query's terms it holds
}

// Extract chooses the answer: for each top hit the sentence (of its summary
// or text) holding most of the query's terms, earlier hits winning ties;
// the direct answer is the best of them. Confidence is the hit's tier
// confidence times the share of terms the sentence holds, less for a
// corrected query; below minConfidence there is no direct answer.
func Extract(p Plan, top []Hit) Answer {
	a := Answer{Method: MethodExtractive}
	m := newMatcher(p)
	var best *passage
	for i, h := range top {
		ps := bestPassage(h.Circular, m)
		ps.hit = i
		a.Sources = append(a.Sources, Source{
			CircularID: h.Circular.ID, Slug: h.Circular.Slug, Source: h.Circular.Source, Title: h.Circular.Title,
			RelevantExcerpt: ps.text, Highlights: ps.spans, OfficialURL: h.Circular.OfficialURL,
		})
		if best == nil || ps.coverage > best.coverage {
			best = &ps
		}
	}
	if best == nil || best.text == "" {
		return a
	}
	conf := tierConfidence[min(top[best.hit].Tier, TierAny)]
	if top[best.hit].Tier != TierNumber {
		conf *= best.coverage
	}
	if p.Correction() != nil {
		conf *= 0.8
	}
	a.Confidence = math.Round(conf*100) / 100
	if a.Confidence >= minConfidence {
		a.DirectAnswer = catalog.OptString(best.text)
		// The answer's own circular first among the sources.
		if best.hit > 0 {
			s := a.Sources[best.hit]
			a.Sources = slices.Delete(a.Sources, best.hit, best.hit+1)
			a.Sources = slices.Insert(a.Sources, 0, s)
		}
	}
	return a
}

// matcher tells which of a query's terms the words of a text are, keying
// each distinct word once: an answer reads the same few hundred words
// thousands of times.
type matcher struct {
	keys   map[string]int // key -> the term it belongs to
	words  map[string]int // lower-cased word -> its term, or -1
	nTerms int
	seen   []int // per term, the coverage call that last met it
	calls  int
	buf    []byte
}

func newMatcher(p Plan) *matcher {
	m := &matcher{keys: map[string]int{}, words: map[string]int{}, nTerms: len(p.Terms), seen: make([]int, len(p.Terms))}
	for i, t := range p.Terms {
		for _, k := range t.Keys {
			m.keys[k] = i
		}
	}
	return m
}

// term is the term word (as written) belongs to, or -1.
func (m *matcher) term(word string) int {
	if hasUpperASCII(word) {
		m.buf = append(m.buf[:0], word...)
		for j, ch := range m.buf {
			if 'A' <= ch && ch <= 'Z' {
				m.buf[j] = ch + 'a' - 'A'
			}
		}
		if t, ok := m.words[string(m.buf)]; ok {
			return t
		}
	} else if t, ok := m.words[word]; ok {
		return t
	}
	w := strings.ToLower(word)
	t, ok := m.keys[Key(w)]
	if !ok {
		t = -1
	}
	m.words[w] = t
	return t
}

// coverage is the share of the query's terms text holds.
func (m *matcher) coverage(text string) float64 {
	if m.nTerms == 0 {
		return 0
	}
	m.calls++
	n := 0
	eachWord(text, func(start, end int) {
		if t := m.term(text[start:end]); t >= 0 && m.seen[t] != m.calls {
			m.seen[t] = m.calls
			n++
		}
	})
	return float64(n) / float64(m.nTerms)
}

// spans are where text holds the query's terms.
func (m *matcher) spans(text string) []Span {
	var spans []Span
	at, u := 0, 0 // a byte offset and its UTF-16 offset
	eachWord(text, func(start, end int) {
		if m.term(text[start:end]) < 0 {
			return
		}
		u += utf16Len(text[at:start])
		sp := Span{Start: u}
		u += utf16Len(text[start:end])
		sp.End, at = u, end
		spans = append(spans, sp)
	})
	return spans
}

// bestPassage is c's sentence holding most terms (the summary's first,
// then the text's, in order), with the next sentence when it is short and
// holds terms too.
func bestPassage(c catalog.Circular, m *matcher) passage {
	var best passage
	var sentences []string
	for _, text := range []string{string(c.Summary), c.Content} {
		sentences = append(sentences, Sentences(text)...)
	}
	for i, s := range sentences {
		cov := m.coverage(s)
		if cov > best.coverage {
			best = passage{text: s, coverage: cov}
			if i+1 < len(sentences) && len(s) < 160 {
				next := sentences[i+1]
				if m.coverage(next) > 0 && len(s)+len(next) < 320 {
					best.text = s + " " + next
				}
			}
		}
	}
	if best.text == "" && len(sentences) > 0 {
		best.text = sentences[0]
	}
	if best.coverage > 0 {
		best.spans = m.spans(best.text)
	}
	return best
}

// utf16Len is how many UTF-16 code units s takes.
func utf16Len(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			n = 0
			for _, r := range s {
				n += utf16.RuneLen(r)
			}
			break
		}
	}
	return n
}

// abbreviations end with a full stop that does not end a sentence.
var abbreviations = map[string]bool{
	"no": true, "nos": true, "rs": true, "dr": true, "mr": true, "ms": true, "viz": true, "etc": true,
	"e.g": true, "i.e": true, "vs": true, "sr": true, "st": true, "co": true, "ltd": true, "govt": true,
}

// emphasis is Markdown's emphasis and code marks, dropped from sentences.
var emphasis = strings.NewReplacer("**", "", "__", "", "`", "")

// listMarker is a Markdown heading, quote or list marker at a line's start.
var listMarker = regexp.MustCompile(`^(?:#+|>|[-*+]|\d+[.)])\s+`)

// Sentences splits Markdown text into sentences: at line breaks (headings,
// list items) and after ., ! or ? followed by a space and a capital or
// digit, unless the word before is an abbreviation ("No. 12").
func Sentences(text string) []string {
	var out []string
	for line := range strings.SplitSeq(text, "\n") {
		line = listMarker.ReplaceAllString(strings.TrimSpace(line), "")
		line = emphasis.Replace(line)
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if (c != '.' && c != '!' && c != '?') || i+2 >= len(line) || line[i+1] != ' ' {
				continue
			}
			next := rune(line[i+2])
			if !unicode.IsUpper(next) && !unicode.IsDigit(next) {
				continue
			}
			if c == '.' {
				w := line[strings.LastIndexAny(line[:i], " (")+1 : i]
				if abbreviations[strings.ToLower(w)] || len(w) == 1 {
					continue
				}
			}
			if s := strings.TrimSpace(line[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 2
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}
