package search

import (
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
	// role is the key of the party a "which" question names ("which
	// banks"): a party of that role, or of proper names, answers it.
	role string
	// subordinate are the words only a subordinate clause of the question
	// holds ("... after a transaction is reported"): they qualify what is
	// asked, and count less in the answer.
	subordinate map[string]bool
}

// subordinators open a clause that qualifies the question's main one.
var subordinators = map[string]bool{"after": true, "before": true, "when": true, "if": true, "once": true,
	"unless": true, "while": true, "whereas": true, "although": true, "because": true}

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
	// amountCues are the keys of the nouns a "what" question asks an
	// amount of.
	amountCues = func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(`limit cap maximum minimum ceiling fee charge penalty fine worth funds capital
			share percentage proportion rs inr price cost compensation liability loss`) {
			m[Key(w)] = true
		}
		return m
	}()
	dateCues = map[string]bool{"when": true, "deadline": true, "until": true, "till": true, "since": true}
	byCues   = map[string]bool{"by": true, "until": true, "till": true, "deadline": true, "due": true, "before": true}
	fromCues = map[string]bool{"from": true, "since": true, "start": true, "starts": true, "begin": true, "began": true,
		"apply": true, "applies": true, "effect": true, "effective": true, "commence": true, "available": true, "live": true}
)

// readQuestion reads what text asks: the first word that says so
// decides ("how much ... when it applies" asks an amount), the most
// specific reading of it first ("within how many days" asks a duration,
// not a count); "what" and "which" ask what the noun after them names (a
// limit, a deadline, a party), else what something is; a question
// opening with a verb ("can", "must", "does") asks yes or no.
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
	q.subordinate = map[string]bool{}
	main := map[string]bool{}
	sub := false
	for i, w := range ws {
		// "by when", "from when" ask; "... apply when" qualifies.
		sub = sub || i > 0 && subordinators[w] && !(w == "when" && (byCues[ws[i-1]] || fromCues[ws[i-1]]))
		if sub {
			q.subordinate[w] = true
		} else {
			main[w] = true
		}
	}
	for w := range main {
		delete(q.subordinate, w)
	}
	at := func(i int) string {
		if i >= 0 && i < len(ws) {
			return ws[i]
		}
		return ""
	}
	cue := func(words ...string) {
		for _, w := range words {
			q.cues[w] = true
		}
	}
	// A question has a cue and something it is about: "shall" or "is
	// the" alone is a search for those words; a question opening with a
	// verb needs more words still ("is the guidelines" is a fragment of
	// a title), or its question mark.
	if len(ws) < 3 {
		return q
	}
	asked := len(ws) >= 4 || strings.HasSuffix(strings.TrimSpace(text), "?")
read:
	for i, w := range ws {
		switch {
		case i == 0 && auxiliaries[w] && asked:
			q.typ = AnswerYesNo
		case w == "how" && (at(i+1) == "long" || at(i+1) == "soon" || at(i+1) == "often" || at(i+1) == "quickly"):
			q.typ = AnswerDuration
			cue(at(i + 1))
		case w == "how" && at(i+1) == "many" && unitWords[at(i+2)]:
			q.typ = AnswerDuration
			cue("many", at(i+2), at(i-1)) // within, after
		case w == "how" && at(i+1) == "many":
			q.typ = AnswerCount
			cue("many")
			for j := i + 2; j < len(ws) && !StopWord(ws[j]) && !auxiliaries[ws[j]]; j++ {
				q.counted = append(q.counted, Key(ws[j]))
			}
		case w == "how" && at(i+1) == "much":
			q.typ = AnswerAmount
			cue("much")
		case w == "when" || w == "until" || w == "till":
			q.typ = AnswerDate
		case w == "who" || w == "whom" || w == "whose":
			q.typ = AnswerWho
		case w == "what" || w == "which":
			q.typ = q.what(ws[i+1:], at(i-1))
		default:
			continue
		}
		break read
	}
	switch q.typ {
	case AnswerDate:
		// Whether a start or a deadline is asked, said in words a
		// circular's sentence need not repeat ("apply", "take effect").
		for _, w := range ws {
			q.by = q.by || byCues[w]
			q.from = q.from || fromCues[w]
			if byCues[w] || fromCues[w] {
				q.cues[w] = true
			}
		}
		if q.by && q.from { // "by when ... apply": the deadline wins
			q.from = false
		}
	case "":
		return q
	}
	for _, w := range ws {
		if modalCues[w] {
			q.cues[w] = true
		}
	}
	return q
}

// what reads what a question asks after "what" or "which" (rest: the
// words after it; before: the word before it): what the first word
// naming a kind of fact names, or a party; else, after "what is", what
// something is.
func (q *question) what(rest []string, before string) string {
	for i, w := range rest {
		if StopWord(w) && w != "time" {
			continue
		}
		switch k := Key(w); {
		case unitWords[w] && i == 0:
			q.cues[w] = true
			return AnswerDuration
		case w == "time" && before == "within", w == "period":
			q.cues[w], q.cues[before] = true, true
			return AnswerDuration
		case w == "date" || w == "day" || w == "time":
			if i == 0 {
				q.cues[w] = true
			}
			return AnswerDate
		case dateCues[w]:
			return AnswerDate
		case amountCues[k] || w == "amount":
			if w == "amount" && i == 0 {
				q.cues[w] = true
			}
			return AnswerAmount
		case roleWord(w) && i <= 1:
			q.role = k
			return AnswerWho
		}
	}
	if len(rest) > 0 && (rest[0] == "is" || rest[0] == "are" || rest[0] == "was" || rest[0] == "does" || rest[0] == "do") {
		return AnswerDefinition
	}
	return ""
}

// roles are the words, as written, that name who a circular binds or
// protects: a "who" answer names one of them, or a proper name. Forms,
// not keys: a key would take "provide" for "provider".
var roles = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`bank issuer acquirer network operator aggregator gateway merchant customer
		cardholder user investor intermediary insurer broker depository nbfc lender entity participant provider app
		psp pso company exchange subscriber agent trustee member institution regulator reinsurer adviser advisor
		surveyor registrar amc rta scsb fintech firm client payee payer`) {
		m[w] = true
		switch {
		case strings.HasSuffix(w, "y") && !strings.HasSuffix(w, "ey"):
			m[strings.TrimSuffix(w, "y")+"ies"] = true
		default:
			m[w+"s"] = true
		}
	}
	return m
}()

func roleWord(w string) bool { return roles[strings.ToLower(w)] }

// objectVerbs are verbs a circular puts before the party they act on
// ("let issuers act", "requires banks to").
var objectVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`let lets allow allows allowed require requires required tell tells told ask asks
		asked help helps make makes made offer offers cover covers covering direct directs directed permit permits
		permitted enable enables enabled bar bars barred include includes including involve involves involved serve
		serves serving protect protects urge urged advise advised inform informs informed warn warned
		bring brings brought place places placed`) {
		m[w] = true
	}
	return m
}()

// calendarWords are capitalised without naming anyone.
var calendarWords = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true,
	"june": true, "july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true}

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
// spans) and which of them are the question's terms, and the circular's
// issuer, for "who" answers (a party made only of the question's words,
// or the regulator issuing the circular, does not answer it).
func (q question) factsOf(s string, words [][2]int, isTerm []bool, issuer string) []fact {
	var out []fact
	switch q.typ {
	case AnswerDate, AnswerAmount, AnswerDuration, AnswerCount:
		for _, v := range Values(s) {
			if slices.ContainsFunc(v.Keys, func(k string) bool { return q.values[k] }) {
				continue
			}
			st := q.strength(v, s)
			if st > 0 && (v.Kind == ValueNumber || v.Kind == ValueYear) && identifier(s, v) {
				st = 0
			}
			if st > 0 {
				out = append(out, fact{v.Start, v.End, st, v.Kind, v.Keys})
			}
		}
	case AnswerYesNo:
		for _, m := range modals(s) {
			out = append(out, fact{m.start, m.end, 1, "modal", []string{"modal:" + m.class}})
		}
	case AnswerWho:
		out = parties(s, words, isTerm, issuer)
		if q.role != "" {
			// "Which banks": banks, or names; other parties less.
			for i, f := range out {
				if !slices.Contains(f.keys, q.role) && !hasUpper(s[f.start:f.end]) {
					out[i].strength *= 0.4
				}
			}
		}
	}
	return out
}

func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }

// numberLabels are words a number after them names rather than counts
// (paragraph 17, OC 228, Phase II).
var numberLabels = map[string]bool{"no": true, "nos": true, "number": true, "oc": true, "section": true, "sections": true,
	"paragraph": true, "para": true, "paragraphs": true, "regulation": true, "rule": true, "clause": true, "chapter": true,
	"circular": true, "annex": true, "schedule": true, "phase": true, "tier": true, "version": true, "article": true, "page": true}

// identifier reports whether the number v of s is part of a name or a
// reference: after a label ("paragraph 17", "OC 228"), part of a code
// ("2025-26", "1810/02", "TPD-1"), or a sub-clause's ("Section 10(2)").
func identifier(s string, v Value) bool {
	if lw := lastWords(s[:v.Start], 1); len(lw) == 1 && numberLabels[lw[0]] {
		return true
	}
	if v.Start > 1 && s[v.Start-1] == '(' && isDigit(s[v.Start-2]) {
		return true
	}
	joined := func(c byte) bool { return c == '/' || c == '-' || c == '.' }
	code := func(c byte) bool { return isDigit(c) || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }
	if v.Start > 1 && joined(s[v.Start-1]) && code(s[v.Start-2]) ||
		v.End+1 < len(s) && joined(s[v.End]) && code(s[v.End+1]) {
		return true
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Figures are the values text states that say something a reader acts
// on: its dates, times, durations, amounts and counts, not its years
// alone nor its references ("paragraph 17", "2025-26", "the circular of
// 24 June 2022").
func Figures(text string) []Value {
	vs := Values(text)
	return slices.DeleteFunc(vs, func(v Value) bool {
		return v.Kind == ValueYear || v.Kind == ValueNumber && identifier(text, v) || reference(text, v)
	})
}

// strength is how surely v answers q (0: not at all), s its sentence.
func (q question) strength(v Value, s string) float64 {
	switch q.typ {
	case AnswerDate:
		var st float64
		switch v.Kind {
		case ValueDate:
			st = 1
			if !strings.HasPrefix(v.Keys[0], "date:") {
				st = 0.8 // a month, or a day without its year
			}
		case ValueTime:
			st = 0.7
		case ValueYear:
			st = 0.4
		case ValueDuration: // "within six months" says when, loosely
			st = 0.3
		}
		if q.cues["time"] && v.Kind == ValueTime {
			st = 1
		}
		if reference(s, v) {
			st *= 0.4
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
		switch {
		case v.Kind == ValueAmount && money(v):
			return 1
		case v.Kind == ValueAmount, v.Kind == ValueNumber: // 10 lakh cards, 50 a day
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
		case v.Kind == ValueAmount && !money(v):
			return 1 // 10 lakh active cards
		}
	}
	return 0
}

// reference reports whether the date v of s names a document rather than
// an event: "the Directions of 27 August 2021", "its January 2022
// framework".
func reference(s string, v Value) bool {
	if v.Kind != ValueDate {
		return false
	}
	lw := lastWords(s[:v.Start], 1)
	return len(lw) == 1 && lw[0] == "of" || attributive(s[v.End:])
}

// attributive reports whether after, the text after a value, goes on
// with a noun the value qualifies ("2022 framework"): the next word
// follows a space and is a lower-case word, not a function word.
func attributive(after string) bool {
	if !strings.HasPrefix(after, " ") {
		return false
	}
	w, _, _ := strings.Cut(strings.TrimPrefix(after, " "), " ")
	w = strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) })
	r, _ := utf8.DecodeRuneInString(w)
	if w == "" || !unicode.IsLower(r) || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) >= 0 {
		return false
	}
	return !StopWord(w) && !followers[w]
}

// followers are words that follow a date without its qualifying them.
var followers = map[string]bool{"within": true, "onwards": true, "onward": true, "till": true, "via": true,
	"unless": true, "per": true, "itself": true, "instead": true, "except": true, "alongside": true}

// money reports whether the amount v is money or a share (₹, Rs., INR,
// rupees, %), not a number with a scale.
func money(v Value) bool {
	t := strings.ToLower(v.Text)
	return strings.ContainsAny(t, "₹%") || strings.HasPrefix(t, "rs") || strings.HasPrefix(t, "inr") ||
		strings.Contains(t, "cent")
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

// Modal phrases by the words they are made of: a phrase of two or three
// words is read before a word it holds ("may not" before "may"). Words,
// not regular expressions: an answer reads the modals of many sentences.
var (
	modalVerbs  = map[string]bool{"may": true, "must": true, "shall": true, "can": true, "could": true, "will": true}
	barWords    = set("prohibit prohibits prohibited prohibiting bar bars barred barring forbid forbids forbidden cannot")
	exemptWords = set("exempt exempts exempted exemption without")
	notNeeded   = set("required needed mandatory affected covered")
	mustWords   = set("must shall should require requires required mandatory obliged only")
	mayWords    = set("may can could permit permits permitted allow allows allowed eligible optional")
)

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// modals finds the modal phrases of s, each word of s in one at most.
func modals(s string) []modal {
	var ws []string
	var spans [][2]int
	eachWord(s, func(start, end int) {
		ws = append(ws, strings.ToLower(s[start:end]))
		spans = append(spans, [2]int{start, end})
	})
	at := func(i int) string {
		if i < len(ws) {
			return ws[i]
		}
		return ""
	}
	var out []modal
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		class, n := "", 1 // the phrase's class and length in words
		switch {
		case modalVerbs[w] && (at(i+1) == "not" || at(i+1) == "never"):
			class, n = "no", 2
		case modalVerbs[w] && at(i+1) == "no" && at(i+2) == "longer":
			class, n = "no", 3
		case w == "can" && at(i+1) == "t" && spans[i+1][0] == spans[i][1]+1: // can't
			class, n = "no", 2
		case w == "no" && at(i+1) == "longer":
			class, n = "no", 2
		case w == "not" && (at(i+1) == "permitted" || at(i+1) == "allowed"):
			class, n = "no", 2
		case w == "not" && at(i+1) == "be" && (at(i+2) == "permitted" || at(i+2) == "allowed"):
			class, n = "no", 3
		case barWords[w]:
			class = "no"
		case w == "need" && at(i+1) == "not":
			class, n = "exempt", 2
		case (w == "do" || w == "does" || w == "did") && at(i+1) == "not" && (at(i+2) == "need" || at(i+2) == "apply"):
			class, n = "exempt", 3
		case (w == "do" || w == "does" || w == "did") && at(i+1) == "not" && at(i+2) == "have" && at(i+3) == "to":
			class, n = "exempt", 4
		case w == "not" && notNeeded[at(i+1)]:
			class, n = "exempt", 2
		case w == "not" && (at(i+1) == "be" || at(i+1) == "directly") && notNeeded[at(i+2)]:
			class, n = "exempt", 3
		case w == "no":
			// "No additional-factor authentication (AFA) is needed."
			for j := i + 1; j < min(i+8, len(ws)); j++ {
				if (ws[j] == "is" || ws[j] == "are") && (at(j+1) == "needed" || at(j+1) == "required") {
					class, n = "exempt", j+2-i
					break
				}
			}
		case exemptWords[w]:
			class = "exempt"
		case (w == "has" || w == "have" || w == "had" || w == "need" || w == "needs") && at(i+1) == "to",
			w == "directed" && at(i+1) == "to":
			class, n = "must", 2
		case mustWords[w]:
			class = "must"
		case mayWords[w]:
			class = "may"
		}
		if class == "" {
			continue
		}
		out = append(out, modal{spans[i][0], spans[i+n-1][1], class})
		i += n - 1
	}
	return out
}

// parties finds who s names: runs of role words with up to two words
// before each ("acquiring banks", "payment system participants") or of
// proper names ("ICICI Bank", "American Express"), joined into a list by
// commas, "and" and "or". A party made only of the question's terms
// (isTerm), or only of the circular's issuer, is no answer; one sharing
// a term with the question is a weaker one.
func parties(s string, words [][2]int, isTerm []bool, issuer string) []fact {
	var out []fact
	name := func(i int) bool {
		w := s[words[i][0]:words[i][1]]
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) || calendarWords[strings.ToLower(w)] {
			return false
		}
		// A sentence's first word is capitalised anyway: a name only when
		// written in capitals (SBI) or a role.
		return i > 0 || strings.ToUpper(w) == w && len(w) > 1
	}
	role := func(i int) bool { return roleWord(s[words[i][0]:words[i][1]]) }
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
			// A word of the question before a role is the question's
			// ("covers banks"), a verb its object's ("let issuers"):
			// neither is the party's.
			if StopWord(w) || auxiliaries[w] || modalCues[w] || isTerm[k] || objectVerbs[w] {
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
		own, shared := true, false
		for k := first; k < last; k++ {
			w := s[words[k][0]:words[k][1]]
			if !isTerm[k] && !StopWord(strings.ToLower(w)) && !strings.EqualFold(w, issuer) {
				own = false
			}
			shared = shared || isTerm[k] && !role(k) // "which banks": ICICI Bank shares no more than its role
		}
		if !own {
			strength := 1.0
			if shared {
				strength = 0.5
			}
			var keys []string
			for k := first; k < last; k++ {
				w := strings.ToLower(s[words[k][0]:words[k][1]])
				if !StopWord(w) && !slices.Contains(keys, Key(w)) {
					keys = append(keys, Key(w))
				}
			}
			out = append(out, fact{words[first][0], words[last-1][1], strength, "party", keys})
		}
		i = last
	}
	return out
}
