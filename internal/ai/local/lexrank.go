package local

import (
	"math"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"

	"regpulse/internal/words"
)

// terms are a text's words (internal/words: a Devanagari word whole, with
// its vowel signs) for comparing sentences: lower-cased, English and Hindi
// stop words left out, each English word reduced to its Snowball (Porter2)
// stem so that "payments", "payment" and "paying" count as one term.
// Words in other scripts are kept as written: the stemmer is English.
func terms(s string) []string {
	var out []string
	for _, w := range words.Fields(strings.ToLower(s)) {
		if english.IsStopWord(w) || modals[w] || hindiStopWords[w] || (len(w) < 2 && !unicode.IsDigit(rune(w[0]))) {
			continue
		}
		if !words.Latin(w) {
			out = append(out, w)
			continue
		}
		out = append(out, english.Stem(w, false))
	}
	return out
}

// modals are words English stop-word lists keep that say nothing of a
// sentence's subject.
var modals = map[string]bool{"may": true, "might": true, "must": true, "shall": true, "would": true,
	"could": true, "also": true, "upon": true, "per": true}

// hindiStopWords are Hindi's function words (postpositions, pronouns,
// conjunctions, the forms of होना and the light verbs करना, जाना, रहना),
// which say nothing of a sentence's subject: two Hindi sentences are alike
// by their nouns and verbs, not by "के", "में" and "है".
var hindiStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		का के की को में से पर तक ने लिए द्वारा साथ बारे प्रति अंतर्गत
		और तथा एवं या व अथवा कि यदि तो भी ही लेकिन परंतु किंतु बल्कि जबकि क्योंकि
		यह ये वह वे इस इन उस उन इसे इन्हें उसे उन्हें इसका इसके इसकी उसका उसके उसकी
		इनके इनकी उनका उनके उनकी जो जिस जिन जिसे जिन्हें जिसका जिसके जिसकी जिनके
		कोई किसी कुछ सभी सब अन्य एक अपना अपने अपनी स्वयं आप
		है हैं था थे थी थीं हो हों होता होते होती होना होने होगा होगी होंगे हुआ हुए हुई
		कर करना करने करें करेंगे करेगा करेगी करता करते करती किया किए किये की गई
		जा जाना जाने जाए जाएं जाएँ जाएगा जाएगी जाएंगे जाता जाते जाती गया गए गयी
		रहा रहे रही रहता रहते रहती सकता सकते सकती सके चाहिए
		यहाँ यहां वहाँ वहां अब जब तब ऐसा ऐसे ऐसी इसलिए अतः
	`) {
		hindiStopWords[w] = true
	}
}

// vector is a sentence's TF-IDF weights by term, with its norm.
type vector struct {
	w    map[string]float64
	norm float64
}

// tfidf weighs each text's terms by their frequency in it and their
// rarity across texts (smoothed IDF: log((1+n)/(1+df)) + 1).
func tfidf(texts [][]string) []vector {
	df := map[string]int{}
	for _, ts := range texts {
		seen := map[string]bool{}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	n := float64(len(texts))
	out := make([]vector, len(texts))
	for i, ts := range texts {
		v := vector{w: map[string]float64{}}
		for _, t := range ts {
			v.w[t]++
		}
		for t, tf := range v.w {
			x := tf * (math.Log((1+n)/(1+float64(df[t]))) + 1)
			v.w[t] = x
			v.norm += x * x
		}
		v.norm = math.Sqrt(v.norm)
		out[i] = v
	}
	return out
}

// vectors are the TF-IDF vectors of sents and of query (a title or a
// question), weighed over them all.
func vectors(sents []string, query string) ([]vector, vector) {
	texts := make([][]string, len(sents)+1)
	for i, s := range sents {
		texts[i] = terms(s)
	}
	texts[len(sents)] = terms(query)
	vs := tfidf(texts)
	return vs[:len(sents)], vs[len(sents)]
}

// cosine is the cosine similarity of a and b (0 when either is empty).
func cosine(a, b vector) float64 {
	if a.norm == 0 || b.norm == 0 {
		return 0
	}
	if len(a.w) > len(b.w) {
		a, b = b, a
	}
	var dot float64
	for t, x := range a.w {
		dot += x * b.w[t]
	}
	return dot / (a.norm * b.norm)
}

// similarities is the matrix of cosine similarities between vectors.
func similarities(vs []vector) [][]float64 {
	sim := make([][]float64, len(vs))
	for i := range vs {
		sim[i] = make([]float64, len(vs))
	}
	for i := range vs {
		sim[i][i] = 1
		for j := i + 1; j < len(vs); j++ {
			x := cosine(vs[i], vs[j])
			sim[i][j], sim[j][i] = x, x
		}
	}
	return sim
}

// LexRank parameters (Erkan and Radev 2004, continuous LexRank): the
// damping of the random walk (how often it follows similarity rather than
// jumping by the bias) and when the power iteration has converged. Biased
// LexRank gives the bias a large share (Otterbacher et al. weigh it 0.7 to
// 0.95): a circular has a handful of sentences, all about alike, and
// similarity alone barely tells its obligation from its background.
const (
	damping   = 0.4
	tolerance = 1e-6
	maxIter   = 100
)

// lexRank scores sentences by their centrality in the graph of their
// similarities: the stationary distribution of a random walk that follows
// similarity-weighted edges with probability damping and otherwise jumps
// to a sentence drawn from bias (biased LexRank, Otterbacher et al. 2005),
// which favours sentences that state obligations or deadlines or share
// the title's terms. Scores sum to 1.
func lexRank(sim [][]float64, bias []float64) []float64 {
	n := len(sim)
	if n == 0 {
		return nil
	}
	var bsum float64
	for _, b := range bias {
		bsum += b
	}
	jump := make([]float64, n)
	for i := range jump {
		jump[i] = bias[i] / bsum
	}
	// Row-stochastic transitions over other sentences; a sentence like no
	// other jumps by bias alone.
	rowSum := make([]float64, n)
	for i := range sim {
		for j, x := range sim[i] {
			if i != j {
				rowSum[i] += x
			}
		}
	}
	p := make([]float64, n)
	copy(p, jump)
	next := make([]float64, n)
	for range maxIter {
		for j := range next {
			next[j] = (1 - damping) * jump[j]
		}
		for i := range n {
			if rowSum[i] == 0 {
				for j := range next {
					next[j] += damping * p[i] * jump[j]
				}
				continue
			}
			for j, x := range sim[i] {
				if i != j && x > 0 {
					next[j] += damping * p[i] * x / rowSum[i]
				}
			}
		}
		var delta float64
		for i := range p {
			delta += math.Abs(next[i] - p[i])
		}
		p, next = next, p
		if delta < tolerance {
			break
		}
	}
	return p
}

// mmr picks sentences by maximal marginal relevance (Carbonell and
// Goldstein 1998): each pick maximises lambda × its score (scaled to the
// best) minus (1 − lambda) × its greatest similarity to a sentence already
// picked, so a second sentence saying the same thing loses to one saying
// something new; one more similar than maxSimilar to a pick is never
// picked. fits reports whether a candidate still fits the length bound
// beside those picked; candidates scoring 0 are never picked. Picking
// goes on from picked (nil: none yet); the picks are returned in the
// order picked.
const maxSimilar = 0.6

func mmr(scores []float64, sim [][]float64, lambda float64, fits func(picked []int, i int) bool, picked []int) []int {
	var best float64
	for _, s := range scores {
		best = max(best, s)
	}
	if best == 0 {
		return picked
	}
	used := make([]bool, len(scores))
	for _, i := range picked {
		used[i] = true
	}
	for {
		pick, pickScore := -1, math.Inf(-1)
		for i, s := range scores {
			if used[i] || s <= 0 || !fits(picked, i) {
				continue
			}
			var red float64
			for _, j := range picked {
				red = max(red, sim[i][j])
			}
			if red > maxSimilar {
				continue
			}
			if m := lambda*s/best - (1-lambda)*red; m > pickScore {
				pick, pickScore = i, m
			}
		}
		if pick < 0 {
			return picked
		}
		used[pick] = true
		picked = append(picked, pick)
	}
}
