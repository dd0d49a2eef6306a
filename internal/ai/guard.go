package ai

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The invention guard. Professionals act on the figures a summary states,
// so a generated text may state a number, date, percentage or amount only
// when its source states it too. Values are compared, not spellings: ₹5
// lakh, Rs. 5,00,000 and INR 500000 are one amount; 1 April 2020,
// April 1, 2020, 01.04.2020 and 2020-04-01 one date.

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
// stating ₹5 lakh supports "500000" and "5".
func factsOf(source string) factSet {
	s := factSet{}
	for _, f := range scanFacts(source) {
		for _, k := range append(f.keys, f.implies...) {
			s[k] = true
		}
	}
	for _, w := range numberWord.FindAllString(source, -1) {
		s[numKey(numberWords[strings.ToLower(w)])] = true
	}
	return s
}

// numberWords are the spelled numbers a source may use where a summary
// writes digits ("within thirty days").
var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "thousand": 1000, "first": 1, "second": 2,
	"third": 3, "half": 0.5, "once": 1, "twice": 2, "single": 1, "double": 2,
}

var numberWord = func() *regexp.Regexp {
	words := make([]string, 0, len(numberWords))
	for w := range numberWords {
		words = append(words, w)
	}
	return regexp.MustCompile(`(?i)\b(?:` + strings.Join(words, "|") + `)\b`)
}()

const monthRe = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

const numRe = `(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`

var (
	isoDate      = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	numericDate  = regexp.MustCompile(`\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b`)
	dayMonthYear = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\.?,?\s+(\d{4})\b`)
	monthDayYear = regexp.MustCompile(`(?i)\b` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	monthYear    = regexp.MustCompile(`(?i)\b` + monthRe + `\.?,?\s+(\d{4})\b`)
	dayMonth     = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\b`)
	monthDay     = regexp.MustCompile(`(?i)\b` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	// An amount: an optional currency (₹, Rs., INR, rupees), a number and
	// an optional Indian or Western scale.
	amount = regexp.MustCompile(`(?i)(?:(₹|\brs\.?|\binr|\brupees)\s*)?(` + numRe + `)\s*(lakhs?|lacs?|crores?|cr\b|million|mn\b|billion|bn\b|thousand)?`)
)

var scales = map[string]float64{
	"lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "crore": 1e7, "crores": 1e7, "cr": 1e7,
	"million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "thousand": 1e3,
}

// scanFacts finds the values text states. Dates are taken first and blanked
// out, so their day and year are not read again as numbers.
func scanFacts(text string) []fact {
	type hit struct {
		at int
		f  fact
	}
	var hits []hit
	b := []byte(text)
	take := func(re *regexp.Regexp, read func(m []string) (keys, implies []string)) {
		for _, loc := range re.FindAllSubmatchIndex(b, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = string(b[loc[2*i]:loc[2*i+1]])
				}
			}
			keys, implies := read(m)
			if keys == nil {
				continue
			}
			hits = append(hits, hit{loc[0], fact{text: strings.TrimSpace(text[loc[0]:loc[1]]), keys: keys, implies: implies}})
			for i := loc[0]; i < loc[1]; i++ {
				b[i] = ' '
			}
		}
	}
	take(isoDate, func(m []string) ([]string, []string) { return date(m[1], m[2], m[3]) })
	take(numericDate, func(m []string) ([]string, []string) {
		k1, i1 := date(m[3], m[2], m[1])
		k2, i2 := date(m[3], m[1], m[2])
		return append(k1, k2...), append(i1, i2...)
	})
	take(dayMonthYear, func(m []string) ([]string, []string) { return date(m[3], monthNum(m[2]), m[1]) })
	take(monthDayYear, func(m []string) ([]string, []string) { return date(m[3], monthNum(m[1]), m[2]) })
	take(monthYear, func(m []string) ([]string, []string) {
		y, _ := strconv.Atoi(m[2])
		mm, _ := strconv.Atoi(monthNum(m[1]))
		return []string{fmt.Sprintf("month:%04d-%02d", y, mm)}, []string{numKey(float64(y))}
	})
	dm := func(day, month string) ([]string, []string) {
		d, _ := strconv.Atoi(day)
		mm, _ := strconv.Atoi(month)
		if d < 1 || d > 31 {
			return nil, nil
		}
		return []string{fmt.Sprintf("day:%02d-%02d", mm, d)}, []string{numKey(float64(d))}
	}
	take(dayMonth, func(m []string) ([]string, []string) { return dm(m[1], monthNum(m[2])) })
	take(monthDay, func(m []string) ([]string, []string) { return dm(m[2], monthNum(m[1])) })
	take(amount, func(m []string) ([]string, []string) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		if err != nil {
			return nil, nil
		}
		if s := strings.ToLower(m[3]); s != "" {
			return []string{numKey(v * scales[s])}, []string{numKey(v)}
		}
		return []string{numKey(v)}, nil
	})
	// Facts in order of appearance, for a readable correction.
	out := make([]fact, 0, len(hits))
	for len(hits) > 0 {
		first := 0
		for i, h := range hits {
			if h.at < hits[first].at {
				first = i
			}
		}
		out = append(out, hits[first].f)
		hits = append(hits[:first], hits[first+1:]...)
	}
	return out
}

// date is the key of a valid date (nil if it is none) and what it implies:
// its month, its day and month, and its numbers.
func date(year, month, day string) (keys, implies []string) {
	y, _ := strconv.Atoi(year)
	m, _ := strconv.Atoi(month)
	d, _ := strconv.Atoi(day)
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if m < 1 || m > 12 || t.Day() != d {
		return nil, nil
	}
	return []string{"date:" + t.Format(time.DateOnly)}, []string{
		fmt.Sprintf("month:%04d-%02d", y, m), fmt.Sprintf("day:%02d-%02d", m, d),
		numKey(float64(y)), numKey(float64(m)), numKey(float64(d)),
	}
}

// monthNum is a month name's number, as text.
func monthNum(name string) string {
	months := []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}
	p := strings.ToLower(name)[:3]
	for i, m := range months {
		if m == p {
			return strconv.Itoa(i + 1)
		}
	}
	return "0"
}

func numKey(v float64) string { return "num:" + strconv.FormatFloat(v, 'f', -1, 64) }

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
