package catalog

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// An obligation may say which Master Direction, and which of its
// provisions, it rests on:
//
//	cites:
//	  direction: payment-aggregators-2025
//	  provisions: ["15(a)(i)", "15(a)(ii)"]   # none: the whole direction
//	  reviewedOn: 2025-12-01                  # optional
//
// The loader then knows when the regulator changed what it rests on:
// a version of the direction after the obligation was written (its
// circular's publication) or last reviewed (reviewedOn) that substituted,
// deleted or renumbered a cited provision, or, citing the whole
// direction, any later version. Such an obligation carries a Review, and
// pages mark it "changed: review" with the comparison of the text then
// and now. An editor who has checked it sets reviewedOn, and the mark
// goes until the next change.

// ProvisionCitation is an obligation's cites.
type ProvisionCitation struct {
	Direction  string   `json:"direction"`
	Provisions TextList `json:"provisions"`
	ReviewedOn *Date    `json:"reviewedOn"`
	// DirectionName is the direction's name (MasterDirection.Label), set
	// by the loader, and DirectionPath its page, for pages to link it.
	DirectionName string `json:"directionName"`
	DirectionPath string `json:"directionPath"`
	// Line is the cites map's line in the file, for problems.
	Line int `json:"-"`
}

// ProvisionReview says that what an obligation cites changed after it
// was written or reviewed: Since is the first change's date, Provisions
// the cited ones that changed (all of them when the whole direction is
// cited), and Compare the page comparing the text it was written against
// with the latest.
type ProvisionReview struct {
	Since      Date     `json:"since"`
	Provisions TextList `json:"provisions"`
	Compare    string   `json:"compare"`
}

// citation reads an obligation's cites map.
func (f *fields) citation(v *yaml.Node, prefix string) (*ProvisionCitation, bool) {
	if v.Kind != yaml.MappingNode {
		f.addAt(v.Line, prefix, "must be a map {direction, provisions, reviewedOn}")
		return nil, false
	}
	before := len(*f.problems)
	s := f.sub(v, prefix+".")
	c := readCitation(s)
	c.Line = f.lineBase + v.Line
	s.done()
	return c, len(*f.problems) == before
}

// readCitation reads the fields of a cites map.
func readCitation(s *fields) *ProvisionCitation {
	return &ProvisionCitation{Direction: s.str("direction", true), Provisions: s.list("provisions", false),
		ReviewedOn: s.date("reviewedOn", false)}
}

// reviewCitations checks each obligation's cites against the directions
// and sets its Review.
func (l *loader) reviewCitations() {
	dirs := map[string]*MasterDirection{}
	for i := range l.cat.Directions {
		dirs[l.cat.Directions[i].Slug] = &l.cat.Directions[i]
	}
	for _, cs := range [][]Circular{l.cat.Circulars, l.cat.Unpublished} {
		for i := range cs {
			c := &cs[i]
			cloned := false
			for j := range c.Obligations {
				if c.Obligations[j].Cites == nil {
					continue
				}
				if !cloned {
					// what the file decoded to is kept as it was (WithDecoded)
					c.Obligations, cloned = slices.Clone(c.Obligations), true
				}
				o := &c.Obligations[j]
				cites := *o.Cites
				o.Cites = &cites
				review, err := reviewOf(dirs[o.Cites.Direction], *o.Cites, c.PublishedDate)
				if err != nil {
					l.problems = append(l.problems, Problem{Path: c.Path, Line: o.Cites.Line,
						Field: fmt.Sprintf("obligations[%d].cites", j), Message: err.Error()})
					continue
				}
				o.Review = review
				o.Cites.DirectionName, o.Cites.DirectionPath = dirs[o.Cites.Direction].Label(), DirectionPath(o.Cites.Direction)
			}
		}
	}
}

// reviewOf is the review an obligation citing cite, written on written,
// needs from d's versions (nil when nothing it cites changed since).
func reviewOf(d *MasterDirection, cite ProvisionCitation, written Date) (*ProvisionReview, error) {
	if d == nil {
		return nil, fmt.Errorf("refers to unknown direction %s (a folder of %s)", cite.Direction, DirectionsFolder)
	}
	base := written
	if cite.ReviewedOn != nil && cite.ReviewedOn.After(base.Time) {
		base = *cite.ReviewedOn
	}
	if base.Before(d.IssuedDate.Time) {
		base = d.IssuedDate // an obligation written before the direction rests on it as issued
	}
	then := d.At(base)
	var changed []string
	var since *Date
	note := func(id string, day Date) {
		changed = append(changed, id)
		if since == nil || day.Before(since.Time) {
			since = &day
		}
	}
	if len(cite.Provisions) == 0 {
		for _, v := range d.Versions {
			if !v.Draft && v.Date.After(base.Time) {
				note(d.Label(), v.Date)
				break // versions are in date order: the first is the earliest
			}
		}
		changed = nil // the whole direction: no provision to name
	}
	var unknown []string
	for _, id := range cite.Provisions {
		i := slices.IndexFunc(then, func(s ProvisionSpan) bool { return s.ID == id })
		if i < 0 {
			unknown = append(unknown, id)
			continue
		}
		if to := then[i].To; to != nil {
			note(id, *to)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%s has no provision %s in its text of %s", d.Slug, strings.Join(unknown, ", "), base)
	}
	if since == nil {
		return nil, nil
	}
	from := d.IssuedDate
	latest := d.IssuedDate
	for _, v := range d.Versions {
		if v.Draft {
			continue
		}
		if !v.Date.After(base.Time) {
			from = v.Date
		}
		latest = v.Date
	}
	return &ProvisionReview{Since: *since, Provisions: TextList(changed), Compare: DirectionComparePath(d.Slug, from, latest)}, nil
}
