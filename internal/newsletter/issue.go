package newsletter

import (
	"cmp"
	"slices"
	"time"

	"regpulse/internal/catalog"
)

// Issue is one month's newsletter content, the same for every subscriber:
// each subscriber's topics choose the sections they receive.
type Issue struct {
	Month     time.Time          // the month's first day, UTC
	Circulars []catalog.Circular // published in the month, newest first
	News      []catalog.NewsItem // published in the month, newest first
	Sibos     []catalog.SibosEvent
	Events    []catalog.Event // the major industry events
	// Effective are circulars taking effect from the month's end to
	// effectiveAhead later: what compliance teams prepare for next.
	Effective []catalog.Circular
}

// effectiveAhead is how far past the month the compliance section looks.
const effectiveAhead = 90 * 24 * time.Hour

// ParseMonth reads a month written YYYY-MM.
func ParseMonth(s string) (time.Time, error) { return time.Parse("2006-01", s) }

// MonthKey writes a month as YYYY-MM (the deliveries' key).
func MonthKey(month time.Time) string { return month.Format("2006-01") }

// PreviousMonth is the first day of the month before t's (UTC).
func PreviousMonth(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month()-1, 1, 0, 0, 0, 0, time.UTC)
}

// Content is what an issue is chosen from: the catalog's, or what the
// store holds (a scheduled function has no content folder).
type Content struct {
	Circulars []catalog.Circular
	News      []catalog.NewsItem
	Sibos     []catalog.SibosEvent
	Events    []catalog.Event
}

// Window is month's span, [start, end), and the end of the weeks after
// it whose effective dates the issue lists ([end, ahead)): a store reads
// no more than these (NewIssueFromList chooses within them).
func Window(month time.Time) (start, end, ahead time.Time) {
	start = time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC)
	end = start.AddDate(0, 1, 0)
	return start, end, end.Add(effectiveAhead)
}

// NewIssue selects the month's content from the catalog.
func NewIssue(cat *catalog.Catalog, month time.Time) Issue {
	return NewIssueFromList(Content{Circulars: cat.Circulars, News: cat.News, Sibos: cat.Sibos, Events: cat.Events}, month)
}

// NewIssueFromList selects the month's content from lists (any superset
// of it, in any order): what NewIssue does for a catalog, for a digest
// read from the store.
func NewIssueFromList(cat Content, month time.Time) Issue {
	start, end, ahead := Window(month)
	in := func(d catalog.Date) bool { return !d.Before(start) && d.Before(end) }
	is := Issue{Month: start}
	for _, c := range cat.Circulars {
		if in(c.PublishedDate) {
			is.Circulars = append(is.Circulars, c)
		}
		if c.EffectiveDate != nil && !c.EffectiveDate.Before(end) && c.EffectiveDate.Before(ahead) {
			is.Effective = append(is.Effective, c)
		}
	}
	for _, n := range cat.News {
		if in(n.PublishedDate) {
			is.News = append(is.News, n)
		}
	}
	for _, s := range cat.Sibos {
		// the catalog's rule (an edition of a past year without dates is
		// over too), as of the issue's end
		if !s.Edition().Past(end) {
			is.Sibos = append(is.Sibos, s)
		}
	}
	for _, e := range cat.Events {
		if e.Group == "major" {
			is.Events = append(is.Events, e)
		}
	}
	newest := func(a, b catalog.Date) int { return b.Compare(a.Time) }
	slices.SortStableFunc(is.Circulars, func(a, b catalog.Circular) int {
		return cmp.Or(newest(a.PublishedDate, b.PublishedDate), cmp.Compare(a.Slug, b.Slug))
	})
	slices.SortStableFunc(is.News, func(a, b catalog.NewsItem) int {
		return cmp.Or(newest(a.PublishedDate, b.PublishedDate), cmp.Compare(a.Slug, b.Slug))
	})
	slices.SortStableFunc(is.Effective, func(a, b catalog.Circular) int {
		return cmp.Or(a.EffectiveDate.Compare(b.EffectiveDate.Time), cmp.Compare(a.Slug, b.Slug))
	})
	slices.SortStableFunc(is.Sibos, func(a, b catalog.SibosEvent) int { return cmp.Compare(a.Year, b.Year) })
	slices.SortStableFunc(is.Events, func(a, b catalog.Event) int { return cmp.Compare(a.Name, b.Name) })
	return is
}
