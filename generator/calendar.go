package generator

import (
	"fmt"
	"slices"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"

	"regpulse/internal/catalog"
	"regpulse/internal/impact"
)

// CalendarPath is the iCalendar feed (RFC 5545) of compliance dates, for a
// team to subscribe to in its calendar.
const CalendarPath = "/feeds/compliance.ics"

// EntityCalendarPath is the calendar of one entity type's dates:
// /feeds/compliance-psp.ics.
func EntityCalendarPath(entityType string) string {
	return "/feeds/compliance-" + strings.ToLower(entityType) + ".ics"
}

// CalendarPaths are every calendar the build writes.
func CalendarPaths() []string {
	out := []string{CalendarPath}
	for _, t := range catalog.EntityTypes {
		out = append(out, EntityCalendarPath(t))
	}
	return out
}

// complianceEvent is one date a circular demands something by.
type complianceEvent struct {
	UID      string
	Date     catalog.Date
	What     string // "Takes effect", the compliance date's text, or the obligation's what
	Circular catalog.Circular
	// Obligation is the obligation the event is, nil for a circular's
	// own date.
	Obligation *catalog.Obligation
	// Comments marks a consultation's comment deadline (catalog.Circular's
	// commentsDue): not binding, but a date a team may act by.
	Comments bool
}

// WhatCommentsDue is what a consultation's comment deadline is called in
// the calendars.
const WhatCommentsDue = "Comments due"

// forType reports whether e concerns entityType ("" every type): an
// obligation applying to it (or to all), a circular's date when its
// editors rated it for the type.
func (e complianceEvent) forType(entityType string) bool {
	if entityType == "" {
		return true
	}
	if e.Obligation != nil {
		return e.Obligation.AppliesToType(entityType)
	}
	return slices.ContainsFunc(e.Circular.EntityImpact, func(ei catalog.EntityImpact) bool { return ei.EntityType == entityType })
}

// complianceEvents lists the effective and compliance dates of the
// circulars active as of now (impact.IsActive), and the due dates of
// their binding obligations (the written ones, or else their extracted
// ones of extracted, by circular id), that fall in the window ending today or
// later, by date then circular. A UID is stable across builds: a date's
// is the circular's id, the date and the date's place among that
// circular's items of the same day; an obligation's is its own stable id.
// A compliance date on the day one of the circular's obligations is due
// is left out: the obligation's event says more. Besides, every
// consultation's comment deadline in the window (published by now,
// whether or not it is finalised since: the date stays what it was), UID
// the circular's id, the day and "comments".
func complianceEvents(cat *catalog.Catalog, extracted map[string][]catalog.Obligation, now time.Time) []complianceEvent {
	from, today := impact.Window(now)
	var out []complianceEvent
	for _, c := range cat.Circulars {
		if d := c.CommentsDue; d != nil && catalog.Consultative(c.DocumentType) && !d.Before(from) && !c.PublishedDate.After(today) {
			out = append(out, complianceEvent{UID: fmt.Sprintf("%s-%s-comments@regpulse", c.ID, d.Format("20060102")),
				Date: *d, What: WhatCommentsDue, Circular: c, Comments: true})
		}
		if !impact.IsActive(c, now) {
			continue
		}
		var items []complianceEvent
		if c.EffectiveDate != nil {
			items = append(items, complianceEvent{Date: *c.EffectiveDate, What: "Takes effect"})
		}
		due := map[string]bool{}
		obs := shownObligations(c, extracted)
		for i, o := range obs {
			if o.DueDate == nil || !o.Binding || o.DueDate.Before(from) {
				continue
			}
			due[o.DueDate.String()] = true
			out = append(out, complianceEvent{UID: o.ID + "@regpulse", Date: *o.DueDate, What: o.What, Circular: c, Obligation: &obs[i]})
		}
		for _, d := range c.ComplianceDates {
			if !due[d.Date.String()] {
				items = append(items, complianceEvent{Date: d.Date, What: d.What})
			}
		}
		perDay := map[string]int{}
		for _, e := range items {
			day := e.Date.Format("20060102")
			n := perDay[day]
			perDay[day]++
			if e.Date.Before(from) {
				continue
			}
			e.UID = fmt.Sprintf("%s-%s-%d@regpulse", c.ID, day, n)
			e.Circular = c
			out = append(out, e)
		}
	}
	// Stable order: by date, then as the catalog lists circulars.
	slices.SortStableFunc(out, func(a, b complianceEvent) int { return a.Date.Compare(b.Date.Time) })
	return out
}

// RenderCalendar renders the compliance dates as an iCalendar feed: one
// all-day event per date or dated obligation; entityType ("" for all)
// keeps those of one entity type; extracted are the store's dated
// extracted obligations (complianceEvents). DTSTAMP is the circular's publication,
// not the build time, so an unchanged catalog gives the same bytes.
func RenderCalendar(cat *catalog.Catalog, extracted map[string][]catalog.Obligation, now time.Time, baseURL, entityType string) []byte {
	cal := ics.NewCalendar()
	cal.SetMethod(ics.MethodPublish)
	cal.SetProductId("-//RegPulse//Compliance dates//EN")
	name, path, whose := "RegPulse compliance dates", CalendarPath, ""
	if entityType != "" {
		name, path, whose = name+": "+impact.DisplayName(entityType), EntityCalendarPath(entityType), " that concern "+impact.DisplayName(entityType)
	}
	cal.SetName(name)
	cal.SetXWRCalName(name)
	cal.SetDescription("Effective and compliance dates, and dated obligations, of the regulator circulars RegPulse tracks that are still active" + whose +
		"; and the deadlines for comments on drafts and consultation papers, which bind no one.")
	cal.SetUrl(absURL(baseURL, path))
	cal.SetRefreshInterval("P1D")
	for _, e := range complianceEvents(cat, extracted, now) {
		if !e.forType(entityType) {
			continue
		}
		c := e.Circular
		page := absURL(baseURL, "/circulars/"+c.Slug)
		ev := cal.AddEvent(e.UID)
		ev.SetDtStampTime(c.PublishedDate.Time)
		ev.SetAllDayStartAt(e.Date.Time)
		ev.SetAllDayEndAt(e.Date.AddDate(0, 0, 1))
		ev.SetSummary(fmt.Sprintf("%s: %s — %s", c.Source, e.What, c.Title))
		desc := []string{c.Heading(), e.What + ".", "Impact: " + c.ImpactLevel + ". " + catalog.DocumentTypeLabel(c.DocumentType) + "."}
		if o := e.Obligation; o != nil {
			desc = append(desc, "Obligation of "+partiesName(o.AppliesTo)+" ("+catalog.ObligationKindLabel(o.Kind)+"), from the text: "+o.SourceText)
			if o.Origin == catalog.OriginExtracted && !o.Accepted {
				desc = append(desc, "Machine-extracted: not yet reviewed by an editor.")
			}
			ev.AddCategory("Obligation")
		}
		if e.Comments {
			desc = append(desc, "Comments on this "+strings.ToLower(catalog.DocumentTypeLabel(c.DocumentType))+" are due to "+c.Source+
				" by this day. It is not binding: nothing is required of anyone until the regulator issues a final version.")
			ev.AddCategory("Consultation")
		}
		if l := catalog.VerificationLabel(string(c.Verification)); l != "" {
			desc = append(desc, l+".") // a date from an unchecked entry says so where it is kept
		}
		if c.OfficialURL != "" {
			desc = append(desc, "Official document: "+string(c.OfficialURL))
		}
		desc = append(desc, "Details: "+page)
		ev.SetDescription(strings.Join(desc, "\n"))
		ev.SetURL(page)
		ev.AddCategory(c.Source)
		ev.SetTimeTransparency(ics.TransparencyTransparent)
	}
	return []byte(cal.Serialize(ics.WithNewLineWindows))
}
