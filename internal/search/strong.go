package search

import (
	"slices"
	"strings"

	"regpulse/internal/catalog"
)

// Summaries is the summary text a circular is indexed with: the editors'
// and the one the API stored (stored, "" if none), both found.
func Summaries(editors, stored string) string { return strings.TrimSpace(editors + " " + stored) }

// StrongDocument is c as Strong reads it: its number, title and
// summaries (the text is never a strong match, so it is not read).
func StrongDocument(c catalog.Circular) Document {
	stored := ""
	if c.AISummary != nil {
		stored = c.AISummary.Summary
	}
	c.Content = ""
	return Index(c, Summaries(string(c.Summary), stored))
}

// Strong reports whether the search ranks d in its first two tiers for p:
// d's number holds the typed number as a phrase (TierNumber), or every
// term has one of its keys in d's number, title or summary (TierStrong).
// Alerts hold a query to this threshold, so an alert never sends a
// circular that merely mentions a word in its text.
func Strong(p Plan, d Document) bool { return NewStrongKeys(d).Match(p) }

// StrongKeys are a document's keys in its number, title and summary,
// read once to try many plans against.
type StrongKeys struct {
	d    Document
	keys map[string]bool
}

// NewStrongKeys reads d's strong keys.
func NewStrongKeys(d Document) *StrongKeys {
	s := &StrongKeys{d: d, keys: make(map[string]bool, 64)}
	for _, col := range d.Columns[:ColumnContent] {
		for _, place := range col {
			s.keys[d.Keys[place]] = true
		}
	}
	return s
}

// Has reports whether key is one of them.
func (s *StrongKeys) Has(key string) bool { return s.keys[key] }

// Match is Strong(p, d).
func (s *StrongKeys) Match(p Plan) bool {
	if len(p.Number) > 0 && holdsKeys(s.d, s.d.Columns[ColumnNumber], p.Number) {
		return true
	}
	if len(p.Terms) == 0 {
		return false
	}
	for _, t := range p.Terms {
		if !slices.ContainsFunc(t.Keys, s.Has) {
			return false
		}
	}
	return true
}

// holdsKeys reports whether the column's words hold phrase, in order.
func holdsKeys(d Document, col []int32, phrase []string) bool {
	for start := 0; start+len(phrase) <= len(col); start++ {
		i := 0
		for i < len(phrase) && d.Keys[col[start+i]] == phrase[i] {
			i++
		}
		if i == len(phrase) {
			return true
		}
	}
	return false
}
