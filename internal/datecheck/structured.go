package datecheck

import (
	"fmt"
	"time"

	"regpulse/internal/catalog"
)

// editions reports an event edition whose status its dates contradict:
// upcoming or ongoing after its end, completed before its start. Sibos's
// are its own files (content/sibos); other events' are their front
// matter's editions.
func (c *checker) editions() {
	for _, e := range c.cat.Sibos {
		if msg := editionStatus(e.Edition(), c.today); msg != "" {
			c.add(Report{Path: e.Path, Line: c.keyLine(e.Path, "status", e.Status, 1), Field: "status", Severity: Error,
				Kind: KindEditionPast, Message: msg})
		}
	}
	for _, ev := range c.cat.Events {
		if ev.Slug == catalog.SibosEventSlug {
			continue
		}
		for _, ed := range ev.Editions {
			if msg := editionStatus(ed, c.today); msg != "" {
				line := c.keyLine(ev.Path, "status", ed.Status, c.keyLine(ev.Path, "year", fmt.Sprint(ed.Year), c.keyLine(ev.Path, "editions", "", 1)))
				c.add(Report{Path: ev.Path, Line: line, Field: "editions.status", Severity: Error, Kind: KindEditionPast,
					Message: fmt.Sprintf("%d: %s", ed.Year, msg)})
			}
		}
	}
}

// editionStatus says what is wrong with e's status on day today, "" when
// nothing is.
func editionStatus(e catalog.Edition, today time.Time) string {
	var start, end time.Time
	if e.StartDate != nil {
		start = e.StartDate.Time
	}
	end = start
	if e.EndDate != nil {
		end = e.EndDate.Time
	}
	switch {
	case e.Status == "upcoming" && !end.IsZero() && end.Before(today):
		return fmt.Sprintf("upcoming, and the edition ended on %s: completed", formatDay(end))
	case e.Status == "upcoming" && !start.IsZero() && !start.After(today):
		return fmt.Sprintf("upcoming, and the edition started on %s: ongoing", formatDay(start))
	case e.Status == "ongoing" && !end.IsZero() && end.Before(today):
		return fmt.Sprintf("ongoing, and the edition ended on %s: completed", formatDay(end))
	case e.Status != "upcoming" && !start.IsZero() && start.After(today):
		return fmt.Sprintf("%s, and the edition starts on %s: upcoming", e.Status, formatDay(start))
	case e.Status != "completed" && start.IsZero() && e.Year < today.Year():
		return fmt.Sprintf("%s, with no dates, in %d: a past year", e.Status, e.Year)
	}
	return ""
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

// lists reports a hand-kept list older than the catalog: a network's
// guidelines, as of a day before the newest circular about the network.
// The page says "as of", so the list is not untrue: a warning, for an
// editor to bring the list up to that circular.
func (c *checker) lists() {
	for _, n := range c.cat.Networks {
		if n.GuidelinesAsOf == nil {
			continue
		}
		about := c.cat.AboutNetwork(n, c.today, 1)
		if len(about) == 0 || !about[0].PublishedDate.After(n.GuidelinesAsOf.Time) {
			continue
		}
		newest := about[0]
		c.add(Report{Path: n.Path, Line: c.keyLine(n.Path, "guidelinesAsOf", "", 1), Field: "guidelinesAsOf", Severity: Warning,
			Kind: KindListBehind, Message: fmt.Sprintf("guidelines as of %s, and %s of %s is about %s: bring them up to it",
				formatDay(n.GuidelinesAsOf.Time), newest.Slug, formatDay(newest.PublishedDate.Time), n.Name)})
	}
}
