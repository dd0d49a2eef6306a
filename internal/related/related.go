// Package related finds each circular's related circulars by what they
// say: TF-IDF vectors of title, summary and the start of the text, keyed
// with the search's own normalisation (search.Key: spellings and Porter2
// stems), compared by cosine similarity and boosted by explicit links
// (supersedes, superseded by), the same number series and nearness in
// time. It runs once per build.
//
// Comparing every circular with every other is quadratic (5·10⁹ pairs at
// 100,000). Instead each circular's candidates are the circulars sharing
// one of its rarest terms: each term's postings are kept sorted by weight
// and cut to the best postingCap, and a circular looks up only its
// queryTerms heaviest terms, so the work is about N · queryTerms ·
// postingCap, linear in N. The candidates' partial scores (over those
// terms) pick the best candidateCap, whose full cosine is then computed.
package related

import (
	"cmp"
	"crypto/sha256"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
)

// Doc is what the ranking reads of one circular.
type Doc struct {
	// ID names the doc across rankings (a circular's slug): RankFrom
	// finds a doc's last counts and ranking by it.
	ID             string
	Title, Summary string
	// Text is the circular's plain text; only its first LeadWords words
	// are read (a circular says what it is about at its start).
	Text string
	// LeadSum is LeadSum(Text), when the caller has it: a caller that
	// keeps the sums of its texts rather than the texts gives only the
	// sum (Text empty), and the text is then needed only for the docs
	// whose counts the last ranking does not have (NeedText). Zero: made
	// from Text.
	LeadSum [sha256.Size]byte
	Number  string // the regulator's reference, for its number series
	Date    time.Time
	// Linked are the positions of the circulars this one supersedes or
	// is superseded by.
	Linked []int
}

// textGiven says whether d's text is given: its Text, or, with its
// LeadSum, an empty text (the sum is the empty lead's).
func (d Doc) textGiven() bool {
	return d.Text != "" || d.LeadSum == ([sha256.Size]byte{}) || d.LeadSum == emptyLead
}

var emptyLead = LeadSum("")

// LeadSum is the hash of the lead of text (its first LeadWords words):
// what the ranking reads of it, and what a Doc's LeadSum holds.
func LeadSum(text string) [sha256.Size]byte {
	h := sha256.New()
	// (through a small buffer: a copy of each lead to hash it would be
	// some 250 MB for the collector at 100,000 docs)
	var buf [512]byte
	for lead := firstWords(text, LeadWords); lead != ""; {
		n := copy(buf[:], lead)
		h.Write(buf[:n])
		lead = lead[n:]
	}
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}

// Docs are circulars cs as Rank reads them; lead gives a circular's
// text as plain text (the generator has each rendered once), or, for a
// circular whose text it no longer holds, only the text's LeadSum
// (Doc.LeadSum; zero: made from the text).
func Docs(cs []catalog.Circular, lead func(catalog.Circular) (string, [sha256.Size]byte)) []Doc {
	index := make(map[string]int, len(cs))
	for i, c := range cs {
		index[c.Slug] = i
	}
	docs := make([]Doc, len(cs))
	for i, c := range cs {
		d := Doc{ID: c.Slug, Title: c.Title, Summary: string(c.Summary), Number: string(c.CircularNumber), Date: c.PublishedDate.Time}
		d.Text, d.LeadSum = lead(c)
		for _, s := range slices.Concat([]string(c.Supersedes), []string(c.SupersededBy)) {
			if j, ok := index[s]; ok {
				d.Linked = append(d.Linked, j)
			}
		}
		docs[i] = d
	}
	return docs
}

// The bounds that keep the work linear, with LeadWords (the words of each
// text read).
const (
	queryTerms   = 16  // a circular's heaviest terms looked up
	postingCap   = 100 // postings kept per term, the heaviest
	candidateCap = 60  // candidates scored in full
)

// The boosts added to the cosine similarity (0 to 1).
const (
	linkBoost   = 0.5  // one supersedes the other
	seriesBoost = 0.15 // same number series (an addendum, the same file)
	timeBoost   = 0.05 // at most, for the same date; nothing ten years apart
)

// scoreSteps is how finely scores are told apart (see rankOne).
const scoreSteps = 20

// Field weights: a title says more than a sentence of the text.
const (
	titleWeight   = 3
	summaryWeight = 2
	textWeight    = 1
)

type term struct {
	id int32
	w  float32
}

// posting is one doc holding a term, with the term's weight there.
type posting struct {
	doc int32
	w   float32
}

// Rank returns each doc's up to k related docs (positions in docs), best
// first. A doc with nothing in common with any other gets fewer, or none:
// an unrelated circular is not shown as related.
func Rank(docs []Doc, k int) [][]int {
	out, _, err := RankFrom(docs, k, nil)
	if err != nil {
		panic(err) // (docs given by their sums alone: a caller's mistake)
	}
	return out
}

// scratch is one worker's memory, reused for every doc it ranks: acc the
// partial scores (zeroed after each doc), seen the doc (plus one) each
// candidate was last considered for.
type scratch struct {
	acc     []float32
	seen    []int32
	touched []int
	// dense is the doc being ranked's vector by term id (zero elsewhere),
	// for its cosine with each candidate (denseCosine).
	dense []float32
}

// rankOne ranks doc i's candidates; read are the docs whose vectors,
// dates and series it read (each candidate once), in no particular
// order.
func (sc *scratch) rankOne(i int, docs []Doc, keys []string, vecs [][]term, post [][]posting, series map[string][]int, k int) (out []int, read []int32) {
	acc, touched := sc.acc, sc.touched[:0]
	q := slices.Clone(vecs[i])
	slices.SortFunc(q, func(a, b term) int { return cmp.Compare(b.w, a.w) })
	q = q[:min(len(q), queryTerms)]
	for _, t := range q {
		for _, p := range post[t.id] {
			if int(p.doc) == i {
				continue
			}
			if acc[p.doc] == 0 {
				touched = append(touched, int(p.doc))
			}
			acc[p.doc] += t.w * p.w
		}
	}
	// The best candidateCap by partial score, then every explicit link
	// and the number series, which count even with no term in common.
	cands := topByScore(touched, acc, candidateCap)
	for _, j := range touched {
		acc[j] = 0
	}
	sc.touched = touched
	cands = append(cands, docs[i].Linked...)
	key := keys[i]
	if key != "" {
		cands = append(cands, series[key]...)
	}
	type scored struct {
		j int
		s float64
	}
	var best []scored
	mark := int32(i + 1)
	sc.seen[i] = mark
	for _, t := range vecs[i] {
		sc.dense[t.id] = t.w
	}
	defer func() {
		for _, t := range vecs[i] {
			sc.dense[t.id] = 0
		}
	}()
	for _, j := range cands {
		if sc.seen[j] == mark {
			continue
		}
		sc.seen[j] = mark
		read = append(read, int32(j))
		s := float64(denseCosine(sc.dense, vecs[j]))
		linked, sameSeries := slices.Contains(docs[i].Linked, j), key != "" && keys[j] == key
		if s == 0 && !linked && !sameSeries {
			continue
		}
		if linked {
			s += linkBoost
		}
		if sameSeries {
			s += seriesBoost
		}
		years := math.Abs(docs[i].Date.Sub(docs[j].Date).Hours()) / (24 * 365)
		s += timeBoost * max(0, 1-years/10)
		// Scores in steps of 1/scoreSteps: a circular added elsewhere
		// moves every weight a little (the idf), which must not reorder
		// near-ties and so render again the pages of circulars it has
		// nothing to do with; ties go to the newer.
		best = append(best, scored{j, math.Round(s*scoreSteps) / scoreSteps})
	}
	slices.SortFunc(best, func(a, b scored) int {
		if c := cmp.Compare(b.s, a.s); c != 0 {
			return c
		}
		if c := docs[b.j].Date.Compare(docs[a.j].Date); c != 0 {
			return c // newer first
		}
		return cmp.Compare(a.j, b.j)
	})
	out = make([]int, 0, k)
	for _, b := range best[:min(len(best), k)] {
		out = append(out, b.j)
	}
	return out, read
}

// topByScore is the (at most) n of docs with the highest acc, in no
// particular order: a min-heap of n, so a circular with thousands of
// candidates costs thousands of steps, not a sort of them.
func topByScore(docs []int, acc []float32, n int) []int {
	if len(docs) <= n {
		return slices.Clone(docs)
	}
	h := slices.Clone(docs[:n])
	keepBest(h, docs[n:], func(a, b int) bool { return acc[a] > acc[b] })
	return h
}

// vectorBatch is how many docs vectors tokenises at once (a variable for
// the tests).
var vectorBatch = 2048

// termCounts are a doc's keys with their field-weighted counts. Numbers
// and stop words are left out: "2021" or "the" make no two circulars
// alike. Each distinct word is keyed once (a doc's 400 words are some 150
// distinct ones); the counts are small whole numbers, summed exactly in
// any order.
func termCounts(d Doc) map[string]float32 {
	words := make(map[string]float32, 256)
	add := func(text string, weight float32) {
		search.EachWord(text, func(w string) { words[w] += weight })
	}
	add(d.Title, titleWeight)
	add(d.Summary, summaryWeight)
	add(firstWords(d.Text, LeadWords), textWeight)
	c := make(map[string]float32, len(words))
	for w, n := range words {
		w = strings.ToLower(w)
		if search.StopWord(w) || utf8.RuneCountInString(w) < 2 || isDigits(w) {
			continue
		}
		c[search.Key(w)] += n
	}
	return c
}

// firstWords is the start of text up to its nth space-separated word,
// cut before tokenising: the rest of a long circular is not read at all.
// LeadWords is how many words of each text Rank reads (Lead).
const LeadWords = 400

// Lead is the start of a plain text that Rank reads (its first
// LeadWords words), as a string of its own: a caller holding many texts
// for Rank need keep only their leads.
func Lead(text string) string { return strings.Clone(firstWords(text, LeadWords)) }

func firstWords(text string, n int) string {
	inWord := false
	for i, r := range text {
		space := r == ' ' || r == '\n' || r == '\t' || r == '\r'
		if !space && !inWord {
			if n == 0 {
				return text[:i]
			}
			n--
		}
		inWord = !space
	}
	return text
}

func isDigits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// normalise turns counts into unit-length TF-IDF weights: (1 + ln tf) ·
// idf, so a word said ten times is not ten times the topic.
func normalise(v []term, idf []float32) {
	var sum float64
	for i, t := range v {
		w := (1 + float32(math.Log(float64(t.w)))) * idf[t.id]
		v[i].w = w
		sum += float64(w) * float64(w)
	}
	if sum == 0 {
		return
	}
	norm := float32(math.Sqrt(sum))
	for i := range v {
		v[i].w /= norm
	}
}

// postings lists for each term the docs holding it, heaviest first, cut
// to postingCap: a term in thousands of circulars finds through them only
// those where it weighs most.
func postings(vecs [][]term, terms int) [][]posting {
	post := make([][]posting, terms)
	for i, v := range vecs {
		for _, t := range v {
			post[t.id] = append(post[t.id], posting{int32(i), t.w})
		}
	}
	// the terms in most docs cut to their heaviest, on every core
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for t := w; t < len(post); t += workers {
				if len(post[t]) > postingCap {
					post[t] = heaviest(post[t], postingCap)
				}
			}
		})
	}
	wg.Wait()
	return post
}

// heaviestFirst orders postings heaviest first, then by doc: a total
// order, so the postings kept do not depend on the order they came in.
func heaviestFirst(a, b posting) int {
	if c := cmp.Compare(b.w, a.w); c != 0 {
		return c
	}
	return cmp.Compare(a.doc, b.doc)
}

// heaviest is the first k of p in heaviestFirst's order, in that order,
// in p's array (keepBest: a term in most of 100,000 circulars has some
// 50,000 postings, and sorting them all was most of the ranking's
// set-up).
func heaviest(p []posting, k int) []posting {
	top := p[:k]
	keepBest(top, p[k:], func(a, b posting) bool { return heaviestFirst(a, b) < 0 })
	slices.SortFunc(top, heaviestFirst)
	return slices.Clip(top)
}

// keepBest makes top the best len(top) of top and rest by better (a
// strict order), in no particular order: a heap of them with the worst
// on top, so n items cost n·log(len(top)) steps, not a sort. An item of
// rest no better than the worst kept is not taken.
func keepBest[T any](top, rest []T, better func(a, b T) bool) {
	k := len(top)
	if k == 0 {
		return
	}
	worse := func(i, j int) bool { return better(top[j], top[i]) }
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < k && worse(l, m) {
				m = l
			}
			if r := l + 1; r < k && worse(r, m) {
				m = r
			}
			if m == i {
				return
			}
			top[i], top[m] = top[m], top[i]
			i = m
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for _, x := range rest {
		if better(x, top[0]) {
			top[0] = x
			down(0)
		}
	}
}

// denseCosine is the dot product of two unit vectors, a given by term id
// (dense) and b sorted by term id: a merge of the two sorted lists sums
// the same products in the same order (TestDenseCosine), with a branch
// per step the processor cannot predict.
func denseCosine(dense []float32, b []term) float32 {
	var s float32
	for _, t := range b {
		s += dense[t.id] * t.w
	}
	return s
}

var (
	// An RBI file number: 02.14.003, 02-14-003 (department file of the
	// subject, shared by a circular and its follow-ups).
	rbiFile = regexp.MustCompile(`\b(\d{2})[.-](\d{2})[.-](\d{3})\b`)
	// An NPCI operating circular: "OC No. 193", "OC-193", "OC 193C",
	// "OC/220" (addenda add a letter to the number they amend).
	npciOC = regexp.MustCompile(`(?i)\bOC\b[^0-9]{0,6}(\d+)`)
)

// seriesKey is the number series of a reference ("" for none): an RBI
// file number, an NPCI operating circular's number.
func seriesKey(number string) string {
	if m := rbiFile.FindStringSubmatch(number); m != nil {
		return "rbi-file:" + m[1] + "." + m[2] + "." + m[3]
	}
	if m := npciOC.FindStringSubmatch(number); m != nil {
		return "npci-oc:" + strings.TrimLeft(m[1], "0")
	}
	return ""
}

// seriesCap bounds how many circulars of one series become candidates:
// a department file may hold hundreds at 100,000 circulars.
const seriesCap = 50

// seriesIndex maps each series to its first seriesCap docs, from each
// doc's series key.
func seriesIndex(keys []string) map[string][]int {
	out := map[string][]int{}
	for i, k := range keys {
		if k != "" && len(out[k]) < seriesCap {
			out[k] = append(out[k], i)
		}
	}
	return out
}
