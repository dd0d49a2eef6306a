package webhooks

import (
	"fmt"
	"slices"
	"strings"
)

// The `data` object of each event type: what a webhook's body carries
// under "data" (Event.Payload), and from which the producers draw the
// event's Card. Every link is absolute, under the site's URL (a store
// with no site URL configured gives the site's path alone). Dates are
// YYYY-MM-DD; a field that has no value is null (a pointer) or left out
// (omitempty), never an empty string pretending to be one.

// CircularData is a circular as an event names it (circular.published,
// circular.revised, alert.matched).
type CircularData struct {
	ID    string `json:"id"`
	Slug  string `json:"slug"`
	Title string `json:"title"`
	// Source is the regulator (RBI, SEBI, ...).
	Source string `json:"source"`
	// Number is the regulator's reference number ("" when it has none).
	Number          string           `json:"number"`
	PublishedDate   string           `json:"publishedDate"`
	EffectiveDate   *string          `json:"effectiveDate"`
	ComplianceDates []ComplianceDate `json:"complianceDates"`
	DocumentType    string           `json:"documentType"`
	// ImpactLevel is the circular's impact overall (high, medium, low).
	ImpactLevel string `json:"impactLevel"`
	// Impact is its level for each of the organisation's kinds of
	// business it concerns (an alert's channel: for every kind it names).
	Impact []EntityImpact `json:"impact"`
	// Summary is the summary a reader sees (at most a few sentences).
	Summary string `json:"summary,omitempty"`
	// URL is its page on RegPulse; SourceURL the regulator's.
	URL       string `json:"url"`
	SourceURL string `json:"sourceUrl"`
}

// ComplianceDate is a deadline of a circular.
type ComplianceDate struct {
	Date  string `json:"date"`
	Label string `json:"label"`
}

// EntityImpact is a circular's impact on a kind of business.
type EntityImpact struct {
	EntityType  string `json:"entityType"`
	ImpactLevel string `json:"impactLevel"`
}

// CircularEventData is the data of circular.published and
// circular.revised.
type CircularEventData struct {
	Circular CircularData `json:"circular"`
	// Revision names the text revised (circular.revised only): a hash of
	// what readers read, the same for every organisation.
	Revision string `json:"revision,omitempty"`
}

// DirectionChangedData is the data of direction.changed: a Master
// Direction's new version (its text as amended on VersionDate).
type DirectionChangedData struct {
	Direction DirectionRef `json:"direction"`
	// VersionDate is the day from which the new text applies.
	VersionDate string `json:"versionDate"`
	// Circular is the circular that amended it, when the version names
	// one.
	Circular *CircularRef `json:"circular"`
	// URL is the text as amended; ChangesURL compares it with the text
	// before.
	URL        string `json:"url"`
	ChangesURL string `json:"changesUrl"`
}

// DirectionRef names a Master Direction.
type DirectionRef struct {
	Slug   string `json:"slug"`
	Title  string `json:"title"`
	Source string `json:"source"`
	URL    string `json:"url"`
}

// CircularRef names a circular.
type CircularRef struct {
	Slug  string `json:"slug"`
	Title string `json:"title,omitempty"`
	URL   string `json:"url"`
}

// AlertMatchedData is the data of alert.matched: a new circular that
// matched an alert (Alert set; its channel's event) or concerns the
// organisation's kinds of business (EntityTypes set; the organisation's
// event).
type AlertMatchedData struct {
	Circular CircularData `json:"circular"`
	Alert    *AlertRef    `json:"alert,omitempty"`
	// EntityTypes are the organisation's kinds of business the circular
	// concerns.
	EntityTypes []string `json:"entityTypes,omitempty"`
}

// AlertRef names an alert.
type AlertRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// DecisionData is a decision of the organisation's as an event names
// it. A decision is the organisation's one answer on a subject, so its
// id is its subject's ("circular <id>", "obligation <id>", "provision
// <direction> <paragraph>").
type DecisionData struct {
	ID          string  `json:"id"`
	SubjectType string  `json:"subjectType"`
	SubjectID   string  `json:"subjectId"`
	Provision   string  `json:"provision,omitempty"`
	Title       string  `json:"title"`
	Status      string  `json:"status"`
	Owner       string  `json:"owner"`
	DueDate     *string `json:"dueDate"`
	Version     int     `json:"version"`
	URL         string  `json:"url"`
}

// DecisionChangedData is the data of decision.changed.
type DecisionChangedData struct {
	Decision DecisionData `json:"decision"`
	// Change is created, updated, reassigned, or reopened (the sync
	// reopened it: the text decided on changed).
	Change string `json:"change"`
	// Changed names the fields that changed (applicability, status,
	// owner, due, ...); every field for created.
	Changed []string `json:"changed"`
}

// The kinds of obligation.due.
const (
	DueSoon = "due-soon"
	Overdue = "overdue"
)

// ObligationDueData is the data of obligation.due: an open decision of
// the organisation's due within the reminders' horizon, or overdue.
type ObligationDueData struct {
	Decision DecisionData `json:"decision"`
	DueDate  string       `json:"dueDate"`
	// Kind is due-soon or overdue.
	Kind string `json:"kind"`
	URL  string `json:"url"`
}

// CircularCard is what a chat channel shows of a circular event: what
// happened (context), the title, the regulator, the impact for the
// kinds named (their highest level), the summary and links to the page
// and the regulator's source.
func CircularCard(context string, c CircularData) Card {
	card := Card{Context: context, Title: c.Title, Regulator: c.Source, Summary: c.Summary}
	if c.Number != "" {
		card.Regulator = c.Source + " · " + c.Number
	}
	if len(c.Impact) > 0 {
		kinds := make([]string, 0, len(c.Impact))
		level := ""
		for _, e := range c.Impact {
			kinds = append(kinds, e.EntityType)
			if rank(e.ImpactLevel) > rank(level) {
				level = e.ImpactLevel
			}
		}
		card.Impact, card.ImpactFor = level, strings.Join(kinds, ", ")
	} else if c.ImpactLevel != "" {
		card.Impact = c.ImpactLevel
	}
	card.Links = links(Link{"Open in RegPulse", c.URL}, Link{"Regulator's source", c.SourceURL})
	return card
}

// DirectionCard is what a chat channel shows of direction.changed.
func DirectionCard(d DirectionChangedData) Card {
	card := Card{Context: "Master Direction changed", Title: d.Direction.Title, Regulator: d.Direction.Source,
		Summary: "The text as amended on " + d.VersionDate + " is published."}
	if d.Circular != nil {
		title := d.Circular.Title
		if title == "" {
			title = d.Circular.Slug
		}
		card.Summary = "Amended by " + title + "; the text as amended on " + d.VersionDate + " is published."
	}
	card.Links = links(Link{"Text as amended", d.URL}, Link{"What changed", d.ChangesURL}, Link{"Master Direction", d.Direction.URL})
	return card
}

// DecisionCard is what a chat channel shows of decision.changed.
func DecisionCard(d DecisionChangedData) Card {
	sum := fmt.Sprintf("Status %s", d.Decision.Status)
	if d.Decision.Owner != "" {
		sum += ", owner " + d.Decision.Owner
	}
	if d.Decision.DueDate != nil {
		sum += ", due " + *d.Decision.DueDate
	}
	if len(d.Changed) > 0 && d.Change != "created" {
		sum += ". Changed: " + strings.Join(d.Changed, ", ")
	}
	return Card{Context: "Decision " + d.Change, Title: d.Decision.Title, Summary: sum + ".",
		Links: links(Link{"Open in RegPulse", d.Decision.URL})}
}

// DueCard is what a chat channel shows of obligation.due.
func DueCard(d ObligationDueData) Card {
	ctx := "Due on " + d.DueDate
	if d.Kind == Overdue {
		ctx = "Overdue since " + d.DueDate
	}
	sum := "Status " + d.Decision.Status
	if d.Decision.Owner != "" {
		sum += ", owner " + d.Decision.Owner
	}
	return Card{Context: ctx, Title: d.Decision.Title, Summary: sum + ".", Links: links(Link{"Open in RegPulse", d.URL})}
}

// rank orders impact levels (unknown lowest).
func rank(level string) int {
	return slices.Index([]string{"low", "medium", "high"}, level)
}

// links keeps the links that have a URL.
func links(ls ...Link) []Link {
	var out []Link
	for _, l := range ls {
		if l.URL != "" {
			out = append(out, l)
		}
	}
	return out
}
