package datecheck

import (
	"fmt"
	"time"

	"regpulse/internal/catalog"
)

// editions reports a Sibos edition whose status its dates contradict:
// upcoming or ongoing after its end, completed before its start.
func (c *checker) editions() {
	for _, e := range c.cat.Sibos {
		var start, end time.Time
		if e.StartDate != nil {
			start = e.StartDate.Time
		}
		if e.EndDate != nil {
			end = e.EndDate.Time
		} else {
			end = start
		}
		var msg string
		switch {
		case e.Status == "upcoming" && !end.IsZero() && end.Before(c.today):
			msg = fmt.Sprintf("upcoming, and the edition ended on %s: completed", formatDay(end))
		case e.Status == "upcoming" && !start.IsZero() && !start.After(c.today):
			msg = fmt.Sprintf("upcoming, and the edition started on %s: ongoing", formatDay(start))
		case e.Status == "ongoing" && !end.IsZero() && end.Before(c.today):
			msg = fmt.Sprintf("ongoing, and the edition ended on %s: completed", formatDay(end))
		case e.Status != "upcoming" && !start.IsZero() && start.After(c.today):
			msg = fmt.Sprintf("%s, and the edition starts on %s: upcoming", e.Status, formatDay(start))
		case e.Status == "upcoming" && start.IsZero() && e.Year < c.today.Year():
			msg = fmt.Sprintf("upcoming, with no dates, in %d: a past year", e.Year)
		}
		if msg != "" {
			c.add(Report{Path: e.Path, Line: c.keyLine(e.Path, "status", e.Status, 1), Field: "status", Severity: Error,
				Kind: KindEditionPast, Message: msg})
		}
	}
}

// regulations reports a regulation still draft or proposed after the date
// it took effect.
func (c *checker) regulations() {
	for _, r := range c.cat.Regulations {
		if (r.Status == "draft" || r.Status == "proposed") && r.EffectiveDate != nil && !r.EffectiveDate.After(c.today) {
			c.add(Report{Path: r.Path, Line: c.keyLine(r.Path, "status", r.Status, 1), Field: "status", Severity: Error,
				Kind: KindStatusPast, Message: fmt.Sprintf("%s, and effectiveDate %s is past: active, or the date it now takes effect",
					r.Status, formatDay(r.EffectiveDate.Time))})
		}
	}
}

// obligations reports what would fall due after a circular stopped being
// in force: an obligation's deadline, a compliance date. The register and
// the calendars no longer show them (Circular.InForce); the content still
// says a reader must act then, and an editor moves the obligation to the
// instrument its rules are now in, or drops the date.
func (c *checker) obligations() {
	for _, ci := range c.cat.Circulars {
		if ci.WithdrawnOn == nil {
			continue
		}
		ended := ci.WithdrawnOn.Time
		why := fmt.Sprintf("the circular is no longer in force since %s (%s)", formatDay(ended), endedBy(ci))
		from := c.keyLine(ci.Path, "obligations", "", 1)
		for _, o := range ci.Obligations {
			if o.DueDate == nil || o.DueDate.Before(ended) {
				continue
			}
			c.add(Report{Path: ci.Path, Line: c.keyLine(ci.Path, "deadline", o.DueDate.Format("2006-01-02"), from),
				Field: "obligations.deadline", Severity: Error, Kind: KindDueWithdrawn,
				Message: fmt.Sprintf("due on %s, and %s: move it to where its rule now is, or remove the deadline",
					formatDay(o.DueDate.Time), why)})
		}
		for _, d := range ci.ComplianceDates {
			if d.Date.Before(ended) {
				continue
			}
			c.add(Report{Path: ci.Path, Line: c.keyLine(ci.Path, "date", d.Date.Format("2006-01-02"), c.keyLine(ci.Path, "complianceDates", "", 1)),
				Field: "complianceDates", Severity: Error, Kind: KindDatesWithdrawn,
				Message: fmt.Sprintf("%s on %s, and %s", d.What, formatDay(d.Date.Time), why)})
		}
	}
}

func endedBy(ci catalog.Circular) string {
	switch {
	case len(ci.WithdrawnBy) > 0:
		return "by " + ci.WithdrawnBy[0]
	case len(ci.SupersededBy) > 0:
		return "superseded by " + ci.SupersededBy[0]
	}
	return "withdrawn"
}

// lists reports a regulator's hand-kept list of updates whose newest entry
// is older than the regulator's newest circular.
func (c *checker) lists() {
	newest := map[string]catalog.Circular{}
	for _, ci := range c.cat.Circulars { // newest first
		if _, ok := newest[ci.Source]; !ok {
			newest[ci.Source] = ci
		}
	}
	for _, b := range c.cat.Bodies {
		n, ok := newest[b.ShortName]
		if !ok || len(b.RecentUpdates) == 0 {
			continue
		}
		var listed time.Time
		for _, slug := range b.RecentUpdates {
			if ci, ok := c.circular(slug); ok && ci.PublishedDate.After(listed) {
				listed = ci.PublishedDate.Time
			}
		}
		if listed.Before(n.PublishedDate.Time) {
			c.add(Report{Path: b.Path, Line: c.keyLine(b.Path, "recentUpdates", "", 1), Field: "recentUpdates", Severity: Error,
				Kind: KindListBehind, Message: fmt.Sprintf("newest entry of %s, and %s's newest circular, %s, is of %s",
					formatDay(listed), b.ShortName, n.Slug, formatDay(n.PublishedDate.Time))})
		}
	}
}
