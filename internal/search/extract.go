package search

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"regpulse/internal/catalog"
)

// tierConfidence is how much a match of each tier says about relevance:
// the number typed is near certain; terms only scattered through the text
// say little.
var tierConfidence = [...]float64{TierNumber: 0.95, TierStrong: 0.85, TierAll: 0.7, TierAny: 0.45}

// minConfidence is the least confidence an answer is given with.
const minConfidence = 0.35

// rankDecay is how much less each later hit's sentences count than the
// one before's: retrieval's order is evidence too.
const rankDecay = 0.1

// passageSentences is how many of a circular's best sentences its Passage
// (what a model answers from) holds.
const passageSentences = 3

// maxAnswerBytes bounds an answer of two sentences.
const maxAnswerBytes = 420

// Extract chooses the direct answer from the top hits' sentences (their
// summary's, then their text's).
//
// A question (readQuestion) is answered by the sentence that states a
// fact of the asked kind (a date, an amount, a duration, a count, a
// permission or obligation, a party) and holds the question's terms, its
// rarer terms counting more (each term's weight is its inverse frequency
// among the candidate sentences) and the circular's title standing as
// context; a fact near the question's terms is preferred. The confidence
// is the hit's tier confidence (its tier recomputed without the words
// that only say what is asked, such as "how long") times how much of the
// question the sentence and its title hold; with no sentence of the asked
// kind there is no direct answer. Other queries (a topic, a definition)
// are answered by the sentence holding most terms, the confidence being
// the tier's times the share of terms held. A corrected query counts
// less; below minConfidence there is no direct answer.
func Extract(p Plan, top []Hit) Answer {
	x := newExtraction(p, top)
	a := Answer{Method: MethodExtractive}
	if x.q.typ != "" {
		a.AnswerType = catalog.OptString(x.q.typ)
	}
	best, bestHit := -1, -1
	for i := range x.hits {
		h := &x.hits[i]
		b := h.best()
		if b >= 0 && (best < 0 || h.sents[b].score > x.hits[bestHit].sents[best].score) {
			best, bestHit = b, i
		}
	}
	for i := range x.hits {
		h := &x.hits[i]
		ex := h.excerpt()
		a.Sources = append(a.Sources, Source{
			CircularID: h.hit.Circular.ID, Slug: h.hit.Circular.Slug, Source: h.hit.Circular.Source, Title: h.hit.Circular.Title,
			RelevantExcerpt: ex, Highlights: x.m.spans(ex), OfficialURL: h.hit.Circular.OfficialURL, Passage: h.passage(),
		})
	}
	if bestHit < 0 {
		return a
	}
	h := &x.hits[bestHit]
	s := &h.sents[best]
	conf := x.confidence(h, s)
	if p.Correction() != nil {
		conf *= 0.8
	}
	a.Confidence = math.Round(conf*100) / 100
	if a.Confidence < minConfidence || x.typed() && s.fact == nil {
		return a
	}
	text, offset := h.answer(best, x.typed())
	a.DirectAnswer = catalog.OptString(text)
	if s.fact != nil {
		f := s.fact
		start := offset + utf16Len(s.text[:f.start])
		a.Fact = &Fact{Text: s.text[f.start:f.end], Start: start, End: start + utf16Len(s.text[f.start:f.end]), Kind: f.kind, Keys: f.keys}
	}
	// The answer's own circular first among the sources, with the answer
	// as its excerpt.
	src := a.Sources[bestHit]
	src.RelevantExcerpt, src.Highlights = text, x.m.spans(text)
	a.Sources = slices.Delete(a.Sources, bestHit, bestHit+1)
	a.Sources = slices.Insert(a.Sources, 0, src)
	return a
}

// extraction is the work of one Extract: the question, its terms and
// their weights, and the hits' sentences scored.
type extraction struct {
	q    question
	m    *matcher
	hits []hitSentences
	// weight is each term's weight (0 for a cue, which is not looked
	// for); total their sum.
	weight []float64
	total  float64
}

// hitSentences is a hit's sentences and what they hold.
type hitSentences struct {
	x     *extraction
	rank  int
	hit   Hit
	tier  int   // the hit's tier for the question's terms without cues
	title []int // the terms of its number and title
	sents []sentence
}

// sentence is one sentence of a hit, scored.
type sentence struct {
	text  string
	line  int   // sentences of one line (paragraph) are adjacent
	terms []int // the question's terms it holds
	// cov is the weighted share of the question's terms it holds;
	// support the same with its circular's number and title.
	cov, support float64
	score        float64
	fact         *fact // the fact of the asked kind it states, if any
}

func newExtraction(p Plan, top []Hit) *extraction {
	x := &extraction{q: readQuestion(p.Query.Text)}
	x.m = newMatcher(p, x.q.typ != "")
	x.weight = make([]float64, len(p.Terms))
	active := 0
	for i, t := range p.Terms {
		if !x.q.cues[t.Word] {
			x.weight[i] = 1
			active++
		}
	}
	if active == 0 { // a question of cue words only ("how long") looks for them all
		for i := range x.weight {
			x.weight[i] = 1
		}
	}
	df := make([]int, len(p.Terms))
	n := 0
	for rank, h := range top {
		hs := hitSentences{x: x, rank: rank, hit: h, title: x.m.termsIn(string(h.Circular.CircularNumber)+" "+h.Circular.Title, nil)}
		line := 0
		for _, text := range []string{string(h.Circular.Summary), h.Circular.Content} {
			eachSentence(text, func(s string, l int) {
				terms := x.m.termsIn(s, nil)
				terms = slices.DeleteFunc(terms, func(t int) bool { return x.weight[t] == 0 })
				hs.sents = append(hs.sents, sentence{text: s, line: line + l, terms: terms})
				for _, t := range terms {
					df[t]++
				}
				n++
			})
			line += 1 << 20 // the summary's lines are not the text's
		}
		x.hits = append(x.hits, hs)
	}
	// A question's rarer terms say more about which sentence answers it
	// (inverse frequency among the candidates); a topic's terms count alike.
	if x.q.typ != "" {
		for i := range x.weight {
			if x.weight[i] > 0 {
				x.weight[i] = math.Log(1 + float64(n)/float64(1+df[i]))
			}
		}
	}
	for _, w := range x.weight {
		x.total += w
	}
	for i := range x.hits {
		x.hits[i].score()
	}
	return x
}

// typed reports whether the question asks for a fact of a kind the
// answer must state.
func (x *extraction) typed() bool {
	switch x.q.typ {
	case "", AnswerDefinition:
		return false
	}
	return true
}

// share is the weighted share of the question's terms held by the union
// of sets.
func (x *extraction) share(sets ...[]int) float64 {
	if x.total == 0 {
		return 0
	}
	var w float64
	seen := map[int]bool{}
	for _, set := range sets {
		for _, t := range set {
			if !seen[t] {
				seen[t] = true
				w += x.weight[t]
			}
		}
	}
	return w / x.total
}

// score scores each sentence of h.
func (h *hitSentences) score() {
	x := h.x
	// The hit's tier for the question's own terms: a question's "how
	// long" or "must" is in no circular, and should not make a strong
	// match look weak.
	var strong, all []int
	strong = x.m.termsIn(string(h.hit.Circular.CircularNumber)+" "+h.hit.Circular.Title+" "+string(h.hit.Circular.Summary), strong)
	all = x.m.termsIn(h.hit.Circular.Content, slices.Clone(strong))
	h.tier = h.hit.Tier
	if x.holdsAll(strong) {
		h.tier = min(h.tier, TierStrong)
	} else if x.holdsAll(all) {
		h.tier = min(h.tier, TierAll)
	}
	prior := tierConfidence[min(h.tier, TierAny)] * (1 - rankDecay*float64(h.rank))
	for i := range h.sents {
		s := &h.sents[i]
		s.cov = x.share(s.terms)
		s.support = x.share(s.terms, h.title)
		switch {
		case !x.typed():
			s.score = s.cov
			if x.q.typ == AnswerDefinition {
				s.score = prior * (0.7*s.cov + 0.3*s.support)
			}
		case s.cov > 0:
			f, near := h.factOf(s)
			if f != nil {
				s.fact = f
				s.score = prior * (0.5*s.cov + 0.3*s.support + 0.2*near) * f.strength
			}
		}
	}
}

// holdsAll reports whether terms holds every term looked for.
func (x *extraction) holdsAll(terms []int) bool {
	for t, w := range x.weight {
		if w > 0 && !slices.Contains(terms, t) {
			return false
		}
	}
	return true
}

// factOf is s's fact of the asked kind nearest the question's terms (the
// strongest on a tie), and how near it is: 1 beside the question's rarest
// term, less further off or beside a commoner one; a count beside the
// words it counts is as near as can be.
func (h *hitSentences) factOf(s *sentence) (*fact, float64) {
	x := h.x
	var words [][2]int
	eachWord(s.text, func(start, end int) { words = append(words, [2]int{start, end}) })
	isTerm := make([]bool, len(words))
	termAt := make([]int, len(words))
	var maxW float64
	for _, w := range x.weight {
		maxW = max(maxW, w)
	}
	for i, w := range words {
		termAt[i] = x.m.term(s.text[w[0]:w[1]])
		isTerm[i] = termAt[i] >= 0 && x.weight[termAt[i]] > 0
	}
	wordAt := func(b int) int { // the word at or after byte b
		return sort.Search(len(words), func(i int) bool { return words[i][1] > b })
	}
	var best *fact
	var bestNear, bestValue float64
	for _, f := range x.q.factsOf(s.text, words, isTerm) {
		first, last := wordAt(f.start), wordAt(f.end-1)
		var near float64
		for i := range words {
			if !isTerm[i] || i >= first && i <= last {
				continue
			}
			d := max(first-i, i-last) - 1
			near = max(near, x.weight[termAt[i]]/maxW/(1+float64(d)/4))
		}
		for i := max(0, first-3); i <= min(len(words)-1, last+3); i++ {
			if len(x.q.counted) > 0 && slices.Contains(x.q.counted, Key(strings.ToLower(s.text[words[i][0]:words[i][1]]))) {
				near = 1
			}
		}
		if v := f.strength * (0.5 + 0.5*near); best == nil || v > bestValue {
			f := f
			best, bestNear, bestValue = &f, near, v
		}
	}
	return best, bestNear
}

// best is the index of h's best sentence, -1 if none answers: for a
// question of a kind, the best-scoring one stating a fact of it; else the
// one holding most terms, the first on a tie.
func (h *hitSentences) best() int {
	b := -1
	for i, s := range h.sents {
		if h.x.typed() && s.fact == nil || !h.x.typed() && s.cov == 0 && h.x.q.typ != AnswerDefinition {
			continue
		}
		if b < 0 || s.score > h.sents[b].score {
			b = i
		}
	}
	return b
}

// excerpt is what h's source shows: its best sentence, else the one
// holding most terms, else its first.
func (h *hitSentences) excerpt() string {
	if b := h.best(); b >= 0 {
		text, _ := h.answer(b, h.x.typed())
		return text
	}
	b := -1
	for i, s := range h.sents {
		if s.cov > 0 && (b < 0 || s.cov > h.sents[b].cov) {
			b = i
		}
	}
	if b >= 0 {
		text, _ := h.answer(b, false)
		return text
	}
	if len(h.sents) > 0 {
		return h.sents[0].text
	}
	return ""
}

// passage is h's best sentences, in their order.
func (h *hitSentences) passage() string {
	idx := make([]int, len(h.sents))
	for i := range idx {
		idx[i] = i
	}
	rank := func(s sentence) float64 {
		if h.x.typed() && s.fact == nil {
			return s.cov / 2 // after every sentence of the asked kind
		}
		return s.score + s.cov
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ra, rb := rank(h.sents[a]), rank(h.sents[b])
		switch {
		case ra > rb:
			return -1
		case ra < rb:
			return 1
		}
		return 0
	})
	idx = idx[:min(len(idx), passageSentences)]
	slices.Sort(idx)
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = h.sents[i].text
	}
	return strings.Join(parts, " ")
}

// anaphora open a sentence that leans on the one before.
var anaphora = map[string]bool{"it": true, "this": true, "these": true, "they": true, "such": true, "that": true,
	"those": true, "its": true, "their": true, "there": true}

// answer is sentence i of h as an answer, with an adjacent sentence of
// its paragraph when it needs one, and the UTF-16 offset of sentence i
// in it. A question's answer takes the sentence before when sentence i
// leans on it ("It applies from ...") or when it adds terms sentence i
// lacks; any other answer the sentence after when sentence i is short
// and the next holds terms too.
func (h *hitSentences) answer(i int, typed bool) (string, int) {
	s := h.sents[i]
	if typed && i > 0 && h.sents[i-1].line == s.line && len(h.sents[i-1].text)+len(s.text) < maxAnswerBytes {
		prev := h.sents[i-1]
		first, _, _ := strings.Cut(s.text, " ")
		if anaphora[strings.ToLower(strings.TrimFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }))] ||
			s.cov < 0.5 && h.x.share(prev.terms, s.terms) >= s.cov+0.25 {
			return prev.text + " " + s.text, utf16Len(prev.text) + 1
		}
	}
	if !typed && i+1 < len(h.sents) && len(s.text) < 160 {
		next := h.sents[i+1]
		if len(next.terms) > 0 && len(s.text)+len(next.text) < 320 {
			return s.text + " " + next.text, 0
		}
	}
	return s.text, 0
}

// confidence is how far s, the answer, can be trusted.
func (x *extraction) confidence(h *hitSentences, s *sentence) float64 {
	switch {
	case h.hit.Tier == TierNumber && !x.typed():
		return tierConfidence[TierNumber]
	case !x.typed() && x.q.typ == "":
		return tierConfidence[min(h.tier, TierAny)] * s.cov
	case !x.typed():
		return tierConfidence[min(h.tier, TierAny)] * s.support
	case s.fact == nil:
		return tierConfidence[min(h.tier, TierAny)] * 0.3 * s.support
	}
	return tierConfidence[min(h.tier, TierAny)] * (0.4 + 0.6*s.support)
}

// matcher tells which of a query's terms the words of a text are, keying
// each distinct word once: an answer reads the same few hundred words
// thousands of times.
type matcher struct {
	keys  map[string]int // key -> the term it belongs to
	words map[string]int // lower-cased word -> its term, or -1
	seen  []int          // per term, the termsIn call that last met it
	calls int
	buf   []byte
}

// newMatcher matches p's terms; with synonyms, also the words a circular
// uses for them (a question's limit is a circular's cap).
func newMatcher(p Plan, withSynonyms bool) *matcher {
	m := &matcher{keys: map[string]int{}, words: map[string]int{}, seen: make([]int, len(p.Terms))}
	for i, t := range p.Terms {
		for _, k := range t.Keys {
			m.keys[k] = i
		}
	}
	if withSynonyms {
		for i, t := range p.Terms {
			for _, k := range t.Keys {
				for _, s := range synonyms[k] {
					if _, ok := m.keys[s]; !ok {
						m.keys[s] = i
					}
				}
			}
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

// termsIn appends to dst the terms text holds that dst does not, each once.
func (m *matcher) termsIn(text string, dst []int) []int {
	m.calls++
	for _, t := range dst {
		m.seen[t] = m.calls
	}
	eachWord(text, func(start, end int) {
		if t := m.term(text[start:end]); t >= 0 && m.seen[t] != m.calls {
			m.seen[t] = m.calls
			dst = append(dst, t)
		}
	})
	return dst
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

// Locate finds f, a fact found in one text, in another: the same value
// (a date however spelt, an amount in lakh or in digits), a modal of the
// same sense, or the same party. ok is false when text does not state it.
func Locate(text string, f Fact) (Fact, bool) {
	found := func(start, end int) (Fact, bool) {
		u := utf16Len(text[:start])
		return Fact{Text: text[start:end], Start: u, End: u + utf16Len(text[start:end]), Kind: f.Kind, Keys: f.Keys}, true
	}
	switch f.Kind {
	case "modal":
		for _, m := range modals(text) {
			if slices.Contains(f.Keys, "modal:"+m.class) {
				return found(m.start, m.end)
			}
		}
	case "party":
		// Every word of the party, in any order: the span from the first
		// to the last.
		start, end, missing := len(text), 0, map[string]bool{}
		for _, k := range f.Keys {
			missing[k] = true
		}
		eachWord(text, func(s, e int) {
			if k := Key(strings.ToLower(text[s:e])); missing[k] || slices.Contains(f.Keys, k) {
				delete(missing, k)
				start, end = min(start, s), max(end, e)
			}
		})
		if len(missing) == 0 && end > start {
			return found(start, end)
		}
	default:
		for _, v := range Values(text) {
			if slices.ContainsFunc(v.Keys, func(k string) bool { return slices.Contains(f.Keys, k) }) {
				return found(v.Start, v.End)
			}
		}
	}
	return Fact{}, false
}
