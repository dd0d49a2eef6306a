package datecheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// Prose is checked in every kind that reads as current on its page. News
// is left out: an item is a report dated by its publishedDate, and its
// tense is that day's. Master Directions' versions are the regulator's
// own words of their day, dated too.
func (c *checker) prose() {
	for _, e := range c.proseEntries() {
		c.proseOf(e.path, e.subject)
	}
}

type proseEntry struct {
	path    string
	subject subject
}

// subject is what a file's "latest" claims are about: the newest catalog
// item of that subject (zero when the catalog has none).
type subject struct {
	newest time.Time
	name   string // the newest item, as a report names it
}

func (c *checker) proseEntries() []proseEntry {
	var es []proseEntry
	for _, ci := range c.cat.Circulars {
		es = append(es, proseEntry{ci.Path, c.circularSubject(ci)})
	}
	newestOf := map[string]subject{}
	for _, ci := range c.cat.Circulars { // newest first
		if _, ok := newestOf[ci.Source]; !ok {
			newestOf[ci.Source] = subject{ci.PublishedDate.Time, ci.Slug}
		}
	}
	for _, b := range c.cat.Bodies {
		es = append(es, proseEntry{b.Path, newestOf[b.ShortName]})
	}
	// The directories: no subject of their own for "latest" claims.
	es = appendFiles(es, c.cat.Companies)
	es = appendFiles(es, c.cat.Regulations)
	es = appendFiles(es, c.cat.Networks)
	es = appendFiles(es, c.cat.Sibos)
	es = appendFiles(es, c.cat.Events)
	es = appendFiles(es, c.cat.Ads)
	es = appendFiles(es, c.cat.AdSlots)
	es = appendFiles(es, c.cat.Videos)
	return es
}

func appendFiles[T interface{ File() string }](es []proseEntry, xs []T) []proseEntry {
	for _, x := range xs {
		es = append(es, proseEntry{path: x.File()})
	}
	return es
}

// circularSubject is the newest circular that ended or replaced ci: what
// ci's own "latest update" sentences are measured against.
func (c *checker) circularSubject(ci catalog.Circular) subject {
	var s subject
	for _, slug := range append(append([]string{}, ci.SupersededBy...), ci.WithdrawnBy...) {
		if o, ok := c.circular(slug); ok && o.PublishedDate.After(s.newest) {
			s = subject{o.PublishedDate.Time, o.Slug}
		}
	}
	return s
}

func (c *checker) circular(slug string) (catalog.Circular, bool) {
	if c.bySlug == nil {
		c.bySlug = make(map[string]int, len(c.cat.Circulars))
		for i, ci := range c.cat.Circulars {
			c.bySlug[ci.Slug] = i
		}
	}
	i, ok := c.bySlug[slug]
	if !ok {
		return catalog.Circular{}, false
	}
	return c.cat.Circulars[i], true
}

// quotingKeys are front-matter keys whose text quotes another field or
// the body word for word (an obligation's source sentence): reported once,
// where it is written.
var quotingKeys = map[string]bool{"source": true}

func (c *checker) proseOf(path string, subj subject) {
	ls := c.lines(path)
	inFront := len(ls) > 0 && strings.TrimSpace(ls[0]) == "---"
	for i, l := range ls {
		if i == 0 && inFront {
			continue
		}
		if inFront && strings.TrimSpace(l) == "---" {
			inFront = false
			continue
		}
		if !hasYear(l) { // most lines: no date to be untrue about
			continue
		}
		field := "body"
		text := l
		if inFront {
			key, value, ok := frontText(l)
			if !ok || quotingKeys[key] {
				continue
			}
			field, text = key, value
		}
		for _, s := range sentences(text) {
			c.sentence(path, i+1, field, s, subj)
		}
	}
}

// frontText splits a front-matter line into its key and its text: "key:
// text", "  - text" (a list item, keyed by the nearest key above is not
// tracked: "list"), quotes removed.
func frontText(l string) (key, text string, ok bool) {
	t := strings.TrimSpace(l)
	if strings.HasPrefix(t, "- ") {
		t = strings.TrimSpace(t[2:])
		if k, v, found := strings.Cut(t, ": "); found && isKey(k) {
			return k, unquote(v), true
		}
		return "list", unquote(t), true
	}
	k, v, found := strings.Cut(t, ":")
	if !found || !isKey(k) {
		return "", "", false
	}
	return k, unquote(strings.TrimSpace(v)), true
}

func isKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// sentenceEnd is a full stop, question or exclamation mark (and a closing
// quote) followed by a space and a capital or an opening quote: not
// "Rs. 5" or "No. 12".
var sentenceEnd = regexp.MustCompile(`[.!?]["')\]]?(\s+)["'(\[]?[A-Z]`)

func sentences(text string) []string {
	var out []string
	for text != "" {
		loc := sentenceEnd.FindStringSubmatchIndex(text)
		if loc == nil {
			out = append(out, strings.TrimSpace(text))
			break
		}
		out = append(out, strings.TrimSpace(text[:loc[2]]))
		text = text[loc[3]:]
	}
	return out
}

// future are the words that put a sentence in the future: "will",
// "is to start", "takes effect", "upcoming" and their kin. Not "shall",
// "must" or "is to be": a rule's own mood, true whatever the date.
var future = regexp.MustCompile(`(?i)\b(will|won't|(?:is|are) to (?:take|start|begin|come|apply|go|end|close|open)|is due to|are due to|(?:is|are) set to|(?:is|are) expected to|(?:is|are) scheduled|scheduled (?:for|to)|(?:is|are) slated|to take effect|takes? effect|(?:to )?comes? into (?:force|effect)|(?:is|are) (?:due |set |scheduled )?to start|starts? on|upcoming|(?:is|are) proposed to|from next|goes live|go live on|yet to (?:start|begin|take effect))\b`)

// futureWord is the first of s's future words not put in the past by
// what comes before it ("was to start on", "were set to"), "" for none.
func futureWord(s string) string {
	for _, loc := range future.FindAllStringIndex(s, -1) {
		before := strings.ToLower(s[:loc[0]])
		if !strings.HasSuffix(before, "was to ") && !strings.HasSuffix(before, "were to ") &&
			!strings.HasSuffix(before, "was ") && !strings.HasSuffix(before, "were ") &&
			!strings.HasSuffix(before, "had ") && !strings.HasSuffix(before, "would ") {
			return s[loc[0]:loc[1]]
		}
	}
	return ""
}

// latest are the words of a claim to be up to date. Not "as of": a
// claim that gives its own date is what a hand-kept fact should carry.
var latest = regexp.MustCompile(`(?i)\b(latest|most recent|newest|current|currently|up to date|so far|to date)\b`)

const months = `(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)`

var (
	dmy = regexp.MustCompile(`\b(\d{1,2})(?:st|nd|rd|th)?\s+` + months + `\.?,?\s+(\d{4})\b`)
	mdy = regexp.MustCompile(`\b` + months + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	iso = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	my  = regexp.MustCompile(`\b` + months + `\s+(\d{4})\b`)
)

// mentioned is a date a sentence names: a day, or a month (then its last
// day, the latest it can mean).
type mentioned struct {
	at   time.Time
	text string
}

func dates(s string) []mentioned {
	var out []mentioned
	taken := make([]bool, len(s))
	mark := func(loc []int) bool {
		for i := loc[0]; i < loc[1]; i++ {
			if taken[i] {
				return false
			}
		}
		for i := loc[0]; i < loc[1]; i++ {
			taken[i] = true
		}
		return true
	}
	add := func(y, m, d int, loc []int) {
		if m < 1 || m > 12 || y < 1900 {
			return
		}
		t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
		if d == 0 { // a month: its last day
			t = time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC)
		}
		out = append(out, mentioned{t, s[loc[0]:loc[1]]})
	}
	for _, loc := range dmy.FindAllStringSubmatchIndex(s, -1) {
		if mark(loc) {
			add(atoi(s, loc, 3), month(s[loc[4]:loc[5]]), atoi(s, loc, 1), loc)
		}
	}
	for _, loc := range mdy.FindAllStringSubmatchIndex(s, -1) {
		if mark(loc) {
			add(atoi(s, loc, 3), month(s[loc[2]:loc[3]]), atoi(s, loc, 2), loc)
		}
	}
	for _, loc := range iso.FindAllStringSubmatchIndex(s, -1) {
		if mark(loc) {
			add(atoi(s, loc, 1), atoi(s, loc, 2), atoi(s, loc, 3), loc)
		}
	}
	for _, loc := range my.FindAllStringSubmatchIndex(s, -1) {
		if mark(loc) {
			add(atoi(s, loc, 2), month(s[loc[2]:loc[3]]), 0, loc)
		}
	}
	return out
}

func atoi(s string, loc []int, group int) int {
	n, _ := strconv.Atoi(s[loc[2*group]:loc[2*group+1]])
	return n
}

func month(name string) int {
	for m := time.January; m <= time.December; m++ {
		if strings.HasPrefix(m.String(), name[:3]) {
			return int(m)
		}
	}
	return 0
}

// hasYear reports whether s has four digits from 1900 to 2099 in a row:
// a cheap test before the regular expressions, which cost a hundred
// times more over an archive's text.
func hasYear(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			run = 0
			continue
		}
		run++
		if run == 4 && (s[i-3] == '1' && s[i-2] == '9' || s[i-3] == '2' && s[i-2] == '0') {
			return true
		}
	}
	return false
}

func (c *checker) sentence(path string, line int, field, s string, subj subject) {
	if !hasYear(s) {
		return
	}
	w, l := futureWord(s), ""
	if !subj.newest.IsZero() {
		l = latest.FindString(s)
	}
	if w == "" && l == "" {
		return
	}
	ds := dates(s)
	if len(ds) == 0 {
		return
	}
	newest := ds[0]
	for _, d := range ds[1:] {
		if d.at.After(newest.at) {
			newest = d
		}
	}
	// Future tense about dates that are all past (a sentence that also
	// names a date to come may be about that one).
	if w != "" && newest.at.Before(c.today) {
		c.add(Report{Path: path, Line: line, Field: field, Severity: Warning, Kind: KindFutureTense, Sentence: s,
			Message: fmt.Sprintf("%q about %s, now past: say what happened, or what applies since then", w, newest.text)})
	}
	if w := l; w != "" && newest.at.Before(subj.newest) {
		c.add(Report{Path: path, Line: line, Field: field, Severity: Warning, Kind: KindLatestClaim, Sentence: s,
			Message: fmt.Sprintf("%q of %s, and %s of %s is newer", w, newest.text, subj.name, formatDay(subj.newest))})
	}
}
