// Package decisions is what an organisation decides about a regulatory
// text (issue 44, second slice): whether a circular, an obligation or a
// Master Direction provision applies to it, who owns the work, by when,
// how far it is, and the comments on it. It holds the rules (a reason's
// note, a relative due date, a mention) and no SQL (internal/store) nor
// HTTP (api).
package decisions

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/teams"
)

// The kinds of subject a decision is about.
const (
	SubjectCircular   = "circular"
	SubjectObligation = "obligation"
	SubjectProvision  = "provision"
)

// SubjectTypes are every kind of subject.
var SubjectTypes = []string{SubjectCircular, SubjectObligation, SubjectProvision}

// Subject is what a decision is about: a circular or an obligation by
// id, or a provision of a Master Direction by the direction's slug (ID)
// and the provision's number as the direction numbers it ("15(a)(i)").
type Subject struct {
	Type      string            `json:"subjectType" enum:"SubjectType"`
	ID        string            `json:"subjectId"`
	Provision catalog.OptString `json:"provision"`
}

// String names the subject in messages.
func (s Subject) String() string {
	if s.Type == SubjectProvision {
		return s.Type + " " + s.ID + " " + string(s.Provision)
	}
	return s.Type + " " + s.ID
}

// Applicability: does the subject apply to the organisation?
const (
	Applicable    = "applicable"
	NotApplicable = "not-applicable"
	Deferred      = "deferred"
)

// Applicabilities are every answer.
var Applicabilities = []string{Applicable, NotApplicable, Deferred}

// The reasons a subject does not apply.
const (
	ReasonNoActionNeeded = "no-action-needed"
	ReasonDuplicate      = "duplicate"
	ReasonSuperseded     = "superseded"
	ReasonOther          = "other"
)

// Reasons are every reason a subject does not apply.
var Reasons = []string{ReasonNoActionNeeded, ReasonDuplicate, ReasonSuperseded, ReasonOther}

// The statuses of the work a decision asks for.
const (
	StatusNew           = "new"
	StatusAssessing     = "assessing"
	StatusActionPlanned = "action-planned"
	StatusDone          = "done"
	StatusNotApplicable = "not-applicable"
)

// Statuses are every status, in the work's order.
var Statuses = []string{StatusNew, StatusAssessing, StatusActionPlanned, StatusDone, StatusNotApplicable}

// Open reports whether status still asks for work: what "my work" lists
// and a reassignment moves.
func Open(status string) bool { return status != StatusDone && status != StatusNotApplicable }

// ClosedStatuses are the statuses that ask for no more work.
var ClosedStatuses = []string{StatusDone, StatusNotApplicable}

// MaxNote is a note's or a comment's length at most, in characters.
const MaxNote = 2000

// Decision is an organisation's decision on one subject: one per
// organisation and subject.
type Decision struct {
	OrganisationID string `json:"organisationId"`
	Subject
	Applicability string `json:"applicability" enum:"Applicability"`
	// Reason is why a subject does not apply ("" otherwise); Note says
	// more, required for the reason other.
	Reason catalog.OptString `json:"reason"`
	Note   catalog.OptString `json:"note"`
	// DeferredUntil is when a deferred decision is to be taken again.
	DeferredUntil *catalog.Date `json:"deferredUntil"`
	// OwnerID is the member who owns the work (none: "", null in JSON).
	OwnerID catalog.OptString `json:"ownerId"`
	// Due is the due date as given: a date (2026-03-31) or relative to
	// the subject's ("effective+30d", "deadline-14d"); DueDate what it
	// resolved to when decided (ResolveDue).
	Due     catalog.OptString `json:"due"`
	DueDate *catalog.Date     `json:"dueDate"`
	Status  string            `json:"status" enum:"DecisionStatus"`
	// DecidedBy and DecidedAt are who last changed it and when.
	DecidedBy catalog.OptString `json:"decidedBy"`
	DecidedAt time.Time         `json:"decidedAt"`
	// TextVersion is the version of the text the decision was about: for
	// a circular or an obligation, its circular's withdrawnOn then (none
	// in force); for a provision, the date of its direction's version then
	// in force (its issue date before any): a later change of the text
	// can reopen it.
	TextVersion catalog.OptString `json:"textVersion"`
	// Version counts the decision's changes: a change names the version
	// it read, and one that read an older is refused (ErrStale).
	Version int `json:"version"`
	// Reopened is the last time the system reopened the decision because
	// its text changed (Reopen), with what changed; null when it never
	// did. It stays when members decide again: a reopening after
	// DecidedAt is still to be answered.
	Reopened *Reopening `json:"reopened"`
	// Overdue, SubjectTitle and SubjectPath are not stored: the API sets
	// them on what it answers (OverdueOn, and the catalog's title and
	// page of the subject, "" when the catalog no longer has it), for
	// the pages to show rather than recompute.
	Overdue      bool   `json:"overdue"`
	SubjectTitle string `json:"subjectTitle"`
	SubjectPath  string `json:"subjectPath"`
}

// OverdueOn reports whether d is overdue on today: still open (Open)
// and its due date before today. A decision's due date is the
// organisation's own, set while it tracks the subject, so a date passed
// is a date missed.
func (d Decision) OverdueOn(today time.Time) bool {
	return Open(d.Status) && d.DueDate != nil && d.DueDate.Before(catalog.Day(today))
}

// Errors of the decisions' calls.
var (
	ErrNoDecision = errors.New("this organisation has no decision on that subject yet")
	ErrStale      = errors.New("the decision was changed since you read it: reload it and decide again")
	ErrNotOwner   = errors.New("the owner must be a member of the organisation who may decide (an admin or a member)")
	ErrNoSubject  = errors.New("there is no such subject in the catalog")
)

// Check reports each field of d at fault, by its JSON name: a reason
// only for not-applicable (other needs a note), a date only for
// deferred, a known status.
func (d Decision) Check() map[string]string {
	f := map[string]string{}
	if !slices.Contains(Applicabilities, d.Applicability) {
		f["applicability"] = "use one of: " + strings.Join(Applicabilities, ", ")
	}
	switch {
	case d.Applicability == NotApplicable && !slices.Contains(Reasons, string(d.Reason)):
		f["reason"] = "a subject that does not apply needs a reason: one of " + strings.Join(Reasons, ", ")
	case d.Applicability != NotApplicable && d.Reason != "":
		f["reason"] = "only a subject that does not apply takes a reason"
	case d.Reason == ReasonOther && strings.TrimSpace(string(d.Note)) == "":
		f["note"] = "the reason other needs a note saying why"
	}
	switch {
	case d.Applicability == Deferred && d.DeferredUntil == nil:
		f["deferredUntil"] = "a deferred decision needs the date it is to be taken again"
	case d.Applicability != Deferred && d.DeferredUntil != nil:
		f["deferredUntil"] = "only a deferred decision takes a date"
	}
	if d.Status != "" && !slices.Contains(Statuses, d.Status) {
		f["status"] = "use one of: " + strings.Join(Statuses, ", ")
	}
	if n := len([]rune(string(d.Note))); n > MaxNote {
		f["note"] = fmt.Sprintf("is %d characters; use at most %d", n, MaxNote)
	}
	return f
}

// Normalise fills what d's answers imply: a subject that does not
// apply asks for no work (status not-applicable); a new decision's
// status is new; a subject that applies after all leaves not-applicable.
func (d *Decision) Normalise() {
	switch {
	case d.Applicability == NotApplicable:
		d.Status = StatusNotApplicable
	case d.Status == "" || d.Status == StatusNotApplicable:
		d.Status = StatusNew
	}
}

// Facts are the subject's dates a relative due date counts from, as the
// catalog has them.
type Facts struct {
	// Effective is the circular's effective date (for an obligation, its
	// circular's); Deadline the obligation's due date.
	Effective *catalog.Date
	Deadline  *catalog.Date
}

var relativeDue = regexp.MustCompile(`^(effective|deadline)([+-])(\d{1,4})d$`)

// ResolveDue is the date due means for a subject of facts: a date
// (YYYY-MM-DD) as it is, "effective±Nd" N days from the circular's
// effective date, "deadline±Nd" from the obligation's deadline; "" is
// none. An error says what is wrong, the subject lacking that date
// included.
func ResolveDue(due string, subjectType string, facts Facts) (*catalog.Date, error) {
	due = strings.TrimSpace(due)
	if due == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.DateOnly, due); err == nil {
		return &catalog.Date{Time: t}, nil
	}
	m := relativeDue.FindStringSubmatch(strings.ToLower(due))
	if m == nil {
		return nil, errors.New(`use a date (YYYY-MM-DD), "effective+30d" (days from the circular's effective date) or "deadline-14d" (days from the obligation's deadline)`)
	}
	days, _ := strconv.Atoi(m[3])
	if m[2] == "-" {
		days = -days
	}
	var from *catalog.Date
	switch m[1] {
	case "effective":
		if subjectType == SubjectProvision {
			return nil, errors.New("a provision has no effective date to count from: give a date")
		}
		if from = facts.Effective; from == nil {
			return nil, errors.New("this " + subjectType + " has no effective date to count from: give a date")
		}
	case "deadline":
		if subjectType != SubjectObligation {
			return nil, errors.New("only an obligation has a deadline to count from: give a date")
		}
		if from = facts.Deadline; from == nil {
			return nil, errors.New("this obligation has no dated deadline to count from: give a date")
		}
	}
	return &catalog.Date{Time: from.AddDate(0, 0, days)}, nil
}

// Comment is a member's comment on a decision.
type Comment struct {
	ID             string `json:"id"`
	OrganisationID string `json:"organisationId"`
	Subject
	AuthorID  catalog.OptString `json:"authorId"`
	Body      string            `json:"body"`
	CreatedAt time.Time         `json:"createdAt"`
	// Mentions are the user ids of the members its @usernames name.
	Mentions []string `json:"mentions"`
}

var mention = regexp.MustCompile(`(?:^|[^\w@.])@([\w.-]+)`)

// Mentioned are the members of members whose usernames body names as
// @username (case-insensitively), each once, in the order named; an
// @name that is no member's stays text.
func Mentioned(body string, members []teams.Member) []teams.Member {
	byName := map[string]teams.Member{}
	for _, m := range members {
		byName[strings.ToLower(m.Username)] = m
	}
	out := []teams.Member{}
	seen := map[string]bool{}
	for _, sm := range mention.FindAllStringSubmatch(body, -1) {
		name := strings.ToLower(strings.TrimRight(sm[1], ".-"))
		m, ok := byName[name]
		if ok && !seen[m.UserID] {
			seen[m.UserID] = true
			out = append(out, m)
		}
	}
	return out
}

// BoardQuery selects an organisation's decisions: by status, owner and
// due before a day (each "" for any), a page of them by due date.
type BoardQuery struct {
	Status    string
	OwnerID   string
	DueBefore *catalog.Date
	Limit     int
	Offset    int
}

// WorkItem is a decision in a member's work, with its organisation's
// name (the work spans organisations).
type WorkItem struct {
	Decision
	OrganisationName string `json:"organisationName"`
}

var labels = map[string]string{
	Applicable: "Applies", NotApplicable: "Does not apply", Deferred: "Deferred",
	ReasonNoActionNeeded: "No action needed", ReasonDuplicate: "Duplicate", ReasonSuperseded: "Superseded", ReasonOther: "Other (with a note)",
	StatusNew: "New", StatusAssessing: "Assessing", StatusActionPlanned: "Action planned", StatusDone: "Done",
	EvidencePending: "Pending review", EvidenceAccepted: "Accepted", EvidenceRejected: "Rejected",
	ReopenWithdrawn: "The circular was withdrawn or replaced", ReopenReinstated: "The circular is in force again",
	ReopenProvisionChanged: "The provision's text changed", ReopenProvisionRemoved: "The provision was removed",
}

// Label is how pages name an applicability, a reason, a status (the
// status not-applicable is named as the applicability), an evidence's
// review state or why a decision was reopened.
func Label(v string) string { return labels[v] }
