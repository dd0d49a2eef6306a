package catalog

import "errors"

// The queries a store answers over the catalog's entries, beside the types
// they select, so that any store (SQLite today, PostgreSQL later) and the
// API share them. Empty text fields do not filter.

// ErrNotFound is a store's answer when the entry looked up does not exist.
var ErrNotFound = errors.New("not found")

// MaxLimit is the most entries one page of a list may hold.
const MaxLimit = 100

// Page is the part of a list a query asks for: Limit entries (1 to
// MaxLimit) after skipping Offset (0 or more). A list call answers with the
// page and the total number of entries the query matches.
type Page struct {
	Limit  int
	Offset int
}

// CircularSort orders circulars.
type CircularSort string

const (
	// SortDate is newest first.
	SortDate CircularSort = "date"
	// SortRelevance ranks by matches of the search text: 3 per match in the
	// title plus 1 per match in the content, then newest first. Without a
	// search it is SortDate.
	SortRelevance CircularSort = "relevance"
	// SortImpact is high impact first, then newest first.
	SortImpact CircularSort = "impact"
)

// CircularSorts are the sorts, the default first.
var CircularSorts = []CircularSort{SortDate, SortRelevance, SortImpact}

// CircularQuery selects circulars. Ties of every sort go newest first, then
// by slug.
type CircularQuery struct {
	Source   string
	Category string
	Impact   string // the circular's overall impactLevel
	Type     string // the circular's documentType
	// Verification is the circular's verification (one of
	// Verifications).
	Verification string
	// Search is a case-insensitive substring of the number, title, content,
	// category or source.
	Search string
	Sort   CircularSort
	Page
}

// NewsQuery selects news items, newest first.
type NewsQuery struct {
	Category string
	Region   string
	Search   string // case-insensitive substring of title, excerpt or category
	Page
}

// CompanyQuery selects fintech companies, by slug.
type CompanyQuery struct {
	Category string
	Page
}

// RegulationQuery selects PII regulations, by slug.
type RegulationQuery struct {
	Country string
	Status  string
	Page
}

// ObligationQuery selects obligations, by due date (undated last), then
// circular and position. EntityType keeps those applying to it (or to
// all regulated entities); DueAfter and DueBefore bound the due date
// (inclusive; an undated obligation is outside any bound); Source is the
// circular's regulator, Origin editor or extracted, Binding "true" or
// "false".
type ObligationQuery struct {
	EntityType string
	DueAfter   *Date
	DueBefore  *Date
	Source     string
	Origin     string
	Binding    string
	Page
}
