package search

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"regpulse/internal/catalog"
	"regpulse/internal/search/memo"
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

// factSentences is how many of a hit's sentences, those holding most of
// the question, are read for a fact of the asked kind.
const factSentences = 12

// maxAnswerBytes bounds an answer of two sentences.
const maxAnswerBytes = 420

// Extract chooses the direct answer from the top hits' sentences (their
// summary's, then their text's).
//
// A question (readQuestion) is answered by the sentence that states a
// fact of the asked kind (a date, an amount, a duration, a count, a
// permission or obligation, a party) and holds the question's terms: its
// rarer terms count more (inverse frequency among the candidate
// sentences), a term of the circular's title less (it says which
// circular, not which sentence), and a fact near the terms more. Its
// confidence is retrieval's (graded by how much of the question the
// circular holds: a question's own verbs are seldom all there) times how
// much of the question the sentence and its title hold, less for a weak
// or distant fact. With no sentence of the asked kind there is no direct
// answer: no answer rather than one that does not answer.
//
// Other queries (a topic; a definition, preferring sentences that say
// what something is) are answered by the sentence holding most terms,
// with the hit's tier confidence times the share of terms held. A
// corrected query counts less; below minConfidence there is no direct
// answer.
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
	source := make([]int, len(x.hits)) // each circular hit's place in Sources
	for i := range x.hits {
		h := &x.hits[i]
		source[i] = -1
		if h.hit.Provision != nil {
			continue // cited by Answer.Provision when it answers
		}
		ex := h.excerpt()
		lang := h.hit.Circular.Lang // set when the circular came from the catalog
		if lang == "" {
			lang = catalog.TextLang(h.hit.Circular.Title, h.passage()) // the store keeps no language: read its title and passage
		}
		source[i] = len(a.Sources)
		a.Sources = append(a.Sources, Source{
			CircularID: h.hit.Circular.ID, Slug: h.hit.Circular.Slug, Source: h.hit.Circular.Source, Title: h.hit.Circular.Title,
			Lang: lang, RelevantExcerpt: ex, Highlights: x.m.spans(ex), OfficialURL: h.hit.Circular.OfficialURL, Passage: h.passage(),
		})
	}
	if bestHit < 0 && x.typed() {
		// No sentence states a fact of the asked kind: no answer, with
		// the confidence of the sentence holding most of the question.
		for i := range x.hits {
			for j, s := range x.hits[i].sents {
				if bestHit < 0 || s.support*x.hits[i].retrieval > x.hits[bestHit].sents[best].support*x.hits[bestHit].retrieval {
					best, bestHit = j, i
				}
			}
		}
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
	if p := h.hit.Provision; p != nil {
		// A provision answers: it is the citation, the circulars stay
		// the sources for further reading.
		cited := *p
		cited.Highlights = x.m.spans(cited.Text)
		a.Provision = &cited
		return a
	}
	// The answer's own circular first among the sources, with the answer
	// as its excerpt.
	i := source[bestHit]
	src := a.Sources[i]
	src.RelevantExcerpt, src.Highlights = text, x.m.spans(text)
	a.Sources = slices.Delete(a.Sources, i, i+1)
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
	// counted marks the terms share has counted in its call number calls.
	counted []int
	calls   int
}

// hitSentences is a hit's sentences and what they hold.
type hitSentences struct {
	x    *extraction
	rank int
	hit  Hit
	// retrieval is how surely the hit is about the query: its tier's
	// confidence for a topic; for a question, as much graded by how
	// much of the question the hit holds, in its number, title and
	// summary and anywhere (a question's verbs are seldom all there).
	retrieval float64
	title     []int // the terms of its number and title
	// w is each term's weight for choosing among the hit's sentences:
	// a term its title holds says which circular, not which sentence,
	// and counts titleWeight of its weight.
	w     []float64
	sents []sentence
}

// summaryLines numbers the text's lines after the summary's.
const summaryLines = 1 << 20

// titleWeight is how much a term of a hit's title counts when choosing
// among its sentences.
const titleWeight = 0.25

// sentence is one sentence of a hit, scored.
type sentence struct {
	text  string
	line  int   // sentences of one line (paragraph) are adjacent
	terms []int // the question's terms it holds
	// cov is the weighted share of the question's terms it holds;
	// support the same with its circular's number and title; focus the
	// share with the hit's weights (titles' terms counting less).
	cov, support, focus float64
	score               float64
	fact                *fact   // the fact of the asked kind it states, if any
	near                float64 // how near the fact is to the question's terms (factOf)
}

func newExtraction(p Plan, top []Hit) *extraction {
	x := &extraction{q: readQuestion(p.Text())}
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
	var ranks [2]int // the next rank of a circular, of a provision: each is ranked among its kind
	for _, h := range top {
		title, texts := string(h.Circular.CircularNumber)+" "+h.Circular.Title, [2]string{string(h.Circular.Summary), h.Circular.Content}
		kind := 0
		if p := h.Provision; p != nil {
			title, texts, kind = p.DirectionTitle+" "+p.ID+" "+string(p.Heading), [2]string{"", p.Text}, 1
		}
		hs := hitSentences{x: x, rank: ranks[kind], hit: h, title: x.m.termsIn(title, nil)}
		ranks[kind]++
		line := 0
		stamp := h.Stamp
		if h.Provision != nil {
			stamp = 0
		}
		for _, sents := range sentencesOf(stamp, texts) {
			for _, sent := range sents {
				s, l := sent.text, sent.line
				terms := x.m.termsIn(s, nil)
				// "It applies from 1 April": a sentence leaning on the one
				// before is about what that one holds (and answers with it).
				if n := len(hs.sents); x.typed() && n > 0 && hs.sents[n-1].line == line+l && leans(s) {
					terms = x.m.termsIn(hs.sents[n-1].text, terms)
				}
				terms = slices.DeleteFunc(terms, func(t int) bool { return x.weight[t] == 0 })
				hs.sents = append(hs.sents, sentence{text: s, line: line + l, terms: terms})
				for _, t := range terms {
					df[t]++
				}
				n++
			}
			line += summaryLines // the summary's lines are not the text's
		}
		x.hits = append(x.hits, hs)
	}
	// A question's rarer terms say more about which sentence answers it
	// (inverse frequency among the candidates), those of its main clause
	// more than a subordinate one's, and the noun an amount is of more
	// than the word asking for an amount; a topic's terms count alike.
	if x.q.typ != "" {
		for i, t := range p.Terms {
			if x.weight[i] > 0 {
				x.weight[i] = math.Log(1 + float64(n)/float64(1+df[i]))
				if x.q.subordinate[t.Word] {
					x.weight[i] /= 2
				}
				// "What is the maximum balance": the balance says which
				// amount, "maximum" only that one is asked.
				if x.q.typ == AnswerAmount && amountCues[Key(t.Word)] {
					x.weight[i] /= 2
				}
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

// keptSentences are the sentences of circulars' summary and text
// (sentencesOf) by their stamp (Hit.Stamp): splitting them was half an
// answer's work, and answers draw on the same circulars again and again.
var keptSentences = memo.New[uint64, [2][]textSentence](16 << 20)

// textSentence is a sentence of a text and its line (eachSentence).
type textSentence struct {
	text string
	line int
}

// sentencesOf is the sentences of each of texts, kept under stamp when it
// is not 0 (it then names the texts).
func sentencesOf(stamp uint64, texts [2]string) [2][]textSentence {
	if stamp != 0 {
		if kept, ok := keptSentences.Get(stamp); ok {
			return kept
		}
	}
	var out [2][]textSentence
	size := 0
	for i, text := range texts {
		eachSentence(text, func(s string, l int) {
			out[i] = append(out[i], textSentence{s, l})
			size += len(s) + 32
		})
	}
	if stamp != 0 {
		keptSentences.Put(stamp, out, size)
	}
	return out
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
	if x.counted == nil {
		x.counted = make([]int, len(x.weight))
	}
	x.calls++
	var w float64
	for _, set := range sets {
		for _, t := range set {
			if x.counted[t] != x.calls {
				x.counted[t] = x.calls
				w += x.weight[t]
			}
		}
	}
	return w / x.total
}

// score scores each sentence of h.
func (h *hitSentences) score() {
	x := h.x
	if x.q.typ == "" || h.hit.Tier == TierNumber {
		h.retrieval = tierConfidence[min(h.hit.Tier, TierAny)]
	} else {
		// The terms of its number, title and summary, and of all of it,
		// from its sentences' (the summary's come first).
		strong, all := slices.Clone(h.title), slices.Clone(h.title)
		for _, s := range h.sents {
			if s.line < summaryLines {
				strong = append(strong, s.terms...)
			}
			all = append(all, s.terms...)
		}
		lo, hi := tierConfidence[TierAny], tierConfidence[TierStrong]
		h.retrieval = lo + (hi-lo)*(x.share(strong)+x.share(all))/2
	}
	prior := h.retrieval * (1 - rankDecay*float64(h.rank))
	h.w = slices.Clone(x.weight)
	for _, t := range h.title {
		h.w[t] *= titleWeight
	}
	var wTotal float64
	for _, w := range h.w {
		wTotal += w
	}
	for i := range h.sents {
		s := &h.sents[i]
		s.cov = x.share(s.terms)
		s.support = x.share(s.terms, h.title)
		for _, t := range s.terms {
			s.focus += h.w[t] / wTotal
		}
		switch {
		case !x.typed():
			s.score = s.cov
			if x.q.typ == AnswerDefinition {
				s.score = prior * (0.6*s.focus + 0.3*s.support + 0.15*defines(s.text))
			}
		case s.cov > 0:
			s.score = prior * (0.5*s.focus + 0.3*s.support + 0.2) // at most, when the fact is found
		}
	}
	if x.typed() {
		h.findFacts(prior)
	}
}

// findFacts looks for the facts of the asked kind in h's sentences, best
// bound first, until no sentence left can score better than the
// passageSentences best found (a fact is at most as near as can be and
// of full strength, so a sentence's score with none found yet bounds the
// score it can reach), and in factSentences of them at most. Reading
// values is most of an answer's work, and a text of thousands of words
// states its answer in a sentence holding much of the question.
func (h *hitSentences) findFacts(prior float64) {
	order := make([]int, 0, len(h.sents))
	for i, s := range h.sents {
		if s.cov > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(h.sents[b].score, h.sents[a].score) })
	var found []float64 // the best scores found, highest first
	for n, i := range order {
		s := &h.sents[i]
		bound := s.score
		s.score = 0
		if n == factSentences || len(found) == passageSentences && bound <= found[passageSentences-1] {
			break
		}
		f, near := h.factOf(s)
		if f == nil {
			continue
		}
		s.fact, s.near = f, near
		s.score = prior * (0.5*s.focus + 0.3*s.support + 0.2*near) * f.strength
		at, _ := slices.BinarySearchFunc(found, s.score, func(a, b float64) int { return cmp.Compare(b, a) })
		found = slices.Insert(found, at, s.score)[:min(len(found)+1, passageSentences)]
	}
	for _, i := range order {
		if h.sents[i].fact == nil {
			h.sents[i].score = 0
		}
	}
}

// definitional are phrases that say what something is.
var definitional = []string{" is a ", " is an ", " is the ", " are a ", "that is,", "i.e.", " means ", "refers to",
	"under which", "in which", "defined as", "known as", ", a ", ", an "}

// defines is 1 when s reads as saying what something is, else 0.
func defines(s string) float64 {
	l := strings.ToLower(s)
	for _, d := range definitional {
		if strings.Contains(l, d) {
			return 1
		}
	}
	return 0
}

// factOf is s's fact of the asked kind nearest the question's terms (the
// strongest on a tie), and how near it is (0 to 1): each term s holds
// counts once, at its nearest occurrence, the nearer the more (half the
// mean over the terms by weight, half the best term's), a clause's end
// between them (a comma, semicolon or colon) taking
// it further (a fact belongs with the words of its clause), and an "and"
// or "or" a little (the next item of a list is another's). A count
// beside the words it counts, or a party of the role asked for, is as
// near as can be; a modal phrase is near the terms it holds.
func (h *hitSentences) factOf(s *sentence) (*fact, float64) {
	x := h.x
	var words [][2]int
	eachWord(s.text, func(start, end int) { words = append(words, [2]int{start, end}) })
	isTerm := make([]bool, len(words))
	termAt := make([]int, len(words))
	for i, w := range words {
		termAt[i] = x.m.term(s.text[w[0]:w[1]])
		isTerm[i] = termAt[i] >= 0 && x.weight[termAt[i]] > 0
	}
	wordAt := func(b int) int { // the word at or after byte b
		return sort.Search(len(words), func(i int) bool { return words[i][1] > b })
	}
	var best *fact
	var bestNear, bestValue float64
	closeness := map[int]float64{}
	for _, f := range x.q.factsOf(s.text, words, isTerm, h.issuer()) {
		first, last := wordAt(f.start), wordAt(f.end-1)
		clear(closeness)
		for i := range words {
			if !isTerm[i] {
				continue
			}
			d := 0
			switch {
			case i >= first && i <= last:
				if f.kind != "modal" {
					continue // a party's own words are the question's, not near it
				}
			default:
				lo, hi := i, first
				if i > last {
					lo, hi = last, i
				}
				between := s.text[words[lo][1]:words[hi][0]]
				d = hi - lo - 1 + 4*strings.Count(between, ", ") + 8*(strings.Count(between, "; ")+strings.Count(between, ": ")) +
					2*(strings.Count(between, " and ")+strings.Count(between, " or "))
			}
			closeness[termAt[i]] = max(closeness[termAt[i]], 1/(1+float64(d)/4))
		}
		// Half the weighted mean closeness of the terms, half the best
		// term's: the terms together place the fact, and a term beside one
		// fact and far from the others ("₹5,000 balance") tells it apart.
		var mean, held, top, maxW float64
		for t, c := range closeness {
			mean += h.w[t] * c
			held += h.w[t]
			maxW = max(maxW, h.w[t])
		}
		for t, c := range closeness {
			top = max(top, h.w[t]/maxW*c)
		}
		near := 0.0
		if held > 0 {
			near = (mean/held + top) / 2
		}
		for i := max(0, first-3); i <= min(len(words)-1, last+3); i++ {
			if len(x.q.counted) > 0 && slices.Contains(x.q.counted, Key(strings.ToLower(s.text[words[i][0]:words[i][1]]))) {
				near = 1
			}
		}
		if x.q.role != "" && slices.Contains(f.keys, x.q.role) {
			near = 1
		}
		if v := f.strength * (0.5 + 0.5*near); best == nil || v > bestValue {
			f := f
			best, bestNear, bestValue = &f, near, v
		}
	}
	return best, bestNear
}

// issuer is the regulator of h's circular or provision (a party
// an answer does not name).
func (h *hitSentences) issuer() string {
	if h.hit.Provision != nil {
		return h.hit.Provision.Source
	}
	return h.hit.Circular.Source
}

// best is the index of h's best sentence, -1 if none answers: for a
// question of a kind, the best-scoring one stating a fact of it; else the
// one holding most terms (for a circular found by its number, any), the
// first on a tie.
func (h *hitSentences) best() int {
	b := -1
	for i, s := range h.sents {
		// A circular found by its number answers with its first sentence
		// if nothing better.
		if h.x.typed() && s.fact == nil || !h.x.typed() && s.cov == 0 && h.hit.Tier != TierNumber {
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
		switch {
		case !h.x.typed():
			return s.score + s.cov
		case s.fact != nil:
			return 1 + s.score // every sentence of the asked kind first
		}
		return s.cov
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

// leans reports whether s opens with an anaphor ("It applies from ...").
func leans(s string) bool {
	first, _, _ := strings.Cut(s, " ")
	return anaphora[strings.ToLower(strings.TrimFunc(first, func(r rune) bool { return !unicode.IsLetter(r) }))]
}

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
		if leans(s.text) || s.cov < 0.5 && h.x.share(prev.terms, s.terms) >= s.cov+0.25 {
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

// confidence is how far s, the answer, can be trusted: retrieval's
// confidence in its hit times how much of the query it holds (a
// question's answer with its title, which says what the sentence is
// about), for a question less for a weak fact (a year for a date) or one
// far from the question's terms.
func (x *extraction) confidence(h *hitSentences, s *sentence) float64 {
	switch {
	case h.hit.Tier == TierNumber && x.q.typ == "":
		return h.retrieval
	case x.q.typ == "":
		return h.retrieval * s.cov
	case !x.typed():
		return h.retrieval * s.support
	case s.fact == nil:
		return h.retrieval * 0.3 * s.support
	}
	return h.retrieval * (0.4 + 0.6*s.support) * (0.75 + 0.25*s.near) * (0.5 + 0.5*s.fact.strength)
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
