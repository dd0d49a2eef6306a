// Package teammail is the e-mails an organisation's decisions send to
// its members (issue 44): a mention (a colleague's comment naming
// @them) and the daily reminder of the decisions they own that are due
// within a week or overdue. It renders them and runs the reminders;
// the messages go through internal/mail's sender and transports, as
// the alerts' and the invitations', and the store (internal/store)
// keeps what was sent.
package teammail

import (
	"context"
	"errors"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
)

// The kinds of reminder: each decision is reminded once of each (per
// due date), due-soon while its due date is within Horizon days, then
// overdue once that day has passed.
const (
	KindDueSoon = "due-soon"
	KindOverdue = "overdue"
)

// Horizon is how many days ahead a reminder looks: a decision due
// within it (today included) is due soon.
const Horizon = 7

// Window is the last day a reminder sent on today's day lists as due
// soon: today plus Horizon days.
func Window(today catalog.Date) catalog.Date {
	return catalog.Date{Time: today.AddDate(0, 0, Horizon)}
}

// Kind is the reminder a decision due on due deserves on today: overdue
// when the day has passed, due-soon within Horizon days, "" otherwise.
func Kind(due, today catalog.Date) string {
	switch {
	case due.Before(today.Time):
		return KindOverdue
	case !due.After(Window(today).Time):
		return KindDueSoon
	}
	return ""
}

// Catalog is what a subject's page is read from.
type Catalog interface {
	Circular(ctx context.Context, id string) (catalog.Circular, error)
	ObligationByID(ctx context.Context, id string) (catalog.Obligation, error)
	Direction(ctx context.Context, slug string) (catalog.MasterDirection, error)
}

// Page is what an e-mail shows of a decision's subject: its title and
// the site's page about it (a path).
type Page struct {
	Title string
	Path  string
}

// SubjectPage is s's title and page: a circular's own page; an
// obligation's circular's page, at its obligations; a provision's
// direction's page, at the provision. A subject the catalog no longer
// has is named by its kind and id, linked to the organisation's page.
func SubjectPage(ctx context.Context, cat Catalog, s decisions.Subject) (Page, error) {
	p, err := subjectPage(ctx, cat, s)
	if errors.Is(err, catalog.ErrNotFound) {
		return Page{Title: s.String(), Path: "/organisation"}, nil
	}
	return p, err
}

func subjectPage(ctx context.Context, cat Catalog, s decisions.Subject) (Page, error) {
	switch s.Type {
	case decisions.SubjectCircular:
		c, err := cat.Circular(ctx, s.ID)
		if err != nil {
			return Page{}, err
		}
		return Page{Title: c.Title, Path: "/circulars/" + c.Slug}, nil
	case decisions.SubjectObligation:
		o, err := cat.ObligationByID(ctx, s.ID)
		if err != nil {
			return Page{}, err
		}
		return Page{Title: strings.TrimSpace(o.What) + " (" + o.CircularTitle + ")", Path: "/circulars/" + o.CircularSlug + "#obligations-heading"}, nil
	}
	d, err := cat.Direction(ctx, s.ID)
	if err != nil {
		return Page{}, err
	}
	return Page{Title: d.Title + ", paragraph " + string(s.Provision),
		Path: catalog.DirectionPath(s.ID) + "/#" + catalog.ProvisionAnchor(string(s.Provision))}, nil
}

// Rendered is an e-mail's subject and bodies.
type Rendered struct{ Subject, Text, HTML string }

// name is how an e-mail calls a person: their name, else their username.
func name(first, last, username string) string {
	if n := strings.TrimSpace(first + " " + last); n != "" {
		return n
	}
	return username
}
