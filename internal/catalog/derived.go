package catalog

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"regpulse/internal/words"
)

// Lists the catalog can compute are computed here, never kept by hand in
// content (kept by hand, they went stale: a regulator's "recent updates"
// that missed a year of its circulars). Each takes the build's as-of date.

// RecentLimit is how many circulars a derived list shows: a regulator's
// newest, a network's.
const RecentLimit = 5

// Source is the catalog source a body's circulars carry: its short name
// when that is one of the catalog's regulators, else "" (no circulars).
func (b PaymentBody) Source() string {
	if slices.Contains(Regulators, b.ShortName) {
		return b.ShortName
	}
	return ""
}

// RecentFrom is up to n of the newest circulars from source still in
// force on now's date, newest first. Circulars no longer in force are
// left out: a compliance reader takes "recent updates" for what applies
// now, and the one that replaced a circular is newer and listed itself;
// the full list (with each circular's status) is one link away.
func (c *Catalog) RecentFrom(source string, now time.Time, n int) []Circular {
	if source == "" {
		return nil
	}
	return c.newestInForce(now, n, func(x Circular) bool { return x.Source == source })
}

// AboutNetwork is up to n of the newest circulars about network n (Mentions)
// still in force on now's date, newest first (see RecentFrom for why).
func (c *Catalog) AboutNetwork(n Network, now time.Time, limit int) []Circular {
	if len(n.CircularTerms) == 0 {
		return nil
	}
	return c.newestInForce(now, limit, n.Mentions)
}

// AboutNetworks is AboutNetwork of each network of ns, in one walk of
// the circulars newest first, each circular's title and summary
// lower-cased once for all the networks: at 100,000 circulars the walk
// of a network seldom named reaches the oldest.
func (c *Catalog) AboutNetworks(ns []Network, now time.Time, limit int) [][]Circular {
	out := make([][]Circular, len(ns))
	open := 0 // the networks still looking
	for _, n := range ns {
		if len(n.CircularTerms) > 0 && limit > 0 {
			open++
		}
	}
	for _, x := range c.newestFirst() {
		if open == 0 {
			break
		}
		if !x.InForce(now) {
			continue
		}
		var title, summary string
		for i, n := range ns {
			if len(n.CircularTerms) == 0 || len(out[i]) == limit || !n.mentions(x, &title, &summary) {
				continue
			}
			if out[i] = append(out[i], x); len(out[i]) == limit {
				open--
			}
		}
	}
	return out
}

// newestFirst is the circulars newest first: published date, then slug.
func (c *Catalog) newestFirst() []Circular {
	circs := c.Circulars
	// The loader sorts, so a build's pages (one call each) only check; a
	// catalog built by hand may not be sorted, and is sorted in a copy.
	if !isNewestFirst(circs) {
		circs = slices.Clone(circs)
		sortStableByKey(circs, newestFirstKey, compareNewestFirst)
	}
	return circs
}

// newestFirstPlace is what orders circulars newest first (newestFirstKey).
type newestFirstPlace struct {
	published time.Time
	slug      string
}

// newestFirstKey is c's place newest first: by published date, then by
// slug (the loader's order).
func newestFirstKey(c *Circular) newestFirstPlace {
	return newestFirstPlace{c.PublishedDate.Time, c.Slug}
}

// compareNewestFirst orders circulars' keys newest first.
func compareNewestFirst(a, b newestFirstPlace) int {
	if d := b.published.Compare(a.published); d != 0 {
		return d
	}
	return strings.Compare(a.slug, b.slug)
}

// isNewestFirst says circs are in the order compareNewestFirst gives
// (their keys made by pointer: a Circular is some 650 bytes).
func isNewestFirst(circs []Circular) bool {
	for i := 1; i < len(circs); i++ {
		if compareNewestFirst(newestFirstKey(&circs[i-1]), newestFirstKey(&circs[i])) > 0 {
			return false
		}
	}
	return true
}

// newestInForce walks the circulars newest first (the catalog's order,
// published date then slug) and keeps the first n that keep accepts and
// are in force on now's date.
func (c *Catalog) newestInForce(now time.Time, n int, keep func(Circular) bool) []Circular {
	var out []Circular
	for _, x := range c.newestFirst() {
		if len(out) == n {
			break
		}
		if !x.InForce(now) || !keep(x) {
			continue
		}
		out = append(out, x)
	}
	return out
}

// Mentions reports whether circular c is about the network: one of its
// circularTerms appears in c's title or summary as a whole word or
// phrase. A term written in capitals (an acronym: UPI, NEFT) must match
// its case, so "upi" in a URL-like word does not count; other terms
// ("Unified Payments Interface", "RuPay") match in any case.
func (n Network) Mentions(c Circular) bool {
	var title, summary string
	return n.mentions(c, &title, &summary)
}

// mentions is Mentions with c's title and summary lower-cased in *title
// and *summary, made when first needed ("" until then): once for every
// term, and for every network (AboutNetworks).
func (n Network) mentions(c Circular, title, summary *string) bool {
	for _, t := range n.CircularTerms {
		if termIn(c.Title, title, t) || termIn(string(c.Summary), summary, t) {
			return true
		}
	}
	return false
}

// containsTerm reports whether term occurs in text with no part of a
// word just before or after it.
func containsTerm(text, term string) bool {
	var lower string
	return termIn(text, &lower, term)
}

// termIn is containsTerm with text's lower-case form in *lower, made
// when first needed ("" until then).
func termIn(text string, lower *string, term string) bool {
	if term == "" {
		return false
	}
	if upperCase(term) {
		return containsWord(text, term)
	}
	if *lower == "" {
		*lower = strings.ToLower(text)
	}
	return containsWord(*lower, strings.ToLower(term))
}

// upperCase says strings.ToUpper(s) == s for s valid UTF-8, without
// making the upper-case copy (every network's terms are asked of every
// circular).
func upperCase(s string) bool {
	for _, r := range s {
		if unicode.ToUpper(r) != r {
			return false
		}
	}
	return true
}

// containsWord reports whether needle occurs in hay with no part of a
// word just before or after it.
func containsWord(hay, needle string) bool {
	for from := 0; from < len(hay); {
		i := strings.Index(hay[from:], needle)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(needle)
		before, _ := utf8.DecodeLastRuneInString(hay[:start])
		after, _ := utf8.DecodeRuneInString(hay[end:])
		if !wordRune(before) && !wordRune(after) {
			return true
		}
		from = start + 1
	}
	return false
}

// wordRune is part of a word (internal/words: a letter, digit or mark, so
// a Hindi term never matches inside a longer word through its vowel
// signs), or a joiner, which next to the term's letters joins it to more.
func wordRune(r rune) bool {
	return r != utf8.RuneError && (words.IsPart(r) || words.IsJoiner(r))
}

// Edition is one edition of an event: its year, dates where known, where
// it is held, its status as the content states it and where that was
// seen. Sibos's are the sibos collection's (content/sibos/YEAR.md).
type Edition struct {
	Year      int       `json:"year"`
	StartDate *Date     `json:"startDate"`
	EndDate   *Date     `json:"endDate"`
	Location  OptString `json:"location"`
	Status    string    `json:"status" enum:"EventStatus"`
	SourceURL OptString `json:"sourceUrl"`
}

// last is the edition's last known day: its end date, else its start
// date; nil when the content gives neither.
func (e Edition) last() *Date {
	if e.EndDate != nil {
		return e.EndDate
	}
	return e.StartDate
}

// Past reports whether the edition is over on now's date: its last day
// (end date, else start date) is before it; without dates, its year is
// before now's; or the content says it is completed.
func (e Edition) Past(now time.Time) bool {
	return e.Status == "completed" || e.pastByDate(now)
}

func (e Edition) pastByDate(now time.Time) bool {
	if d := e.last(); d != nil {
		return d.Before(Day(now))
	}
	return e.Year < Day(now).Year()
}

// StaleStatus reports whether the content still calls the edition
// upcoming (or ongoing) though its dates say it is over on now's date:
// pages show it as past, and a checker reports the file.
func (e Edition) StaleStatus(now time.Time) bool {
	return e.Status != "completed" && e.pastByDate(now)
}

// NextEdition is the event's first edition, in date order, not over on
// now's date (Past), or nil when the content knows of none.
func (ev Event) NextEdition(now time.Time) *Edition {
	eds := slices.Clone(ev.Editions)
	slices.SortStableFunc(eds, compareEditions)
	for _, e := range eds {
		if !e.Past(now) {
			return &e
		}
	}
	return nil
}

// compareEditions orders editions by year, then by start date (an
// edition without one first).
func compareEditions(a, b Edition) int {
	if a.Year != b.Year {
		return a.Year - b.Year
	}
	switch {
	case a.StartDate == nil && b.StartDate == nil:
		return 0
	case a.StartDate == nil:
		return -1
	case b.StartDate == nil:
		return 1
	}
	return a.StartDate.Compare(b.StartDate.Time)
}

// SibosEventSlug is the event whose editions are the sibos collection.
const SibosEventSlug = "sibos"

// Edition is the Sibos edition as an edition of the Sibos event.
func (s SibosEvent) Edition() Edition {
	return Edition{Year: s.Year, StartDate: s.StartDate, EndDate: s.EndDate, Location: s.Location,
		Status: s.Status, SourceURL: s.SourceURL}
}

// linkEditions gives the Sibos event its editions from the sibos
// collection, in date order; other events' editions are their front
// matter's, put in date order.
func (c *Catalog) linkEditions() {
	for i := range c.Events {
		ev := &c.Events[i]
		if ev.Slug == SibosEventSlug {
			ev.Editions = nil
			for _, s := range c.Sibos {
				ev.Editions = append(ev.Editions, s.Edition())
			}
		}
		slices.SortStableFunc(ev.Editions, compareEditions)
	}
}
