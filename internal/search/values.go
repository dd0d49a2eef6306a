package search

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values: the numbers, dates, amounts and durations a text states, read
// once for everything that compares them: the direct answer (the fact a
// question asks for) and the invention guard of internal/ai (a model may
// state a value only when its source does). Values are compared, not
// spellings: ₹5 lakh, Rs. 5,00,000 and INR 500000 are one amount;
// 1 April 2020, April 1, 2020, 01.04.2020 and 2020-04-01 one date;
// "six months" and "6 months" one duration.

// Value is one value a text states.
type Value struct {
	Kind string
	// Start and End are its byte offsets in the text; Text is the value
	// as written there.
	Start, End int
	Text       string
	// Keys are its readings (a numeric date may be day-first or
	// month-first); Implies what a text stating it states as well (a
	// date's month, day and year; a scaled amount's number).
	Keys, Implies []string
	// Spelled is a number written in words ("three retries").
	Spelled bool
}

// Kinds of Value.
const (
	ValueDate     = "date"     // a day, a day of a month, or a month of a year
	ValueTime     = "time"     // a time of day
	ValueYear     = "year"     // a year alone
	ValueAmount   = "amount"   // money, a number with a scale (10 lakh) or a percentage
	ValueDuration = "duration" // a span of time: six months, 10 working days, T+1
	ValueNumber   = "number"   // any other number
)

const monthRe = `(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`

const numRe = `(?:\d{1,3}(?:,\d{2,3})+|\d+)(?:\.\d+)?`

// NumberWords are the numbers a text may spell out ("within thirty days").
var NumberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
	"fifty": 50, "sixty": 60, "ninety": 90, "hundred": 100, "thousand": 1000,
}

// spelledRe matches a number word; countWords leaves out "one", which
// says "a" more often than it counts ("one set of rules", "one of them").
var spelledRe, countWordRe = func() (*regexp.Regexp, *regexp.Regexp) {
	var all, counts []string
	for w := range NumberWords {
		all = append(all, w)
		if w != "one" {
			counts = append(counts, w)
		}
	}
	slices.Sort(all)
	slices.Sort(counts)
	return regexp.MustCompile(strings.Join(all, "|")), regexp.MustCompile(`(?i)\b(?:` + strings.Join(counts, "|") + `)\b`)
}()

var (
	isoDate      = regexp.MustCompile(`\b(\d{4})-(\d{1,2})-(\d{1,2})\b`)
	numericDate  = regexp.MustCompile(`\b(\d{1,2})[./-](\d{1,2})[./-](\d{4})\b`)
	dayMonthYear = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\.?,?\s+(\d{4})\b`)
	monthDayYear = regexp.MustCompile(`(?i)\b` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	monthYear    = regexp.MustCompile(`(?i)\b` + monthRe + `\.?,?\s+(\d{4})\b`)
	dayMonth     = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\b`)
	monthDay     = regexp.MustCompile(`(?i)\b` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b`)
	clockTime    = regexp.MustCompile(`(?i)\b(\d{1,2}):(\d{2})(?:\s*(am|pm|a\.m\.|p\.m\.))?`)
	// A duration: a number, in digits or words, and a unit of time.
	duration = regexp.MustCompile(`(?i)\b(` + numRe + `|` + spelledRe.String() + `)(?:[\s-]+(?:working|business|calendar|clear))?[\s-]+(second|minute|hour|day|week|month|year)s?\b`)
	// T+1: a settlement or reversal day counted from the transaction's.
	tDay = regexp.MustCompile(`\bT\s*\+\s*(\d{1,2})\b`)
	// An amount: an optional currency (₹, Rs., INR, rupees), a number, and
	// an optional Indian or Western scale or a percent sign.
	amount = regexp.MustCompile(`(?i)(?:(₹|\brs\.?|\binr|\brupees)\s*)?(` + numRe + `)(?:\s*(lakhs?|lacs?|crores?|cr\b|million|mn\b|billion|bn\b|thousand)|\s*(%|per\s?cent\b))?`)
)

var scales = map[string]float64{
	"lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "crore": 1e7, "crores": 1e7, "cr": 1e7,
	"million": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "thousand": 1e3,
}

// Values finds the values text states, in order. Dates are read first
// and blanked out, so their day and year are not read again as numbers;
// then times, durations, amounts and numbers, and numbers in words.
func Values(text string) []Value {
	var out []Value
	b := []byte(text)
	// Most sentences state no number: their words are looked up before
	// any expression runs.
	digits, spelled := strings.ContainsAny(text, "0123456789"), false
	eachWord(text, func(start, end int) {
		if !spelled && end-start <= 8 && NumberWords[strings.ToLower(text[start:end])] > 0 {
			spelled = true
		}
	})
	take := func(re *regexp.Regexp, read func(m []string) (v Value, ok bool)) {
		if !digits && (!spelled || re != duration && re != countWordRe) {
			return
		}
		for _, loc := range re.FindAllSubmatchIndex(b, -1) {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = string(b[loc[2*i]:loc[2*i+1]])
				}
			}
			v, ok := read(m)
			if !ok {
				continue
			}
			v.Start, v.End = loc[0], loc[1]
			// Trailing spaces are not the value's.
			for v.End > v.Start && b[v.End-1] == ' ' {
				v.End--
			}
			v.Text = text[v.Start:v.End]
			out = append(out, v)
			for i := loc[0]; i < loc[1]; i++ {
				b[i] = ' '
			}
		}
	}
	dateOf := func(keys, implies []string) (Value, bool) {
		return Value{Kind: ValueDate, Keys: keys, Implies: implies}, keys != nil
	}
	take(isoDate, func(m []string) (Value, bool) { return dateOf(date(m[1], m[2], m[3])) })
	take(numericDate, func(m []string) (Value, bool) {
		k1, i1 := date(m[3], m[2], m[1])
		k2, i2 := date(m[3], m[1], m[2])
		return dateOf(append(k1, k2...), append(i1, i2...))
	})
	take(dayMonthYear, func(m []string) (Value, bool) { return dateOf(date(m[3], monthNum(m[2]), m[1])) })
	take(monthDayYear, func(m []string) (Value, bool) { return dateOf(date(m[3], monthNum(m[1]), m[2])) })
	take(monthYear, func(m []string) (Value, bool) {
		y, _ := strconv.Atoi(m[2])
		mm, _ := strconv.Atoi(monthNum(m[1]))
		return dateOf([]string{fmt.Sprintf("month:%04d-%02d", y, mm)}, []string{numKey(float64(y))})
	})
	dm := func(day, month string) (Value, bool) {
		d, _ := strconv.Atoi(day)
		mm, _ := strconv.Atoi(month)
		if d < 1 || d > 31 {
			return Value{}, false
		}
		return dateOf([]string{fmt.Sprintf("day:%02d-%02d", mm, d)}, []string{numKey(float64(d))})
	}
	take(dayMonth, func(m []string) (Value, bool) { return dm(m[1], monthNum(m[2])) })
	take(monthDay, func(m []string) (Value, bool) { return dm(m[2], monthNum(m[1])) })
	take(clockTime, func(m []string) (Value, bool) {
		h, _ := strconv.Atoi(m[1])
		mins, _ := strconv.Atoi(m[2])
		if strings.HasPrefix(strings.ToLower(m[3]), "p") && h < 12 {
			h += 12
		}
		if h > 24 || mins > 59 {
			return Value{}, false
		}
		return Value{Kind: ValueTime, Keys: []string{fmt.Sprintf("time:%02d:%02d", h, mins)},
			Implies: []string{numKey(float64(h)), numKey(float64(mins))}}, true
	})
	take(duration, func(m []string) (Value, bool) {
		n, spelled := number(m[1])
		unit := strings.ToLower(m[2])
		return Value{Kind: ValueDuration, Keys: []string{"duration:" + strconv.FormatFloat(n, 'f', -1, 64) + " " + unit},
			Implies: []string{numKey(n)}, Spelled: spelled}, true
	})
	take(tDay, func(m []string) (Value, bool) {
		n, _ := strconv.Atoi(m[1])
		return Value{Kind: ValueDuration, Keys: []string{fmt.Sprintf("duration:T+%d", n)}, Implies: []string{numKey(float64(n))}}, true
	})
	take(amount, func(m []string) (Value, bool) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		if err != nil {
			return Value{}, false
		}
		switch s := strings.ToLower(m[3]); {
		case s != "":
			return Value{Kind: ValueAmount, Keys: []string{numKey(v * scales[s])}, Implies: []string{numKey(v)}}, true
		case m[1] != "" || m[4] != "":
			return Value{Kind: ValueAmount, Keys: []string{numKey(v)}}, true
		case len(m[2]) == 4 && v >= 1900 && v <= 2100:
			return Value{Kind: ValueYear, Keys: []string{numKey(v)}}, true
		}
		return Value{Kind: ValueNumber, Keys: []string{numKey(v)}}, true
	})
	take(countWordRe, func(m []string) (Value, bool) {
		n, _ := number(m[0])
		return Value{Kind: ValueNumber, Keys: []string{numKey(n)}, Spelled: true}, true
	})
	slices.SortFunc(out, func(a, b Value) int { return a.Start - b.Start })
	return out
}

// number reads a number in digits or words; spelled says it was words.
func number(s string) (n float64, spelled bool) {
	if v, ok := NumberWords[strings.ToLower(s)]; ok {
		return v, true
	}
	v, _ := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return v, false
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

// NumberKey is the key Values gives the number v.
func NumberKey(v float64) string { return numKey(v) }
