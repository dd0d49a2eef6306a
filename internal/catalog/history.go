package catalog

import (
	"fmt"
	"slices"
)

// ProvisionSpan is one text a provision had and the days it was in force:
// from From until the day before To (nil: still in force). Key follows a
// provision through renumbering; Position orders every provision that
// ever was, so that any version's text is its spans in Position order.
type ProvisionSpan struct {
	Key      int `json:"-"`
	Position int `json:"-"`
	Provision
	From Date  `json:"from"`
	To   *Date `json:"to"`
	// Version is the index in Versions of the version that gave the
	// provision this text; -1 for the text as issued. Change is the
	// effect that did ("" as issued).
	Version int       `json:"-"`
	Change  OptString `json:"change" enum:"EffectKind"`
	Touches TextList  `json:"touches"`
}

// InForceOn reports whether the span is the provision's text on day.
func (s ProvisionSpan) InForceOn(day Date) bool {
	return !day.Before(s.From.Time) && (s.To == nil || day.Before(s.To.Time))
}

// At is the direction's text in force on day: its provisions, in order.
// Before the direction was issued there is none.
func (d *MasterDirection) At(day Date) []ProvisionSpan {
	var out []ProvisionSpan
	for _, s := range d.History {
		if s.InForceOn(day) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b ProvisionSpan) int { return a.Position - b.Position })
	return out
}

// EffectProblem is an effect that cannot be applied: Version and Effect
// index the version and its effect.
type EffectProblem struct {
	Version, Effect int
	Message         string
}

// BuildHistory applies the versions (not drafts) to the provisions as
// issued, in date order, and returns every span; the problems are the
// effects that name a provision missing at the time, or an id taken.
// The provisions' ids must be unique (the loader checks them).
func BuildHistory(issued Date, provisions []Provision, versions []DirectionVersion) ([]ProvisionSpan, []EffectProblem) {
	type lineage struct {
		key   int
		spans []ProvisionSpan
	}
	var (
		order    []*lineage              // every provision that ever was, in text order
		current  = map[string]*lineage{} // id -> lineage, now
		problems []EffectProblem
	)
	for _, p := range provisions {
		l := &lineage{key: len(order)}
		l.spans = []ProvisionSpan{{Provision: p, From: issued, Version: -1}}
		order = append(order, l)
		current[p.ID] = l
	}
	last := func(l *lineage) *ProvisionSpan { return &l.spans[len(l.spans)-1] }
	// next closes l's span on day and opens one from it, unless the span
	// opened that day (two effects of one version): then it is changed.
	next := func(l *lineage, day Date, vi int, change OptString, touches TextList) *ProvisionSpan {
		cur := last(l)
		if cur.From.Equal(day.Time) && cur.Version == vi {
			if cur.Change == EffectInserted {
				change = EffectInserted
			}
			cur.Change, cur.Touches = change, touches
			return cur
		}
		d := day
		cur.To = &d
		n := *cur
		n.From, n.To, n.Version, n.Change, n.Touches = day, nil, vi, change, touches
		l.spans = append(l.spans, n)
		return last(l)
	}
	for vi, v := range versions {
		if v.Draft {
			continue
		}
		bad := func(ei int, format string, args ...any) {
			problems = append(problems, EffectProblem{vi, ei, fmt.Sprintf(format, args...)})
		}
		for ei, e := range v.Effects {
			l, exists := current[e.Provision]
			switch e.Kind {
			case EffectInserted:
				if exists {
					bad(ei, "provision %s is already in force on %s: substitute it, or renumber it first", e.Provision, v.Date)
					continue
				}
				at := 0 // after "": first
				chapter := e.Chapter
				if e.After != "" {
					a, ok := current[e.After]
					if !ok {
						bad(ei, "after: provision %s is not in force on %s", e.After, v.Date)
						continue
					}
					at = slices.Index(order, a) + 1
					if chapter == "" {
						chapter = last(a).Chapter
					}
				}
				wording := e.Wording
				nl := &lineage{key: len(order)}
				nl.spans = []ProvisionSpan{{
					Provision: Provision{ID: e.Provision, Chapter: chapter, Heading: e.Heading, Text: e.Text, Wording: wording},
					From:      v.Date, Version: vi, Change: EffectInserted, Touches: e.Touches,
				}}
				order = slices.Insert(order, at, nl)
				current[e.Provision] = nl
			case EffectSubstituted, EffectDeleted, EffectRenumbered:
				if !exists {
					bad(ei, "provision %s is not in force on %s", e.Provision, v.Date)
					continue
				}
				switch e.Kind {
				case EffectSubstituted:
					s := next(l, v.Date, vi, EffectSubstituted, e.Touches)
					if e.Text != "" {
						s.Text = e.Text
					}
					if e.Heading != "" {
						s.Heading = e.Heading
					}
					if e.Wording != "" {
						s.Wording = e.Wording
					}
					if e.Chapter != "" {
						s.Chapter = e.Chapter
					}
				case EffectDeleted:
					cur := last(l)
					d := v.Date
					if cur.From.Equal(d.Time) && cur.Version == vi {
						// made and deleted by one version: it never was
						l.spans = l.spans[:len(l.spans)-1]
					} else {
						cur.To = &d
					}
					delete(current, e.Provision)
				case EffectRenumbered:
					if _, taken := current[e.To]; taken {
						bad(ei, "to: provision %s is already in force on %s", e.To, v.Date)
						continue
					}
					s := next(l, v.Date, vi, EffectRenumbered, e.Touches)
					s.ID = e.To
					delete(current, e.Provision)
					current[e.To] = l
				}
			}
		}
	}
	var out []ProvisionSpan
	for pos, l := range order {
		for _, s := range l.spans {
			s.Key, s.Position = l.key, pos
			out = append(out, s)
		}
	}
	return out, problems
}
