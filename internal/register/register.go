// Package register is a user's register of obligations: the status and
// note each user sets on the obligations that apply to their business,
// the history of those changes, how the register groups obligations by
// due date, and the compliance score that follows from it. The rules live
// here once; the store keeps the rows and the pages show what it decides.
package register

import (
	"math"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
)

// The statuses a user sets; an obligation without one is StatusTodo.
const (
	StatusTodo          = "todo"
	StatusInProgress    = "in-progress"
	StatusDone          = "done"
	StatusNotApplicable = "not-applicable"
)

// Statuses are the statuses, in the order pages offer them.
var Statuses = []string{StatusTodo, StatusInProgress, StatusDone, StatusNotApplicable}

var statusLabels = map[string]string{
	StatusTodo: "To do", StatusInProgress: "In progress", StatusDone: "Done", StatusNotApplicable: "Not applicable",
}

// StatusLabel is how pages name a status.
func StatusLabel(s string) string { return statusLabels[s] }

// The due-date groups of the register, in its order. An obligation whose
// date passed before the register began tracking (the user's account, or
// later an organisation's) is not overdue: it has been in force since
// then, and asks a one-time confirmation that the business complies.
// Overdue is a date that passed while the register was tracking it.
const (
	GroupOverdue   = "overdue"
	GroupInForce   = "in-force"
	GroupThisMonth = "this-month"
	GroupLater     = "later"
	GroupNoDate    = "no-date"
)

// Groups are the groups, in the order the register shows them.
var Groups = []string{GroupOverdue, GroupInForce, GroupThisMonth, GroupLater, GroupNoDate}

var groupLabels = map[string]string{
	GroupOverdue: "Overdue", GroupInForce: "In force before you began tracking: confirm you comply",
	GroupThisMonth: "This month", GroupLater: "Later", GroupNoDate: "No date",
}

// ConfirmNote is the note a confirmation records when the user writes
// none.
const ConfirmNote = "Confirmed: we comply (in force before tracking began)."

// GroupLabel is how pages name a group.
func GroupLabel(g string) string { return groupLabels[g] }

// MaxNote is the longest note, in characters.
const MaxNote = 2000

// Item is one obligation of a user's register with what the user set on
// it: its status (todo until set), note, when they last changed it, and
// its due-date group as of the request.
type Item struct {
	catalog.Obligation
	Status          string     `json:"status" enum:"ObligationStatus"`
	Note            string     `json:"note"`
	StatusUpdatedAt *time.Time `json:"statusUpdatedAt"`
	DueGroup        string     `json:"dueGroup" enum:"DueGroup"`
}

// Change is one status change, as the history shows it.
type Change struct {
	Status    string    `json:"status" enum:"ObligationStatus"`
	Note      string    `json:"note"`
	ChangedAt time.Time `json:"changedAt"`
}

// Query selects a user's register: the binding obligations applying to
// any of EntityTypes, with Status and Group ("" for all) and Search (a
// case-insensitive substring of what, the source sentence or the
// circular's title) as of Now. The store knows since when the register
// has tracked (Group's since).
type Query struct {
	EntityTypes []string
	Status      string
	Group       string
	Search      string
	Now         time.Time
	catalog.Page
}

// Group is the due-date group of an obligation due on due, as of now,
// for a register tracking since since (UTC dates): before since in force
// (to confirm); from since to before today overdue; later this calendar
// month this month; after it later; no date.
func Group(due *catalog.Date, since, now time.Time) string {
	if due == nil {
		return GroupNoDate
	}
	today := now.UTC().Truncate(24 * time.Hour)
	switch {
	case due.Before(Today(since)):
		return GroupInForce
	case due.Before(today):
		return GroupOverdue
	case due.Before(MonthEnd(now)):
		return GroupThisMonth
	}
	return GroupLater
}

// MonthEnd is the first day of the month after now's (UTC): the end of
// the this-month group.
func MonthEnd(now time.Time) time.Time {
	y, m, _ := now.UTC().Date()
	return time.Date(y, m+1, 1, 0, 0, 0, 0, time.UTC)
}

// Today is now's UTC date: the start of the this-month group.
func Today(now time.Time) time.Time { return now.UTC().Truncate(24 * time.Hour) }

// An organisation's register (issue 44) holds the same obligations, for
// the kinds of business the organisation is, tracked from the day it was
// made; an obligation's status there is its decision's (package
// decisions: the team decides on obligations), as StatusOfDecision maps
// it, and the score follows from those statuses as a user's does.

// decisionStatuses map a decision's status to the register's: not yet
// looked at (new) is to do; being worked on (assessing, action-planned)
// in progress; done and not applicable settle it.
var decisionStatuses = map[string]string{
	decisions.StatusNew: StatusTodo, decisions.StatusAssessing: StatusInProgress, decisions.StatusActionPlanned: StatusInProgress,
	decisions.StatusDone: StatusDone, decisions.StatusNotApplicable: StatusNotApplicable,
}

// StatusOfDecision is the register's status of an obligation whose
// organisation's decision has status decision ("" for none: to do).
func StatusOfDecision(decision string) string {
	if s, ok := decisionStatuses[decision]; ok {
		return s
	}
	return StatusTodo
}

// Weights are how much an obligation counts in the score, by its
// circular's impact level.
var Weights = map[string]int{"high": 3, "medium": 2, "low": 1}

// Tally is a user's applicable obligations counted by their circular's
// impact level and status.
type Tally map[string]map[string]int

// Score is a user's compliance score: the share of their applicable
// obligations, weighted by impact, that they marked done or not
// applicable.
type Score struct {
	// Score is 0 to 100; null when no obligation applies.
	Score *int `json:"score"`
	// Applicable and Settled count obligations (settled: done or not
	// applicable).
	Applicable int `json:"applicable"`
	Settled    int `json:"settled"`
	// EntityTypes are the types the score is for (the user's, or the
	// organisation's).
	EntityTypes catalog.TextList `json:"entityTypes"`
	// Organisation is the organisation whose register the score is, for
	// a member of one; null for the user's own register.
	Organisation *OrganisationRef `json:"organisation"`
}

// OrganisationRef names the organisation a register or a score is of.
type OrganisationRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ScoreOf is the score of a tally.
func ScoreOf(t Tally, entityTypes []string) Score {
	s := Score{EntityTypes: catalog.TextList(entityTypes)}
	var total, settled int
	for level, byStatus := range t {
		w := Weights[level]
		if w == 0 {
			w = 1
		}
		for status, n := range byStatus {
			s.Applicable += n
			total += w * n
			if status == StatusDone || status == StatusNotApplicable {
				s.Settled += n
				settled += w * n
			}
		}
	}
	if total > 0 {
		v := int(math.Round(100 * float64(settled) / float64(total)))
		s.Score = &v
	}
	return s
}
