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

// complianceEvent is one date a circular demands something by.
type complianceEvent struct {
	UID      string
	Date     catalog.Date
	What     string // "Takes effect", or the compliance date's text
	Circular catalog.Circular
}

// complianceEvents lists the effective and compliance dates of the
// circulars active as of now (impact.IsActive) that fall in the window
// ending today or later, by date then circular. A UID is stable across
// builds: the circular's id, the date and the date's place among that
// circular's items of the same day.
func complianceEvents(cat *catalog.Catalog, now time.Time) []complianceEvent {
	from, _ := impact.Window(now)
	var out []complianceEvent
	for _, c := range cat.Circulars {
		if !impact.IsActive(c, now) {
			continue
		}
		var items []complianceEvent
		if c.EffectiveDate != nil {
			items = append(items, complianceEvent{Date: *c.EffectiveDate, What: "Takes effect"})
		}
		for _, d := range c.ComplianceDates {
			items = append(items, complianceEvent{Date: d.Date, What: d.What})
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
// all-day event per date. DTSTAMP is the circular's publication, not the
// build time, so an unchanged catalog gives the same bytes.
func RenderCalendar(cat *catalog.Catalog, now time.Time, baseURL string) []byte {
	cal := ics.NewCalendar()
	cal.SetMethod(ics.MethodPublish)
	cal.SetProductId("-//RegPulse//Compliance dates//EN")
	cal.SetName("RegPulse compliance dates")
	cal.SetXWRCalName("RegPulse compliance dates")
	cal.SetDescription("Effective and compliance dates of the regulator circulars RegPulse tracks that are still active.")
	cal.SetUrl(absURL(baseURL, CalendarPath))
	cal.SetRefreshInterval("P1D")
	for _, e := range complianceEvents(cat, now) {
		c := e.Circular
		page := absURL(baseURL, "/circulars/"+c.Slug)
		ev := cal.AddEvent(e.UID)
		ev.SetDtStampTime(c.PublishedDate.Time)
		ev.SetAllDayStartAt(e.Date.Time)
		ev.SetAllDayEndAt(e.Date.AddDate(0, 0, 1))
		ev.SetSummary(fmt.Sprintf("%s: %s — %s", c.Source, e.What, c.Title))
		desc := []string{c.Heading(), e.What + ".", "Impact: " + c.ImpactLevel + ". " + catalog.DocumentTypeLabel(c.DocumentType) + "."}
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
