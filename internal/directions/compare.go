// Package directions answers what a compliance officer asks of a Master
// Direction: what it says on a date, what changed between two dates, and
// which circular changed it, for which kinds of business.
//
// The model and the rebuilding of a text from its effects are the
// catalog's (catalog.MasterDirection, BuildHistory); this package compares
// two dates provision by provision, aligned by provision (through
// renumbering), with a word-level redline of each changed text.
package directions

import (
	"slices"

	"regpulse/internal/catalog"
	"regpulse/internal/redline"
)

// The kinds of change a comparison reports.
const (
	Added      = "added"
	Removed    = "removed"
	Changed    = "changed"
	Renumbered = "renumbered"
)

// ChangeKinds lists them, for the API's description.
var ChangeKinds = []string{Added, Removed, Changed, Renumbered}

// Change is one provision that differs between two dates.
type Change struct {
	// Provision is its id on the later date (on the earlier one when it
	// was removed); Was its id on the earlier date when renumbered.
	Provision string `json:"provision"`
	Was       string `json:"was,omitempty"`
	Anchor    string `json:"anchor"`
	Kind      string `json:"kind" enum:"ChangeKind"`
	// Renumbered is also true of a changed provision that was renumbered.
	Before *catalog.Provision `json:"before"`
	After  *catalog.Provision `json:"after"`
	// Redline is the text from before to after, word by word (all
	// inserted for an added provision, all deleted for a removed one).
	Redline List[redline.Segment] `json:"redline"`
	// HeadingRedline is the heading's, when the heading changed (else
	// empty).
	HeadingRedline List[redline.Segment] `json:"headingRedline"`
	// By are the versions between the two dates that changed it, oldest
	// first: their dates and amending circulars.
	By List[Amendment] `json:"by"`
	// Touches are the kinds of business the change bears on.
	Touches catalog.TextList `json:"touches"`
}

// Amendment names a version and what made it, as a change cites it.
type Amendment struct {
	Date      catalog.Date              `json:"date"`
	Circulars catalog.TextList          `json:"circulars"`
	Amending  *catalog.AmendingCircular `json:"amending"`
}

// Comparison is what changed in a direction from one date to a later one.
type Comparison struct {
	From    catalog.Date `json:"from"`
	To      catalog.Date `json:"to"`
	Changes List[Change] `json:"changes"`
	Added   int          `json:"added"`
	Removed int          `json:"removed"`
	Changed int          `json:"changed"`
	// Unknown are versions between the dates whose changes RegPulse
	// does not know (only their date is), so that no comparison claims
	// "nothing changed" for them.
	Unknown List[Amendment] `json:"unknown"`
}

// List is a slice written [] when empty.
type List[T any] = catalog.List[T]

// Touches says which kinds of business a version's change bears on, when
// the effect does not say: the amending circulars' (Book.touches).
type Touches func(v *catalog.DirectionVersion) []string

// Compare compares d's text on from with its text on to (from is made
// the earlier date). d.History may hold only the spans in force at some
// time between the two dates (what the store reads): no other matters.
func Compare(d *catalog.MasterDirection, from, to catalog.Date, touches Touches) Comparison {
	if to.Before(from.Time) {
		from, to = to, from
	}
	c := Comparison{From: from, To: to, Changes: List[Change]{}, Unknown: List[Amendment]{}}
	type pair struct {
		before, after *catalog.ProvisionSpan
		position      int
		versions      []int
		touches       map[int]catalog.TextList // by version, as its effect said
	}
	byKey := map[int]*pair{}
	var keys []int
	get := func(s *catalog.ProvisionSpan) *pair {
		p, ok := byKey[s.Key]
		if !ok {
			p = &pair{position: s.Position}
			byKey[s.Key] = p
			keys = append(keys, s.Key)
		}
		return p
	}
	versionOn := map[int64]int{}
	for i, v := range d.Versions {
		versionOn[v.Date.Unix()] = i
	}
	within := func(day catalog.Date) bool { return day.After(from.Time) && !day.After(to.Time) }
	for i := range d.History {
		s := &d.History[i]
		if s.InForceOn(from) {
			get(s).before = s
		}
		if s.InForceOn(to) {
			get(s).after = s
		}
		// A version between the dates that opened or closed this span
		// changed the provision.
		if within(s.From) && s.Version >= 0 {
			p := get(s)
			p.versions = append(p.versions, s.Version)
			if len(s.Touches) > 0 {
				if p.touches == nil {
					p.touches = map[int]catalog.TextList{}
				}
				p.touches[s.Version] = s.Touches
			}
		}
		if s.To != nil && within(*s.To) {
			if vi, ok := versionOn[s.To.Unix()]; ok {
				p := get(s)
				p.versions = append(p.versions, vi)
			}
		}
	}
	slices.SortFunc(keys, func(a, b int) int { return byKey[a].position - byKey[b].position })
	for _, k := range keys {
		p := byKey[k]
		var ch Change
		switch {
		case p.before == nil && p.after == nil:
			continue // in force only between the dates
		case p.before == nil:
			ch = Change{Kind: Added, Provision: p.after.ID, After: &p.after.Provision}
			ch.Redline = redline.Words("", p.after.Text)
		case p.after == nil:
			ch = Change{Kind: Removed, Provision: p.before.ID, Before: &p.before.Provision}
			ch.Redline = redline.Words(p.before.Text, "")
		default:
			b, a := p.before.Provision, p.after.Provision
			if b == a {
				continue // changed and changed back
			}
			ch = Change{Kind: Changed, Provision: a.ID, Before: &p.before.Provision, After: &p.after.Provision}
			if b.ID != a.ID {
				ch.Was = b.ID
				if b.Text == a.Text && b.Heading == a.Heading {
					ch.Kind = Renumbered
				}
			}
			ch.Redline = redline.Words(b.Text, a.Text)
			if b.Heading != a.Heading {
				ch.HeadingRedline = redline.Words(string(b.Heading), string(a.Heading))
			}
		}
		ch.Anchor = catalog.ProvisionAnchor(ch.Provision)
		slices.Sort(p.versions)
		p.versions = slices.Compact(p.versions)
		seen := map[string]bool{}
		for _, vi := range p.versions {
			v := &d.Versions[vi]
			ch.By = append(ch.By, Amendment{Date: v.Date, Circulars: v.Circulars, Amending: v.Amending})
			ts := p.touches[vi]
			if ts == nil && touches != nil {
				ts = touches(v)
			}
			for _, t := range ts {
				seen[t] = true
			}
		}
		for _, t := range catalog.EntityTypes {
			if seen[t] {
				ch.Touches = append(ch.Touches, t)
			}
		}
		switch ch.Kind {
		case Added:
			c.Added++
		case Removed:
			c.Removed++
		default:
			c.Changed++
		}
		c.Changes = append(c.Changes, ch)
	}
	for i := range d.Versions {
		v := &d.Versions[i]
		if !v.Draft && !v.ChangesKnown && within(v.Date) {
			c.Unknown = append(c.Unknown, Amendment{Date: v.Date, Circulars: v.Circulars, Amending: v.Amending})
		}
	}
	return c
}
