package search

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// Hit is a circular a store found, or a provision in force, with the
// tier it matched in.
type Hit struct {
	Circular catalog.Circular
	// Provision, when set, is the provision the hit is (and Circular is
	// empty): a direct answer may come from it.
	Provision *ProvisionHit
	Tier      int
	// Stamp names Circular as the store read it (Response.Stamps); 0
	// when the store names none.
	Stamp uint64
}

// Results is what a store finds for a Plan: the page of hits, the top
// hits the answer is drawn from, the total and the facet counts.
type Results struct {
	Hits []Hit
	Top  []Hit // the best AnswerSources hits, whatever the page
	// Provisions are the best ProvisionResults provisions in force (on
	// the first page), the best of which the answer may draw on too.
	Provisions []Hit
	Total      int
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
	Circulars []catalog.Circular `json:"circulars"`
	// Provisions are the Master Directions' provisions in force that
	// match best (on the first page; never nil), apart from the
	// circulars so that their list and pagination stay the circulars'.
	Provisions catalog.List[ProvisionHit] `json:"provisions"`
	Answer     Answer                     `json:"answer"`
	Pagination Pagination                 `json:"pagination"`
	Facets     Facets                     `json:"facets"`
	// Correction, when terms were misspelt, says what was searched instead.
	Correction *Correction `json:"correction"`
	// Latest says the strong matches are sorted newest first (a UPI query).
	Latest bool `json:"latest"`
	// Stamps name each of Circulars as the store read it: within a
	// process, two circulars of the same stamp are the same bytes, so
	// what is made from one (its JSON) may be kept for the other. 0 names
	// none.
	Stamps []uint64 `json:"-"`
}

// Answer is the direct answer to a query: a passage of the best circulars,
// how far it can be trusted (0 to 1) and where it comes from.
type Answer struct {
	// DirectAnswer is null when no passage answers the query well enough:
	// no answer rather than a wrong one.
	DirectAnswer catalog.OptString    `json:"directAnswer"`
	Confidence   float64              `json:"confidence"`
	Sources      catalog.List[Source] `json:"sources"`
	// Provision is the Master Direction's provision in force the direct
	// answer is drawn from, its citation; null when the answer is a
	// circular's (Sources' first) or there is none. Sources are then
	// the circulars found, for further reading.
	Provision *ProvisionHit `json:"provision"`
	// Method is how the answer was made: "extractive" (passages chosen
	// from the circulars by the ranking, no language model) or "model"
	// (written by the configured language model from those circulars,
	// checked against them; Model names it).
	Method string `json:"method" enum:"AnswerMethod"`
	// Model is the language model that wrote the answer; null when
	// extractive.
	Model catalog.OptString `json:"model"`
	// AnswerType is the kind of fact the query asks for (AnswerTypes);
	// null for a query that asks none (a topic).
	AnswerType catalog.OptString `json:"answerType" enum:"AnswerType"`
	// Fact is where DirectAnswer states the asked fact; nil when there is
	// no direct answer or the query asks no fact of a kind (a topic, a
	// definition).
	Fact *Fact `json:"fact"`
	// ModelFallback says why a configured model's answer is not the one
	// shown (ModelFallbacks); null when it is, or when no model was asked.
	ModelFallback catalog.OptString `json:"modelFallback" enum:"ModelFallback"`
}

// Fact is the asked fact within a direct answer: its text and where it
// is, as UTF-16 offsets into the answer [Start, End).
type Fact struct {
	Text  string `json:"text"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Kind is the fact's kind (a Value kind, "modal" or "party"), Keys its
	// readings: Locate finds the same fact in another text by them.
	Kind string   `json:"-"`
	Keys []string `json:"-"`
}

// AnswerMethods are the ways an answer is made.
var AnswerMethods = []string{MethodExtractive, MethodModel}

// MethodExtractive: the answer is sentences of the circulars themselves.
const MethodExtractive = "extractive"

// MethodModel: a language model wrote the answer from the circulars.
const MethodModel = "model"

// Why a model's answer is not shown, the extractive one standing instead.
const (
	// FallbackMissingFact: the model's answer does not state the fact of
	// the asked kind that the circulars' sentence states.
	FallbackMissingFact = "missingFact"
	// FallbackNoAnswer: the model gave no usable answer (it failed, its
	// answer was malformed, or it stated values its sources do not).
	FallbackNoAnswer = "noAnswer"
)

// ModelFallbacks are the reasons a model's answer is not shown.
var ModelFallbacks = []string{FallbackMissingFact, FallbackNoAnswer}

// Source is a circular an answer draws on, with the passage that matched.
type Source struct {
	CircularID string `json:"circularId"`
	Slug       string `json:"slug"`
	Source     string `json:"source" enum:"Source"`
	Title      string `json:"title"`
	// Lang is the circular's language (catalog's Circular.Lang): its
	// title and excerpt carry it where it is not the page's.
	Lang            string             `json:"lang" enum:"Lang"`
	RelevantExcerpt string             `json:"relevantExcerpt"`
	Highlights      catalog.List[Span] `json:"highlights"`
	OfficialURL     catalog.OptString  `json:"officialUrl"`
	// Passage is the circular's sentences that answer the query best, in
	// their order: what a model writes its answer from.
	Passage string `json:"-"`
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
	stamps := make([]uint64, len(r.Hits))
	for i, h := range r.Hits {
		cs[i], stamps[i] = h.Circular, h.Stamp
	}
	m := newMatcher(p, false)
	ps := make(catalog.List[ProvisionHit], len(r.Provisions))
	for i, h := range r.Provisions {
		ps[i] = *h.Provision
		ps[i].Highlights = m.spans(ps[i].Text)
	}
	f := r.Facets
	if f.Source == nil {
		f.Source = map[string]int{}
	}
	if f.Category == nil {
		f.Category = map[string]int{}
	}
	return Response{
		Circulars:  cs,
		Provisions: ps,
		Answer:     Extract(p, append(slices.Clip(r.Top), r.Provisions...)),
		Pagination: Pagination{
			CurrentPage: page, TotalPages: pages, TotalResults: r.Total,
			HasPrev: page > 1, HasNext: page < pages,
		},
		Facets:     f,
		Correction: p.Correction(),
		Latest:     p.Latest,
		Stamps:     stamps,
	}
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
	eachSentence(text, func(s string, _ int) { out = append(out, s) })
	return out
}

// eachSentence calls yield with each sentence of text and the number of
// the line (paragraph) it is on: sentences of one line are adjacent.
func eachSentence(text string, yield func(s string, line int)) {
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n++
		line = listMarker.ReplaceAllString(strings.TrimSpace(line), "")
		line = emphasis.Replace(line)
		start := 0
		for i := 0; i < len(line); i++ {
			c := line[i]
			if (c != '.' && c != '!' && c != '?') || i+2 >= len(line) || line[i+1] != ' ' {
				continue
			}
			next, _ := utf8.DecodeRuneInString(line[i+2:])
			if !unicode.IsUpper(next) && !unicode.IsDigit(next) && next != '₹' {
				continue
			}
			if c == '.' {
				w := line[strings.LastIndexAny(line[:i], " (")+1 : i]
				if abbreviations[strings.ToLower(w)] || len(w) == 1 {
					continue
				}
			}
			if s := strings.TrimSpace(line[start : i+1]); s != "" {
				yield(s, n)
			}
			start = i + 2
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			yield(s, n)
		}
	}
}
