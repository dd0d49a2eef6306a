package catalog

import (
	"fmt"
	"slices"
	"time"

	"gopkg.in/yaml.v3"
)

// A circular is in force until one of three things ends it, and the
// loader derives when and by what (linkLifecycle), so that every page,
// feed, score and register reads one answer:
//   - a newer circular replaces it (the newer one's supersedes);
//   - the Master Direction it issued is replaced or withdrawn (the
//     direction's status, statusDate, statusCircular and successors);
//   - an editor records its withdrawal in its front matter:
//
//     withdrawn:
//     date: 2025-11-28
//     by: rbi-2025-11-28-master-directions-consolidation
//     rulesNowIn:
//     - "Reserve Bank of India (Commercial Banks – Responsible Business Conduct) Directions, 2025"
//
// RBI's consolidation of 28 Nov 2025 is the case that made this needed:
// it withdrew thousands of circulars at once and moved their rules into
// new directions, so a circular's page must say where its rules went.

// Withdrawal is a front matter's withdrawn: the day from which the
// circular is no longer in force, the catalog's circular that withdrew it
// (when the catalog has it) and the instruments its rules are now in.
type Withdrawal struct {
	Date       Date     `json:"date"`
	By         string   `json:"by"`
	RulesNowIn TextList `json:"rulesNowIn"`
}

// RuleHome is an instrument a withdrawn circular's rules are now in: by
// name, and the catalog's Master Direction (slug) when it holds it.
type RuleHome struct {
	Name      string    `json:"name"`
	Direction OptString `json:"direction"`
}

// InForce reports whether c is still in force on now's date (UTC): not
// replaced or withdrawn on or before it. Without the loader's
// WithdrawnOn, a circular that a newer one supersedes is not.
func (c Circular) InForce(now time.Time) bool {
	if c.WithdrawnOn == nil {
		return !c.Superseded()
	}
	return c.WithdrawnOn.After(Day(now))
}

// withdrawal reads the front matter's withdrawn map.
func (f *fields) withdrawal(name string, published Date) *Withdrawal {
	read := func(s *fields) *Withdrawal {
		return &Withdrawal{Date: s.requiredDate("date"), By: s.str("by", false), RulesNowIn: s.list("rulesNowIn", false)}
	}
	w, s := objectOf(f, name, "{date, by, rulesNowIn}", read)
	if w == nil {
		return nil
	}
	if !w.Date.IsZero() && !published.IsZero() && w.Date.Before(published.Time) {
		s.addAt(s.keyLines["date"], "date", "%s is before publishedDate (%s): a circular cannot be withdrawn before it is issued", w.Date, published)
	}
	if w.By == "" && len(w.RulesNowIn) == 0 {
		s.addMissing(s.line, "by", "say what withdrew it (by: the catalog's circular) or where its rules are now (rulesNowIn), or both")
	}
	return w
}

// checkWithdrawals checks each withdrawn.by: a published circular of the
// catalog other than the withdrawn one, issued no later than the
// withdrawal.
func (l *loader) checkWithdrawals(published map[string]*Circular) {
	for c := range l.everyCircular() {
		w := c.Withdrawal
		if w == nil || w.By == "" {
			continue
		}
		line := l.lineOf(c.Path, "withdrawn")
		by, ok := published[w.By]
		switch {
		case w.By == c.Slug:
			l.problems = append(l.problems, Problem{Path: c.Path, Line: line, Field: "withdrawn.by", Message: "a circular cannot withdraw itself"})
		case !ok:
			l.problems = append(l.problems, Problem{Path: c.Path, Line: line, Field: "withdrawn.by", Message: "refers to unknown or unpublished circular " + w.By})
		case by.PublishedDate.After(w.Date.Time):
			l.problems = append(l.problems, Problem{Path: c.Path, Line: line, Field: "withdrawn.by",
				Message: fmt.Sprintf("%s was published on %s, after the withdrawal date %s", w.By, by.PublishedDate, w.Date)})
		}
	}
}

// linkLifecycle derives each published circular's WithdrawnOn,
// WithdrawnBy and RulesNowIn from what ends it (see the top of the file):
// the earliest day any of them does, every circular that did, and every
// instrument its rules went to. A circular that amended a Master
// Direction since replaced, and is itself withdrawn, has its rules in
// the direction's successors: the amendment lives on in them.
func (c *Catalog) linkLifecycle() {
	index := make(map[string]int, len(c.Circulars))
	for i, x := range c.Circulars {
		index[x.Slug] = i
	}
	type end struct {
		on    *Date
		by    []string
		rules []RuleHome
	}
	ends := make([]end, len(c.Circulars))
	note := func(i int, on Date, by []string, rules []RuleHome) {
		e := &ends[i]
		if e.on == nil || on.Before(e.on.Time) {
			e.on = &on
		}
		for _, b := range by {
			if b != "" && !slices.Contains(e.by, b) {
				e.by = append(e.by, b)
			}
		}
		for _, r := range rules {
			if !slices.Contains(e.rules, r) {
				e.rules = append(e.rules, r)
			}
		}
	}
	for i, x := range c.Circulars {
		if w := x.Withdrawal; w != nil {
			note(i, w.Date, []string{w.By}, namedHomes(w.RulesNowIn))
		}
		for _, s := range x.SupersededBy {
			note(i, c.Circulars[index[s]].PublishedDate, []string{s}, nil)
		}
	}
	dirNames := map[string]string{}
	for _, d := range c.Directions {
		dirNames[d.Slug] = d.Label()
	}
	for _, d := range c.Directions {
		if d.Status == "in-force" || d.StatusDate == nil {
			continue
		}
		var homes []RuleHome
		for _, slug := range d.ReplacedBy {
			homes = append(homes, RuleHome{Name: dirNames[slug], Direction: OptString(slug)})
		}
		homes = append(homes, namedHomes(d.Successors)...)
		if i, ok := index[string(d.Circular)]; ok && d.Circular != "" {
			note(i, *d.StatusDate, []string{string(d.StatusCircular)}, homes)
		}
		for _, v := range d.Versions {
			for _, s := range v.Circulars {
				if i, ok := index[s]; ok && ends[i].on != nil {
					note(i, *ends[i].on, nil, homes)
				}
			}
		}
	}
	for i := range c.Circulars {
		x := &c.Circulars[i]
		x.WithdrawnOn, x.WithdrawnBy, x.RulesNowIn = ends[i].on, TextList(ends[i].by), List[RuleHome](ends[i].rules)
		for j := range x.Obligations {
			x.Obligations[j].CircularWithdrawnOn = x.WithdrawnOn
		}
	}
	for i := range c.Unpublished {
		x := &c.Unpublished[i]
		x.WithdrawnOn, x.WithdrawnBy, x.RulesNowIn = nil, nil, nil
	}
}

func namedHomes(names []string) []RuleHome {
	out := make([]RuleHome, len(names))
	for i, n := range names {
		out[i] = RuleHome{Name: n}
	}
	return out
}

// objectOf reads name, a map that read reads (and that the editors'
// schema describes through it), with the fields it was read from; nil
// when it is absent or not a map (reported: "must be a map " + shape).
func objectOf[T any](f *fields, name, shape string, read func(*fields) *T) (*T, *fields) {
	f.spec(name, func(s *fieldSpec) { s.kind = objectField })
	f.describeSub(name, func(s *fields) { read(s) })
	n := f.node(name, false)
	if n == nil {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		f.addAt(n.Line, name, "must be a map %s", shape)
		return nil, nil
	}
	s := f.sub(n, name+".")
	v := read(s)
	s.done()
	return v, s
}
