package search

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"regpulse/internal/catalog"
)

// PageSize is how many circulars one page of results holds.
const PageSize = 5

// MaxQueryLength is the longest query, in characters, a search accepts.
const MaxQueryLength = 400

// Errors of a query a client sent.
var (
	ErrEmptyQuery   = errors.New("search: the query is empty")
	ErrQueryTooLong = fmt.Errorf("search: the query is longer than %d characters", MaxQueryLength)
)

// Query is one search: the text as typed, the filters and the page.
type Query struct {
	Text     string
	Source   string // "" for all
	Category string // "" for all
	Page     int    // from 1
	// ByDate orders every match that has all the query's terms newest
	// first and leaves out the others (the search's feed).
	ByDate bool
	Limit  int // with ByDate: how many
}

// Check reports a query a search cannot run: empty or too long.
func (q Query) Check() error {
	switch {
	case strings.TrimSpace(q.Text) == "":
		return ErrEmptyQuery
	case utf8.RuneCountInString(q.Text) > MaxQueryLength:
		return ErrQueryTooLong
	}
	return nil
}

// Term is one word of a query and the index keys that match it: its own
// key, or, when the index has no such key, the keys of the indexed words it
// begins (a prefix) or of the indexed word it misspells.
type Term struct {
	Word string
	Keys []string
	// Corrected is the indexed word that replaced a misspelt Word ("" if none).
	Corrected string
}

// Plan is a query read and widened over an index's vocabulary, ready for
// a store to render into its own query language. Every key is letters or
// digits only, so no user input reaches the store's query syntax.
type Plan struct {
	Query Query
	Terms []Term
	// Number is the keys of a circular number typed in the query
	// ("RBI/2021-22/96" is rbi 2021 22 96), to be matched as a phrase
	// in the number column; nil when the query has none.
	Number []string
	// Latest: the query is about UPI, so strong matches go newest first.
	Latest bool
	// English is the query's text in English when it was typed in Hindi
	// or Hinglish (Translate: "केवाईसी नियम" is "kyc rules"), what is
	// searched and what the answer reads; "" when it was English.
	English string
}

// Text is the query's text as searched: its English translation, or the
// text as typed.
func (p Plan) Text() string {
	if p.English != "" {
		return p.English
	}
	return p.Query.Text
}

// Correction says how a query was corrected: the query as typed and as
// searched ("Showing results for ...").
type Correction struct {
	Original  string `json:"original"`
	Corrected string `json:"corrected"`
}

// Correction is nil when no term was corrected.
func (p Plan) Correction() *Correction {
	if !slices.ContainsFunc(p.Terms, func(t Term) bool { return t.Corrected != "" }) {
		return nil
	}
	words := Tokens(p.Text())
	out := make([]string, 0, len(words))
	for _, w := range words {
		out = append(out, w.Word)
		for _, t := range p.Terms {
			if t.Word == w.Word && t.Corrected != "" {
				out[len(out)-1] = t.Corrected
			}
		}
	}
	return &Correction{Original: strings.TrimSpace(p.Query.Text), Corrected: strings.Join(out, " ")}
}

// Word is an indexed word and its key.
type Word struct {
	Word string
	Key  string
}

// Vocabulary is what an index knows of its words. A store answers it from
// its index (FTS5's fts5vocab, or PostgreSQL's ts_stat) and its table of
// indexed words.
type Vocabulary interface {
	// Docs returns, for each key present in the index, how many
	// circulars contain it; absent keys are left out.
	Docs(ctx context.Context, keys []string) (map[string]int, error)
	// Prefixed returns up to n indexed words that start with prefix.
	Prefixed(ctx context.Context, prefix string, n int) ([]Word, error)
	// Near returns the indexed words that start with first and are
	// minLen to maxLen bytes long: the candidates of a typo correction.
	Near(ctx context.Context, first string, minLen, maxLen int) ([]Word, error)
}

// Column weights of the ranking (bm25's per column): a match in the
// circular number counts most, then the title, the summary, the text.
const (
	WeightNumber  = 10.0
	WeightTitle   = 5.0
	WeightSummary = 2.0
	WeightContent = 1.0
)

// Tiers order the matches before the column-weighted score does: the
// circular whose number was typed, then circulars with every term in
// their number, title or summary, then those with every term anywhere,
// then those with some terms. The last tier is searched only when fewer
// than a page of circulars hold every term, and never for a number.
const (
	TierNumber = iota
	TierStrong
	TierAll
	TierAny
)

// prefixMin is the shortest word completed as a prefix; typoMin the
// shortest corrected as a misspelling (shorter words have too many
// neighbours to guess from).
const (
	prefixMin   = 3
	typoMin     = 4
	prefixLimit = 20
)

// Prepare reads q and widens its terms over vocab.
func Prepare(ctx context.Context, q Query, vocab Vocabulary) (Plan, error) {
	if err := q.Check(); err != nil {
		return Plan{}, err
	}
	p := Plan{Query: q, Number: numberKeys(q.Text)}
	en, typed, ok := translate(q.Text)
	if ok {
		p.English = en
	}
	lower := strings.ToLower(p.Text())
	p.Latest = slices.ContainsFunc(Tokens(lower), func(t Token) bool { return t.Word == "upi" }) ||
		strings.Contains(strings.Join(strings.Fields(lower), " "), "unified payment")

	toks := Tokens(p.Text())
	var words []string
	for _, t := range toks {
		if !StopWord(t.Word) && !slices.Contains(words, t.Word) {
			words = append(words, t.Word)
		}
	}
	if len(words) == 0 { // a query of stop words only searches them
		for _, t := range toks {
			if !slices.Contains(words, t.Word) {
				words = append(words, t.Word)
			}
		}
	}
	keys := make([]string, len(words), len(words)+len(typed))
	for i, w := range words {
		keys[i] = Key(w)
	}
	for _, w := range words { // the Hindi words translated, for Hindi circulars
		for _, h := range typed[w] {
			keys = append(keys, Key(h))
		}
	}
	docs, err := vocab.Docs(ctx, keys)
	if err != nil {
		return Plan{}, err
	}
	for i, w := range words {
		t := Term{Word: w, Keys: []string{keys[i]}}
		if docs[keys[i]] == 0 && !isNumber(keys[i]) {
			if t, err = widen(ctx, t, vocab); err != nil {
				return Plan{}, err
			}
		}
		for _, h := range typed[w] {
			if k := Key(h); docs[k] > 0 && !slices.Contains(t.Keys, k) {
				if t.Corrected != "" || docs[t.Keys[0]] == 0 && len(t.Keys) == 1 {
					// Only the Hindi word is in the index: it alone is the term.
					t.Keys, t.Corrected = nil, ""
				}
				t.Keys = append(t.Keys, k)
			}
		}
		p.Terms = append(p.Terms, t)
	}
	return p, nil
}

// PlanText reads text as a query over texts that hold every word, with
// no prefix or typo widening: a question asked of given passages (the
// local AI's answers), not of the index.
func PlanText(text string) (Plan, error) {
	return Prepare(context.Background(), Query{Text: text}, everyWord{})
}

// everyWord is a vocabulary holding every word.
type everyWord struct{}

func (everyWord) Docs(_ context.Context, keys []string) (map[string]int, error) {
	out := make(map[string]int, len(keys))
	for _, k := range keys {
		out[k] = 1
	}
	return out, nil
}

func (everyWord) Prefixed(context.Context, string, int) ([]Word, error)  { return nil, nil }
func (everyWord) Near(context.Context, string, int, int) ([]Word, error) { return nil, nil }

// widen finds keys for a word the index does not have: the words it is a
// prefix of, else the nearest word by edit distance (1 for words up to 7
// letters, 2 above), the one in most circulars on a tie.
func widen(ctx context.Context, t Term, vocab Vocabulary) (Term, error) {
	if len(t.Word) >= prefixMin {
		words, err := vocab.Prefixed(ctx, t.Word, prefixLimit)
		if err != nil {
			return t, err
		}
		var keys []string
		for _, w := range words {
			if !slices.Contains(keys, w.Key) {
				keys = append(keys, w.Key)
			}
		}
		if len(keys) > 0 {
			docs, err := vocab.Docs(ctx, keys)
			if err != nil {
				return t, err
			}
			keys = slices.DeleteFunc(keys, func(k string) bool { return docs[k] == 0 })
			if len(keys) > 0 {
				t.Keys = keys
				return t, nil
			}
		}
	}
	n := utf8.RuneCountInString(t.Word)
	if n < typoMin {
		return t, nil
	}
	maxDist := 1
	if n >= 8 {
		maxDist = 2
	}
	first, _ := utf8.DecodeRuneInString(t.Word)
	cands, err := vocab.Near(ctx, string(first), len(t.Word)-maxDist, len(t.Word)+maxDist)
	if err != nil {
		return t, err
	}
	type scored struct {
		w    Word
		dist int
	}
	var near []scored
	for _, c := range cands {
		if d := editDistance(t.Word, c.Word, maxDist); d <= maxDist && c.Word != t.Word {
			near = append(near, scored{c, d})
		}
	}
	if len(near) == 0 {
		return t, nil
	}
	keys := make([]string, len(near))
	for i, c := range near {
		keys[i] = c.w.Key
	}
	docs, err := vocab.Docs(ctx, keys)
	if err != nil {
		return t, err
	}
	best := -1
	for i, c := range near {
		if docs[c.w.Key] == 0 {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := near[best]
		if c.dist < b.dist || c.dist == b.dist && (docs[c.w.Key] > docs[b.w.Key] ||
			docs[c.w.Key] == docs[b.w.Key] && c.w.Word < b.w.Word) {
			best = i
		}
	}
	if best < 0 {
		return t, nil
	}
	t.Keys = []string{near[best].w.Key}
	t.Corrected = near[best].w.Word
	return t, nil
}

// editDistance is the Levenshtein distance of a and b (by rune), or
// max+1 as soon as it must exceed max.
func editDistance(a, b string, max int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > max || -d > max {
		return max + 1
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func isNumber(w string) bool { return w != "" && w[0] >= '0' && w[0] <= '9' }

// numberKeys are the keys of the circular number in text, when text holds
// one: a run of words with at least one that mixes digits with the
// separators regulators use ('RBI/2021-22/96', 'No.1810', '02.14.008').
// The whole query is the number then, since that is how people paste it.
func numberKeys(text string) []string {
	found := false
	for _, f := range strings.Fields(text) {
		if strings.ContainsAny(f, "0123456789") && strings.ContainsAny(strings.Trim(f, "./-"), "/.-") {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	var keys []string
	for _, t := range Tokens(text) {
		keys = append(keys, t.Key)
	}
	return keys
}

// Columns of a circular the index holds, in the order of the column
// weights: the circular number, the title, the summary, the text.
const (
	ColumnNumber = iota
	ColumnTitle
	ColumnSummary
	ColumnContent
	Columns
)

// Weights are the column weights by column.
var Weights = [Columns]float64{WeightNumber, WeightTitle, WeightSummary, WeightContent}

// Document is what an index holds of a circular: its distinct keys, each
// column's words in order as places in Keys, and the distinct words with
// their keys for the vocabulary's prefix and typo look-ups.
type Document struct {
	Keys    []string
	Columns [Columns][]int32
	Words   []Word
}

// Index is the Document of c. summary is the summary the circular is
// shown with: one stored by the API when there is one, else the catalog's.
func Index(c catalog.Circular, summary string) Document {
	return indexColumns([Columns]string{string(c.CircularNumber), c.Title, summary, c.Content})
}

// IndexProvision is the Document of a Master Direction's provision: its
// id in the number column (a paragraph typed as "9.1" is matched as a
// phrase, as a circular number is), the direction's title and the
// provision's heading as the title, its text as the text.
func IndexProvision(p ProvisionHit) Document {
	return indexColumns([Columns]string{p.ID, p.DirectionTitle + "\n" + string(p.Heading), "", p.Text})
}

// indexColumns is the Document of a text's columns.
func indexColumns(columns [Columns]string) Document {
	var d Document
	// Each distinct word is lower-cased and keyed once per circular: a
	// text repeats its few hundred words thousands of times.
	// Sized for a circular's few hundred distinct words, or a short
	// text's fewer (a provision: tens of thousands are keyed at once).
	size := 0
	for _, text := range columns {
		size += len(text) / 6
	}
	size = min(size+8, 256)
	places := make(map[string]int32, size) // word -> place of its key
	short := make(map[uint64]int32, size)  // the same for ASCII words of up to 8 letters, packed
	keyPlace := make(map[string]int32, size)
	var buf []byte
	for i, text := range columns {
		col := make([]int32, 0, len(text)/6+1) // a word and a space take six bytes or so
		eachWord(text, func(start, end int) {
			w := text[start:end]
			packed, isShort := packASCII(w)
			if isShort {
				if p, ok := short[packed]; ok {
					col = append(col, p)
					return
				}
			}
			if hasUpperASCII(w) {
				buf = append(buf[:0], w...)
				for j, ch := range buf {
					if 'A' <= ch && ch <= 'Z' {
						buf[j] = ch + 'a' - 'A'
					}
				}
				if p, ok := places[string(buf)]; ok {
					col = append(col, p)
					return
				}
				w = strings.ToLower(w) // non-ASCII letters too
			} else if p, ok := places[w]; ok {
				col = append(col, p)
				return
			} else if !isASCII(w) {
				w = strings.ToLower(w)
			}
			if p, ok := places[w]; ok { // a non-ASCII capital
				col = append(col, p)
				return
			}
			w = strings.Clone(w) // not the whole text's memory
			k := Key(w)
			p, ok := keyPlace[k]
			if !ok {
				p = int32(len(d.Keys))
				keyPlace[k] = p
				d.Keys = append(d.Keys, k)
			}
			places[w] = p
			if isShort {
				short[packed] = p
			}
			col = append(col, p)
			if !isNumber(k) && len(w) >= prefixMin {
				d.Words = append(d.Words, Word{Word: w, Key: k})
			}
		})
		d.Columns[i] = col
	}
	return d
}

// packASCII is an ASCII word of at most 8 letters lower-cased into the
// bytes of a number (no letter is 0, so no two words share one).
func packASCII(w string) (uint64, bool) {
	if len(w) > 8 {
		return 0, false
	}
	var v uint64
	for j := 0; j < len(w); j++ {
		c := w[j]
		if c >= utf8.RuneSelf {
			return 0, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		v |= uint64(c) << (8 * j)
	}
	return v, true
}

func hasUpperASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
