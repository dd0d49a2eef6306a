package search

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What a question asks for, read from its words (readQuestion), so that
// the direct answer is the sentence stating a fact of that kind, not the
// one that merely repeats the question's terms.
const (
	AnswerDate       = "date"       // when, from when, by when, until, deadline, what time
	AnswerAmount     = "amount"     // how much, limit, cap, maximum, net worth, what share
	AnswerDuration   = "duration"   // how long, within how many days, how often
	AnswerCount      = "count"      // how many
	AnswerYesNo      = "yesNo"      // can, may, must, is it allowed, do ... need
	AnswerWho        = "who"        // who, which banks
	AnswerDefinition = "definition" // what is, what does ... mean
)

// AnswerTypes are the kinds of fact a question may ask for.
var AnswerTypes = []string{AnswerDate, AnswerAmount, AnswerDuration, AnswerCount, AnswerYesNo, AnswerWho, AnswerDefinition}

// question is what a query asks.
type question struct {
	// typ is one of AnswerTypes, "" for a query that is no question we
	// recognise (a topic: "card tokenisation").
	typ string
	// cues are the query's words that say what is asked ("long" in "how
	// long", a modal verb), not what about: they are not looked for in
	// the answer.
	cues map[string]bool
	// by: a date question asks for a deadline (by when, until, deadline);
	// from: for a start (from when, since, apply, take effect).
	by, from bool
	// counted are the keys of the words a count question counts ("how many
	// balance enquiries" counts balance enquiries).
	counted []string
	// values are the keys of the values the question itself states: a
	// sentence does not answer it by repeating them.
	values map[string]bool
}

var (
	unitWords = map[string]bool{"second": true, "seconds": true, "minute": true, "minutes": true, "hour": true, "hours": true,
		"day": true, "days": true, "week": true, "weeks": true, "month": true, "months": true, "year": true, "years": true,
		"working": true, "business": true, "calendar": true}
	auxiliaries = map[string]bool{"can": true, "may": true, "must": true, "shall": true, "should": true, "is": true, "are": true,
		"do": true, "does": true, "did": true, "will": true, "would": true, "could": true, "has": true, "have": true, "was": true,
		"were": true, "need": true, "cannot": true}
	// modalCues are words of a question that only say it asks about
	// permission or obligation.
	modalCues = map[string]bool{"can": true, "may": true, "must": true, "shall": true, "should": true, "cannot": true,
		"allowed": true, "permitted": true, "mandatory": true, "compulsory": true, "required": true}
	amountCues = map[string]bool{"limit": true, "limits": true, "cap": true, "capped": true, "maximum": true, "minimum": true,
		"ceiling": true, "fee": true, "fees": true, "charge": true, "charges": true, "penalty": true, "fine": true, "worth": true,
		"funds": true, "capital": true, "amount": true, "share": true, "percentage": true, "proportion": true, "rs": true, "inr": true,
		"rupees": true, "price": true, "cost": true}
	dateCues = map[string]bool{"when": true, "deadline": true, "date": true, "until": true, "till": true, "since": true}
	byCues   = map[string]bool{"by": true, "until": true, "till": true, "deadline": true, "due": true, "before": true}
	fromCues = map[string]bool{"from": true, "since": true, "start": true, "starts": true, "begin": true, "began": true,
		"apply": true, "applies": true, "effect": true, "effective": true, "commence": true, "available": true, "live": true}
)

// readQuestion reads what text asks. The first cue that settles the kind
// wins, the most specific first: "within how many days" asks a duration,
// not a count; "when must" a date, not a yes or no.
func readQuestion(text string) question {
	q := question{cues: map[string]bool{}, values: map[string]bool{}}
	for _, v := range Values(text) {
		for _, k := range v.Keys {
			q.values[k] = true
		}
	}
	var ws []string
	for _, t := range Tokens(text) {
		ws = append(ws, t.Word)
	}
	if strings.Contains(text, "₹") {
		ws = append(ws, "rs")
	}
	at := func(i int) string {
		if i >= 0 && i < len(ws) {
			return ws[i]
		}
		return ""
	}
	has := func(set map[string]bool) bool { return slices.ContainsFunc(ws, func(w string) bool { return set[w] }) }
	wh := slices.ContainsFunc(ws, func(w string) bool {
		return w == "what" || w == "which" || w == "when" || w == "how" || w == "who" || w == "whom" || w == "whose"
	})
	for i, w := range ws {
		switch {
		case w == "how" && (at(i+1) == "long" || at(i+1) == "soon" || at(i+1) == "often" || at(i+1) == "quickly"):
			q.typ = AnswerDuration
			q.cues[at(i+1)] = true
		case (w == "how" && at(i+1) == "many" || w == "what" || w == "which") && unitWords[at(i+2)] && !dateCues[at(i+2)],
			w == "what" && (at(i+1) == "time" || at(i+1) == "period") && at(i-1) == "within",
			w == "what" && at(i+1) == "period", w == "time" && at(i+1) == "limit":
			q.typ = AnswerDuration
			q.cues[at(i+1)], q.cues[at(i+2)] = true, true
		}
		if q.typ != "" {
			break
		}
	}
	if q.typ == "" {
		for i, w := range ws {
			if w == "how" && at(i+1) == "many" {
				q.typ = AnswerCount
				q.cues["many"] = true
				for j := i + 2; j < len(ws) && !StopWord(ws[j]) && !auxiliaries[ws[j]]; j++ {
					q.counted = append(q.counted, Key(ws[j]))
				}
				break
			}
		}
	}
	if q.typ == "" {
		for i, w := range ws {
			if dateCues[w] || (w == "what" || w == "which") && (at(i+1) == "date" || at(i+1) == "day" || at(i+1) == "time") {
				q.typ = AnswerDate
				if w == "what" || w == "which" {
					q.cues[at(i+1)] = true
				}
				break
			}
		}
	}
	if q.typ == "" && (slices.Contains(ws, "much") || wh && has(amountCues)) {
		q.typ = AnswerAmount
		q.cues["much"] = true
		if i := slices.Index(ws, "what"); i >= 0 && at(i+1) == "amount" {
			q.cues["amount"] = true
		}
	}
	if q.typ == "" && len(ws) > 0 && auxiliaries[ws[0]] || q.typ == "" && strings.Contains(strings.Join(ws, " "), "is it ") {
		q.typ = AnswerYesNo
	}
	if q.typ == "" && len(ws) > 0 {
		switch first := ws[0]; {
		case first == "who" || first == "whom" || first == "whose":
			q.typ = AnswerWho
		case (first == "which" || first == "what") && (roleWord(at(1)) || roleWord(at(2))):
			q.typ = AnswerWho
		case first == "what" && (at(1) == "is" || at(1) == "are" || at(1) == "was" || at(1) == "does" || at(1) == "do"),
			first == "define", first == "meaning":
			q.typ = AnswerDefinition
		}
	}
	switch q.typ {
	case AnswerDate:
		q.by, q.from = has(byCues), has(fromCues)
		if q.by && q.from { // "by when ... apply": the deadline wins
			q.from = false
		}
	}
	if q.typ != "" {
		for _, w := range ws {
			if modalCues[w] {
				q.cues[w] = true
			}
		}
	}
	return q
}

// roleKeys are the keys of the words that name who a circular binds or
// protects: a "who" answer names one of them, or a proper name.
var roleKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`bank banks issuer issuers acquirer acquirers network networks operator operators
		aggregator aggregators gateway gateways merchant merchants customer customers cardholder cardholders user users
		investor investors intermediary intermediaries insurer insurers broker brokers depository depositories nbfc nbfcs
		lender lenders entity entities participant participants provider providers app apps psp psps pso psos company
		companies exchange exchanges subscriber subscribers agent agents trustee trustees member members institution
		institutions regulator regulators reinsurer reinsurers adviser advisers advisors surveyor surveyors registrar
		registrars amc amcs rta rtas scsb scsbs fintech fintechs firm firms client clients payee payer`) {
		m[Key(w)] = true
	}
	return m
}()

func roleWord(w string) bool { return w != "" && roleKeys[Key(w)] }

// synonyms join words a question and a circular use for one thing: a
// question's limit is a circular's cap or ceiling.
var synonyms = func() map[string][]string {
	m := map[string][]string{}
	for _, class := range [][]string{
		{"limit", "cap", "ceiling", "maximum", "max"},
		{"fee", "charge"},
		{"begin", "start", "commence", "launch"},
		{"need", "require"},
	} {
		keys := make([]string, len(class))
		for i, w := range class {
			keys[i] = Key(w)
		}
		for _, k := range keys {
			m[k] = keys
		}
	}
	return m
}()

// fact is a fact of the asked kind in a sentence: its byte span, how
// surely it is what was asked (1 a fact of the kind itself, less for a
// weaker one: a year for a date), its kind and keys (Fact).
type fact struct {
	start, end int
	strength   float64
	kind       string
	keys       []string
}

// factsOf finds the facts of q's kind in s, with the words of s (byte
// spans) and which of them are the question's terms, for "who" answers
// (a party made only of the question's words does not answer it).
func (q question) factsOf(s string, words [][2]int, isTerm []bool) []fact {
	var out []fact
	switch q.typ {
	case AnswerDate, AnswerAmount, AnswerDuration, AnswerCount:
		for _, v := range Values(s) {
			if slices.ContainsFunc(v.Keys, func(k string) bool { return q.values[k] }) {
				continue
			}
			st := q.strength(v, s)
			if st > 0 {
				out = append(out, fact{v.Start, v.End, st, v.Kind, v.Keys})
			}
		}
	case AnswerYesNo:
		for _, m := range modals(s) {
			out = append(out, fact{m.start, m.end, 1, "modal", []string{"modal:" + m.class}})
		}
	case AnswerWho:
		out = parties(s, words, isTerm)
	}
	return out
}

// strength is how surely v answers q (0: not at all), s its sentence.
func (q question) strength(v Value, s string) float64 {
	switch q.typ {
	case AnswerDate:
		st := map[string]float64{ValueDate: 1, ValueTime: 0.7, ValueYear: 0.4, ValueDuration: 0.3}[v.Kind]
		if v.Kind == ValueDate && len(v.Keys) > 0 && !strings.HasPrefix(v.Keys[0], "date:") {
			st = 0.8 // a month, or a day without its year
		}
		if q.cues["time"] && v.Kind == ValueTime {
			st = 1
		}
		// A deadline is stated "by" a date, a start "from" one.
		if q.by || q.from {
			before := lastWords(s[:v.Start], 3)
			cues := byCues
			if q.from {
				cues = fromCues
			}
			if !slices.ContainsFunc(before, func(w string) bool { return cues[w] || w == "on" && q.from }) {
				st *= 0.85
			}
		}
		return st
	case AnswerAmount:
		switch v.Kind {
		case ValueAmount:
			return 1
		case ValueNumber:
			return 0.6
		}
	case AnswerDuration:
		if v.Kind == ValueDuration {
			return 1
		}
	case AnswerCount:
		switch {
		case v.Kind == ValueNumber:
			return 1
		case v.Kind == ValueAmount && !strings.ContainsAny(v.Text, "₹%") && !strings.HasPrefix(strings.ToLower(v.Text), "rs") &&
			!strings.HasPrefix(strings.ToLower(v.Text), "inr"):
			return 1 // 10 lakh active cards
		}
	}
	return 0
}

// lastWords are the last n words of s, lower-cased.
func lastWords(s string, n int) []string {
	var out []string
	for _, t := range Tokens(s) {
		out = append(out, t.Word)
	}
	return out[max(0, len(out)-n):]
}

// modal is a word or phrase saying what is allowed, required or barred,
// in its class: no (barred), exempt (not required), must, may.
type modal struct {
	start, end int
	class      string
}

// modalPatterns in the order they are taken: a longer phrase before the
// word it contains ("may not" before "may").
var modalPatterns = []struct {
	class string
	re    *regexp.Regexp
}{
	{"no", regexp.MustCompile(`(?i)\b(?:may|must|shall|can|could|will) (?:not|no longer|never)\b|\bcannot\b|\bcan't\b|\bno longer\b|\bnot (?:be )?(?:permitted|allowed)\b|\bprohibit(?:s|ed|ing)?\b|\bbar(?:s|red|ring)?\b|\bforbid(?:s|den)?\b`)},
	{"exempt", regexp.MustCompile(`(?i)\bexempt(?:s|ed|ion)?\b|\bneed not\b|\b(?:do|does|did) not (?:need|have to|apply)\b|\bnot (?:be )?(?:required|needed|mandatory|affected|covered|directly covered)\b|\bno [\w-]+(?: [\w-]+)?(?: \([^)]*\))? (?:is|are) (?:needed|required)\b|\bwithout\b`)},
	{"must", regexp.MustCompile(`(?i)\bmust\b|\bshall\b|\bshould\b|\brequire[sd]?\b|\bmandatory\b|\b(?:has|have|had|need|needs) to\b|\bobliged\b|\bdirected to\b|\bonly\b`)},
	{"may", regexp.MustCompile(`(?i)\bmay\b|\bcan\b|\bcould\b|\bpermit(?:s|ted)?\b|\ballow(?:s|ed)?\b|\beligible\b|\boptional\b`)},
}

// modals finds the modal phrases of s, each part of s in one at most.
func modals(s string) []modal {
	var out []modal
	taken := make([]bool, len(s))
	for _, p := range modalPatterns {
		for _, loc := range p.re.FindAllStringIndex(s, -1) {
			if slices.Contains(taken[loc[0]:loc[1]], true) {
				continue
			}
			for i := loc[0]; i < loc[1]; i++ {
				taken[i] = true
			}
			out = append(out, modal{loc[0], loc[1], p.class})
		}
	}
	slices.SortFunc(out, func(a, b modal) int { return a.start - b.start })
	return out
}

// parties finds who s names: runs of role words with up to two words
// before each ("acquiring banks", "payment system participants") or of
// proper names ("ICICI Bank", "American Express"), joined into a list by
// commas, "and" and "or". A party made only of the question's terms
// (isTerm) is the question's, not an answer.
func parties(s string, words [][2]int, isTerm []bool) []fact {
	var out []fact
	name := func(i int) bool {
		w := s[words[i][0]:words[i][1]]
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
		// A sentence's first word is capitalised anyway: a name only when
		// written in capitals (SBI) or a role.
		return i > 0 || strings.ToUpper(w) == w && len(w) > 1
	}
	role := func(i int) bool { return roleKeys[Key(strings.ToLower(s[words[i][0]:words[i][1]]))] }
	gap := func(i int) string { return s[words[i-1][1]:words[i][0]] } // the text before word i
	// item reports the end (exclusive) of a party starting at word i, or i.
	item := func(i int) int {
		j := i
		for j < len(words) && name(j) && (j == i || gap(j) == " " || gap(j) == "-") {
			j++
		}
		if j > i {
			if j < len(words) && role(j) && gap(j) == " " { // ICICI Bank
				j++
			}
			return j
		}
		for k := i; k < min(i+3, len(words)); k++ {
			if k > i && gap(k) != " " && gap(k) != "-" {
				break
			}
			w := strings.ToLower(s[words[k][0]:words[k][1]])
			if role(k) {
				// Plural or not, the last role word of a run ends it: "card issuers".
				for k+1 < len(words) && role(k+1) && gap(k+1) == " " {
					k++
				}
				return k + 1
			}
			if StopWord(w) || auxiliaries[w] || modalCues[w] {
				break
			}
		}
		return i
	}
	for i := 0; i < len(words); {
		end := item(i)
		if end == i {
			i++
			continue
		}
		first, last := i, end
		// A list of parties: items joined by commas, and, or.
	list:
		for last < len(words) {
			g := strings.TrimSpace(gap(last))
			w := strings.ToLower(s[words[last][0]:words[last][1]])
			next := -1
			switch {
			case (g == "," || g == "") && (w == "and" || w == "or"):
				next = last + 1
			case g == ",":
				next = last
			}
			if next < 0 || next >= len(words) {
				break list
			}
			e := item(next)
			if e == next {
				break list
			}
			last = e
		}
		own := true
		for k := first; k < last; k++ {
			if !isTerm[k] && !StopWord(strings.ToLower(s[words[k][0]:words[k][1]])) {
				own = false
			}
		}
		if !own {
			var keys []string
			for k := first; k < last; k++ {
				w := strings.ToLower(s[words[k][0]:words[k][1]])
				if !StopWord(w) && !slices.Contains(keys, Key(w)) {
					keys = append(keys, Key(w))
				}
			}
			out = append(out, fact{words[first][0], words[last-1][1], 1, "party", keys})
		}
		i = last
	}
	return out
}
