package index

import (
	"cmp"
	"math"
	"slices"

	"regpulse/internal/search"
)

// bm25's parameters, FTS5's and Lucene's defaults.
const (
	k1 = 1.2
	b  = 0.75
)

// Match is a circular the index found: the store's key and the tier it
// matched in (search.TierNumber ...).
type Match struct {
	Key  int64
	Tier int
}

// Results is what Find found for a plan: the page's matches in order, the
// best search.AnswerSources matches whatever the page (nil for a by-date
// plan), how many match with the plan's filters, and the facet counts.
type Results struct {
	Hits   []Match
	Top    []Match
	Total  int
	Facets search.Facets
}

// Find runs p. The matches are the circulars whose number holds the
// number typed as a phrase, and those holding every term (one of a term's
// keys); when fewer than a page of those pass the filters and the query
// can widen (several terms, no number), those holding any term. Matches
// are ordered by tier, then by bm25 over the term keys with the column
// weights (highest first), the date (newest first) and the slug; a UPI
// query orders the number and strong tiers newest first, and a by-date
// plan orders everything newest first. Only the tiers the page can reach
// are scored.
func (x *Index) Find(p search.Plan) Results {
	x.mu.RLock()
	defer x.mu.RUnlock()
	q := x.compile(p)
	r := x.run(q, true)
	if !p.Query.ByDate && r.total < search.PageSize && q.canWiden {
		r = x.run(q, false)
	}
	return r.results()
}

// FindTop is the best k (at most a page) matches of p, for a search
// that shows only those (the provisions beside the circulars), ranked as
// Find ranks them. When fewer than k documents hold every term it widens
// to those holding some, as Find does, but only through the query's
// rarer terms (held by under an eighth of the documents): a match on
// common words alone says little, and walking every posting of common
// words is what widening costs. A query with no rarer term is not
// widened.
func (x *Index) FindTop(p search.Plan, k int) []Match {
	x.mu.RLock()
	defer x.mu.RUnlock()
	q := x.compile(p)
	q.offset, q.k = 0, min(k, search.PageSize)
	r := x.run(q, true)
	if !p.Query.ByDate && r.total < q.k && q.canWiden {
		if rare := x.rareCursors(q); len(rare) > 0 {
			r = x.newRun(q)
			cs := x.cursors(q)
			x.union(rare, func(d uint32) { r.visit(d, cs, false) })
		}
	}
	return r.results().Hits
}

// rareCursors are the cursors of the keys of q's terms that fewer than
// an eighth of the documents hold: every document holding all the terms
// holds those, so a walk through them misses none of the first tiers.
func (x *Index) rareCursors(q *query) []cursor {
	held := make([]int, q.terms)
	for _, k := range q.keys {
		held[k.term] += len(k.list.docs)
	}
	var out []cursor
	for _, c := range x.cursors(q) {
		if held[c.term]*8 < x.docs.len() {
			out = append(out, c)
		}
	}
	return out
}

// qkey is one key of one term of a query, with its inverse document
// frequencies: among all documents, and among those whose number, title
// or summary hold it (the number and strong tiers rank by those columns
// alone: there the terms are what the circular is about).
type qkey struct {
	term      int
	id        uint32
	list      *postings
	idf       float64
	idfStrong float64
}

// query is a plan bound to the index.
type query struct {
	p        search.Plan
	keys     []qkey
	terms    int
	complete bool // every term has a key in the index
	// number are the ids of the number's keys; nil when the plan has no
	// number or the index lacks one of its keys.
	number    []uint32
	canWiden  bool
	source    int // filter (names.lookup)
	category  int
	normA     float64 // bm25's length normalisation: normA + normB*length
	normB     float64
	offset, k int // the page's first place; how many ranked matches it needs
}

func (x *Index) compile(p search.Plan) *query {
	q := &query{p: p, terms: len(p.Terms), complete: len(p.Terms) > 0,
		canWiden: len(p.Number) == 0 && len(p.Terms) > 1,
		source:   x.sources.lookup(p.Query.Source), category: x.categories.lookup(p.Query.Category)}
	n := float64(x.live)
	for i, t := range p.Terms {
		found := false
		for _, k := range t.Keys {
			id, ok := x.keyOf(k)
			if !ok || x.lists[id].live == 0 {
				continue
			}
			l := &x.lists[id]
			q.keys = append(q.keys, qkey{term: i, id: id, list: l, idf: idf(n, l.live), idfStrong: idf(n, l.strong)})
			found = true
		}
		if !found {
			q.complete = false
		}
	}
	if len(p.Number) > 0 {
		q.number = make([]uint32, len(p.Number))
		for i, k := range p.Number {
			id, ok := x.keyOf(k)
			if !ok {
				q.number = nil
				break
			}
			q.number[i] = id
		}
	}
	avgdl := 1.0
	if x.live > 0 {
		avgdl = max(x.tokens/n, 1)
	}
	q.normA, q.normB = k1*(1-b), k1*b/avgdl
	if p.Query.ByDate {
		q.k = max(p.Query.Limit, 1)
	} else {
		q.offset = (max(p.Query.Page, 1) - 1) * search.PageSize
		q.k = q.offset + max(search.PageSize, search.AnswerSources)
	}
	return q
}

// idf is bm25's inverse document frequency of a key df of n documents
// hold (FTS5's: never below a millionth).
func idf(n float64, df int32) float64 {
	v := math.Log((n - float64(df) + 0.5) / (float64(df) + 0.5))
	return max(v, 1e-6)
}

// cursor walks one key's postings.
type cursor struct {
	docs           []uint32
	vals           []uint32
	i              int
	term           int
	idf, idfStrong float64
}

const noDoc = math.MaxUint32

// seek moves to the first document at or after d and returns it (noDoc
// past the end): a galloping search, since the next one is usually near.
func (c *cursor) seek(d uint32) uint32 {
	docs := c.docs
	i := c.i
	if i >= len(docs) {
		return noDoc
	}
	if docs[i] >= d {
		return docs[i]
	}
	lo, step := i, 1
	hi := lo + step
	for hi < len(docs) && docs[hi] < d {
		lo = hi
		step <<= 1
		hi = lo + step
	}
	hi = min(hi, len(docs))
	// docs[lo] < d; the answer is in (lo, hi].
	for lo+1 < hi {
		m := int(uint(lo+hi) >> 1)
		if docs[m] < d {
			lo = m
		} else {
			hi = m
		}
	}
	c.i = hi
	if hi >= len(docs) {
		return noDoc
	}
	return docs[hi]
}

// run is one pass over the matches of q (narrow: without the some-terms
// tier), counting and ranking.
type run struct {
	x      *Index
	q      *query
	total  int
	counts [search.TierAny + 1]int
	// byCell counts the matches of each (source, category) pair;
	// okCell is whether a pair passes the filters. bySource and
	// byCategory are the facets' counts (by id) a bit walk made.
	byCell               []int
	okCell               []bool
	bySource, byCategory []int
	ranked               [search.TierAny + 1]topK
	// seen stamps, per term, the last document (plus one) that held it,
	// and strong the last that held it in the number, title or summary.
	seen, strong []uint32
}

// newRun is an empty run of q.
func (x *Index) newRun(q *query) *run {
	r := &run{x: x, q: q, byCell: make([]int, len(x.cells)), okCell: make([]bool, len(x.cells)),
		bySource: make([]int, len(x.sources.name)), byCategory: make([]int, len(x.categories.name)),
		seen: make([]uint32, q.terms), strong: make([]uint32, q.terms)}
	for i, c := range x.cells {
		r.okCell[i] = q.passes(c)
	}
	for t := range r.ranked {
		r.ranked[t] = topK{k: q.k, less: r.less,
			byScore: !q.p.Query.ByDate && !(q.p.Latest && t <= search.TierStrong)}
	}
	return r
}

func (x *Index) run(q *query, narrow bool) *run {
	r := x.newRun(q)
	numbers := x.numberDocs(q)
	if len(q.keys) == 0 && len(numbers) == 0 {
		return r
	}
	// The number's matches are scored with cursors of their own, since
	// the main walk below moves past them.
	if len(numbers) > 0 {
		cs := x.cursors(q)
		for _, d := range numbers {
			r.visit(d, cs, true)
		}
	}
	cs := x.cursors(q)
	isNumber := func(d uint32) bool {
		for len(numbers) > 0 && numbers[0] < d {
			numbers = numbers[1:]
		}
		return len(numbers) > 0 && numbers[0] == d
	}
	byBits := len(q.keys) <= maxBitKeys && (!narrow || x.dense(q))
	switch x.walk {
	case walkByDoc:
		byBits = false
	case walkByBits:
		byBits = len(q.keys) <= maxBitKeys
	}
	switch {
	case narrow && !q.complete:
	case byBits:
		r.bitWalk(narrow, numbers)
	case narrow:
		x.conjunction(q, cs, func(d uint32) {
			if !isNumber(d) {
				r.visit(d, cs, false)
			}
		})
	default:
		x.union(cs, func(d uint32) {
			if !isNumber(d) {
				r.visit(d, cs, false)
			}
		})
	}
	return r
}

// walkMode chooses how a search walks the matches: by document
// (conjunction, union and visit) or by bitsets (bitWalk); walkAuto picks
// the cheaper. Tests force each to compare them.
type walkMode int

const (
	walkAuto walkMode = iota
	walkByDoc
	walkByBits
)

// dense reports whether every term of q is in an eighth of the documents
// or more: then the bit walk, over every 64 documents, costs less than a
// conjunction's, document by document.
func (x *Index) dense(q *query) bool {
	held := make([]int, q.terms)
	for _, k := range q.keys {
		held[k.term] += len(k.list.docs)
	}
	return slices.Min(held)*8 >= x.docs.len()
}

// union calls match, in order, with every live document holding a key of
// the query, each cursor moved to it.
func (x *Index) union(cs []cursor, match func(d uint32)) {
	for {
		d := uint32(noDoc)
		for i := range cs {
			if cs[i].i < len(cs[i].docs) {
				d = min(d, cs[i].docs[cs[i].i])
			}
		}
		if d == noDoc {
			return
		}
		if !x.docs.deleted[d] {
			match(d)
		}
		for i := range cs {
			if cs[i].i < len(cs[i].docs) && cs[i].docs[cs[i].i] == d {
				cs[i].i++
			}
		}
	}
}

func (x *Index) cursors(q *query) []cursor {
	cs := make([]cursor, len(q.keys))
	for i, k := range q.keys {
		cs[i] = cursor{docs: k.list.docs, vals: k.list.vals, term: k.term, idf: k.idf, idfStrong: k.idfStrong}
	}
	return cs
}

// conjunction calls match, in order, with every live document holding a
// key of every term, leaving each cursor at or past it. The walk is led
// by the term with the fewest postings; the others gallop after it.
func (x *Index) conjunction(q *query, cs []cursor, match func(d uint32)) {
	byTerm := make([][]*cursor, q.terms)
	size := make([]int, q.terms)
	for i := range cs {
		t := cs[i].term
		byTerm[t] = append(byTerm[t], &cs[i])
		size[t] += len(cs[i].docs)
	}
	order := make([]int, q.terms)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(size[a], size[b]) })
	// seekTerm moves a term's cursors to d and returns the first
	// document at or after d holding the term.
	seekTerm := func(t int, d uint32) uint32 {
		next := uint32(noDoc)
		for _, c := range byTerm[t] {
			next = min(next, c.seek(d))
		}
		return next
	}
	target := uint32(0)
	for {
		d := seekTerm(order[0], target)
		if d == noDoc {
			return
		}
		agreed := true
		for _, t := range order[1:] {
			if e := seekTerm(t, d); e != d {
				if e == noDoc {
					return
				}
				target, agreed = e, false
				break
			}
		}
		if !agreed {
			continue
		}
		if !x.docs.deleted[d] {
			match(d)
		}
		target = d + 1
	}
}

// numberDocs are the live documents whose number holds q's number as a
// phrase, ascending.
func (x *Index) numberDocs(q *query) []uint32 {
	if len(q.number) == 0 {
		return nil
	}
	// Walk the rarest of the number's keys and read each number.
	var rarest *postings
	for _, id := range q.number {
		if l := &x.lists[id]; rarest == nil || len(l.docs) < len(rarest.docs) {
			rarest = l
		}
	}
	var out []uint32
	for _, d := range rarest.docs {
		if !x.docs.deleted[d] && holdsPhrase(x.docs.number[d], q.number) {
			out = append(out, d)
		}
	}
	return out
}

func holdsPhrase(seq, phrase []uint32) bool {
	for i := 0; i+len(phrase) <= len(seq); i++ {
		if slices.Equal(seq[i:i+len(phrase)], phrase) {
			return true
		}
	}
	return false
}

// visit counts and ranks document d, reading its keys from the cursors
// (moved to d). number: d holds the number typed.
func (r *run) visit(d uint32, cs []cursor, number bool) {
	q, x := r.q, r.x
	stamp := d + 1
	held, strong := 0, 0
	score, scoreStrong := 0.0, 0.0
	norm := q.normA + q.normB*float64(x.docs.length[d])
	for i := range cs {
		c := &cs[i]
		if c.seek(d) != d {
			continue
		}
		v := c.vals[c.i]
		if r.seen[c.term] != stamp {
			r.seen[c.term] = stamp
			held++
		}
		f := allCount(v)
		score += c.idf * f * (k1 + 1) / (f + norm)
		if fs := strongCount(v); fs > 0 {
			if r.strong[c.term] != stamp {
				r.strong[c.term] = stamp
				strong++
			}
			scoreStrong += c.idfStrong * fs * (k1 + 1) / (fs + norm)
		}
	}
	tier := search.TierAny
	switch {
	case number:
		tier = search.TierNumber
	case held == q.terms && strong == q.terms:
		tier = search.TierStrong
	case held == q.terms:
		tier = search.TierAll
	}
	if tier <= search.TierStrong {
		score = scoreStrong
	}
	r.record(d, tier, score)
}

// record counts match d of tier and ranks it when it passes the filters
// and its tier can reach the page.
func (r *run) record(d uint32, tier int, score float64) {
	if r.count(d, tier) {
		r.rank(d, tier, score)
	}
}

// rank ranks a counted match when its tier can reach the page.
func (r *run) rank(d uint32, tier int, score float64) {
	if r.q.p.Query.ByDate {
		r.ranked[0].push(hit{d, tier, score})
		return
	}
	// A tier behind k matches of the tiers before it cannot reach the page.
	before := 0
	for t := range tier {
		before += r.counts[t]
	}
	if before < r.q.k {
		r.ranked[tier].push(hit{d, tier, score})
	}
}

// count counts match d of tier in the facets and, when it passes the
// filters (its result), in the total and the tier.
func (r *run) count(d uint32, tier int) bool {
	c := r.x.docs.cell[d]
	r.byCell[c]++
	if !r.okCell[c] {
		return false
	}
	r.total++
	r.counts[tier]++
	return true
}

// passes reports whether a (source, category) pair passes q's filters.
func (q *query) passes(c cell) bool {
	return q.sourceOK(c) && q.categoryOK(c)
}

func (q *query) sourceOK(c cell) bool   { return q.source == -1 || q.source == int(c.source) }
func (q *query) categoryOK(c cell) bool { return q.category == -1 || q.category == int(c.category) }

// hit is a ranked match.
type hit struct {
	doc   uint32
	tier  int
	score float64 // bm25: higher is better
}

// less reports whether a ranks before b.
func (r *run) less(a, b hit) bool {
	t := &r.x.docs
	q := r.q.p
	if q.Query.ByDate {
		if c := cmp.Compare(t.date[b.doc], t.date[a.doc]); c != 0 {
			return c < 0
		}
	}
	if a.tier != b.tier {
		return a.tier < b.tier
	}
	if q.Latest && a.tier <= search.TierStrong {
		if c := cmp.Compare(t.date[b.doc], t.date[a.doc]); c != 0 {
			return c < 0
		}
	}
	if a.score != b.score {
		return a.score > b.score
	}
	if c := cmp.Compare(t.date[b.doc], t.date[a.doc]); c != 0 {
		return c < 0
	}
	return t.slug[a.doc] < t.slug[b.doc]
}

// results is what the run found, as Find returns it.
func (r *run) results() Results {
	x, q := r.x, r.q
	out := Results{Total: r.total, Facets: search.Facets{Source: map[string]int{}, Category: map[string]int{}}}
	// Each facet counts with the other filter applied.
	for id, n := range r.byCell {
		c := x.cells[id]
		if q.categoryOK(c) {
			r.bySource[c.source] += n
		}
		if q.sourceOK(c) {
			r.byCategory[c.category] += n
		}
	}
	for id, n := range r.bySource {
		if n > 0 {
			out.Facets.Source[x.sources.name[id]] = n
		}
	}
	for id, n := range r.byCategory {
		if n > 0 {
			out.Facets.Category[x.categories.name[id]] = n
		}
	}
	var ranked []hit
	for t := range r.ranked {
		ranked = append(ranked, r.ranked[t].sorted()...)
	}
	ranked = ranked[:min(len(ranked), q.k)]
	match := func(hs []hit) []Match {
		if len(hs) == 0 {
			return nil
		}
		ms := make([]Match, len(hs))
		for i, h := range hs {
			ms[i] = Match{Key: x.docs.key[h.doc], Tier: h.tier}
		}
		return ms
	}
	if q.p.Query.ByDate {
		out.Hits = match(ranked)
		return out
	}
	if q.offset < len(ranked) {
		out.Hits = match(ranked[q.offset:min(len(ranked), q.offset+search.PageSize)])
	}
	out.Top = match(ranked[:min(len(ranked), search.AnswerSources)])
	return out
}

// topK keeps the k hits ranking first, the last of them at the root of
// a heap.
type topK struct {
	k    int
	less func(a, b hit) bool
	h    []hit
	// byScore: the heap's hits are ordered by score first, so a full
	// heap turns away a lower score without the whole comparison.
	byScore bool
}

func (t *topK) push(h hit) {
	if len(t.h) < t.k {
		t.h = append(t.h, h)
		// Sift up: a parent ranks after its children.
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if !t.less(t.h[p], t.h[i]) {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
		return
	}
	if t.k == 0 || t.byScore && h.score < t.h[0].score || !t.less(h, t.h[0]) {
		return
	}
	t.h[0] = h
	for i := 0; ; {
		worst, l, rr := i, 2*i+1, 2*i+2
		if l < len(t.h) && t.less(t.h[worst], t.h[l]) {
			worst = l
		}
		if rr < len(t.h) && t.less(t.h[worst], t.h[rr]) {
			worst = rr
		}
		if worst == i {
			return
		}
		t.h[i], t.h[worst] = t.h[worst], t.h[i]
		i = worst
	}
}

// sorted is the kept hits, first first.
func (t *topK) sorted() []hit {
	slices.SortFunc(t.h, func(a, b hit) int {
		switch {
		case t.less(a, b):
			return -1
		case t.less(b, a):
			return 1
		}
		return 0
	})
	return t.h
}
