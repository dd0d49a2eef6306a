package ai

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"regpulse/internal/search"
)

// The invention guard. Professionals act on the figures a summary states,
// so a generated text may state a number, date, time, duration,
// percentage or amount only when its source states it too. Values are
// compared, not spellings (search.Values reads them): ₹5 lakh,
// Rs. 5,00,000 and INR 500000 are one amount; 1 April 2020, April 1,
// 2020, 01.04.2020 and 2020-04-01 one date; six months and 6 months one
// duration.

// Unsupported lists the values output states that source does not, as
// output spells them, in order of appearance; nil when every one is there.
func Unsupported(output, source string) []string {
	known := factsOf(source)
	var missing []string
	for _, f := range scanFacts(output) {
		if !known.has(f) {
			missing = append(missing, f.text)
		}
	}
	return missing
}

// fact is one value a text states: a key per possible reading (a numeric
// date may be day-first or month-first), and what a source stating it
// states as well (a date's month, day and year; a scaled amount's number).
type fact struct {
	text    string
	keys    []string
	implies []string
}

type factSet map[string]bool

func (s factSet) has(f fact) bool {
	for _, k := range f.keys {
		if s[k] {
			return true
		}
	}
	return false
}

// factsOf is every value source states, with what each implies: a source
// dated 1 April 2020 supports "April 2020", "1 April" and "2020"; one
// stating ₹5 lakh supports "500000" and "5"; one saying "twice" supports 2.
func factsOf(source string) factSet {
	s := factSet{}
	for _, v := range search.Values(source) {
		for _, k := range append(v.Keys, v.Implies...) {
			s[k] = true
		}
	}
	for _, w := range numberWord.FindAllString(source, -1) {
		s[search.NumberKey(numberWords[strings.ToLower(w)])] = true
	}
	return s
}

// numberWords are the words a source may use where a summary writes
// digits: the numbers Values reads in words, and a few more.
var numberWords = func() map[string]float64 {
	m := map[string]float64{"first": 1, "second": 2, "third": 3, "half": 0.5, "once": 1, "twice": 2, "single": 1, "double": 2}
	for w, v := range search.NumberWords {
		m[w] = v
	}
	return m
}()

var numberWord = func() *regexp.Regexp {
	words := make([]string, 0, len(numberWords))
	for w := range numberWords {
		words = append(words, w)
	}
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(words, "|") + `)\b`)
}()

// scanFacts finds the values text states that a model is held to: every
// one but a count in words ("one of them", "three retries"), which too
// many ordinary sentences contain to hold anyone to.
func scanFacts(text string) []fact {
	var out []fact
	for _, v := range search.Values(text) {
		if v.Spelled && v.Kind == search.ValueNumber {
			continue
		}
		out = append(out, fact{text: v.Text, keys: v.Keys, implies: v.Implies})
	}
	return out
}

// Correction is what a model is told after stating values its source does
// not: named, so it can fix them.
func Correction(missing []string) string {
	return fmt.Sprintf("Your previous answer stated %s, which the source text does not state. "+
		"Answer again using only numbers, dates, percentages and amounts that appear in the source text.",
		quoteList(missing))
}

func quoteList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
