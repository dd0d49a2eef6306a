// Package datecheck finds content that the passing of time has made
// untrue: a sentence in the future tense about a date now past, an event
// edition still marked upcoming after it ended, a "latest" claim older
// than the newest item of its subject, a hand-kept list behind the
// catalog, an obligation due after its circular stopped being in force.
//
// The loader (internal/catalog) checks what a file says; this package
// checks what it says on a given day, so its answer changes with the
// date and never fails a build: regpulse check prints its reports, and
// fails only on errors, which are reserved for structured fields (a
// status, a date) that pages read as facts. Prose gets warnings: a
// sentence can quote a date for good reason, and only an editor knows.
package datecheck

import (
	"cmp"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// Severity says whether a report fails regpulse check.
type Severity string

const (
	Warning Severity = "warning"
	Error   Severity = "error"
)

// Kinds of report, one per rule: the tests cover each.
const (
	KindFutureTense    = "future-tense"    // future tense about a past date
	KindEditionPast    = "edition-past"    // an edition's status behind its dates
	KindStatusPast     = "status-past"     // a regulation's status behind its effective date
	KindLatestClaim    = "latest-claim"    // "latest" with a date older than the subject's newest item
	KindListBehind     = "list-behind"     // a hand-kept list older than the catalog
	KindDueWithdrawn   = "due-withdrawn"   // an obligation due after its circular ended
	KindDatesWithdrawn = "dates-withdrawn" // a compliance date after its circular ended
)

// Report is one thing a date has made untrue, named as the loader names a
// problem (path:line: field) with the sentence or value it is about.
type Report struct {
	Path     string
	Line     int
	Field    string
	Severity Severity
	Kind     string
	Message  string
	// Sentence is the prose quoted (empty for a structured field).
	Sentence string
}

func (r Report) String() string {
	s := fmt.Sprintf("%s:%d: %s: %s: %s", r.Path, r.Line, r.Field, r.Severity, r.Message)
	if r.Sentence != "" {
		s += fmt.Sprintf("\n    %q", r.Sentence)
	}
	return s
}

// Errors counts the reports that fail regpulse check.
func Errors(rs []Report) int {
	n := 0
	for _, r := range rs {
		if r.Severity == Error {
			n++
		}
	}
	return n
}

// Check reports what in cat is no longer true on day now. files holds the
// content files under the names of their entries' Path (the content
// directory's parent, as the loader names them): prose is read from
// them, so that each report has its line.
func Check(cat *catalog.Catalog, files fs.FS, now time.Time) []Report {
	c := checker{cat: cat, files: files, today: day(now)}
	c.prose()
	c.editions()
	c.regulations()
	c.obligations()
	c.lists()
	slices.SortFunc(c.reports, func(a, b Report) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), strings.Compare(a.Field, b.Field),
			strings.Compare(a.Message, b.Message))
	})
	return c.reports
}

type checker struct {
	cat     *catalog.Catalog
	files   fs.FS
	today   time.Time
	reports []Report
	texts   map[string][]string // a file's lines, read once
	bySlug  map[string]int      // a circular's place in cat.Circulars
}

func (c *checker) add(r Report) { c.reports = append(c.reports, r) }

// day is t's calendar day at midnight UTC, as catalog dates are.
func day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func formatDay(t time.Time) string { return t.Format("2 January 2006") }

// lines are path's lines (nil when it cannot be read: an entry built in
// memory, whose structured reports then carry line 0).
func (c *checker) lines(path string) []string {
	if c.texts == nil {
		c.texts = map[string][]string{}
	}
	if ls, ok := c.texts[path]; ok {
		return ls
	}
	b, err := fs.ReadFile(c.files, path)
	var ls []string
	if err == nil {
		ls = strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	}
	c.texts[path] = ls
	return ls
}

// keyLine is the 1-based line of the first front-matter line of path that
// starts with key (indented by indent spaces) and contains value, at or
// after line from; 0 when there is none.
func (c *checker) keyLine(path, key, value string, from int) int {
	ls := c.lines(path)
	for i := max(from-1, 0); i < len(ls); i++ {
		l := strings.TrimLeft(ls[i], " -{")
		if strings.HasPrefix(l, key+":") && strings.Contains(ls[i], value) {
			return i + 1
		}
	}
	return 0
}
