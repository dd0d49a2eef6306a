// Package alerts e-mails what is new: a user's preferences and saved
// searches, and anonymous subscriptions to a search. It holds the alert
// type, the index that matches new circulars against every alert, the
// e-mails (rendered here, sent with package mail), the
// schedule and the signed links. It holds no SQL and no HTTP.
package alerts

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
)

// Alert is one thing a person asked to be told about: the circulars that
// pass its filters, e-mailed at its frequency.
type Alert struct {
	ID string `json:"id"`
	// Kind is preferences (the user's profile preferences, one per user:
	// its filters and on/off are the preferences') or search (a saved
	// search or an anonymous subscription).
	Kind  string `json:"kind" enum:"AlertKind"`
	Name  string `json:"name"`
	Query string `json:"query"` // "" for none: every circular passing the filters
	Filters
	// EntityTypes are the kinds of business the alert is for (the user's
	// "Your business"): circulars naming none of them are left out, and
	// the impact level is the one for them.
	EntityTypes []string   `json:"entityTypes"`
	Frequency   string     `json:"frequency" enum:"AlertFrequency"`
	Enabled     bool       `json:"enabled"`
	FeedToken   string     `json:"feedToken"` // the private Atom feed's secret
	CreatedAt   time.Time  `json:"createdAt"`
	LastSentAt  *time.Time `json:"lastSentAt"`
	// Description says in one line what the alert sends and how often
	// (Describe), for pages to show as it is.
	Description string `json:"description"`
	// ChannelKind is the chat channel the alert's matches are also posted
	// to at once (slack or teams; "" none), ChannelURL its incoming
	// webhook (issue 47: a webhook_endpoints row of the alert's).
	ChannelKind string `json:"channelKind"`
	ChannelURL  string `json:"channelUrl"`

	// Business are the user's entity types, which the e-mails judge
	// impact for (a preferences alert's EntityTypes too).
	Business  []string `json:"-"`
	UserID    string   `json:"-"` // "" for an anonymous subscription
	Email     string   `json:"-"` // where it is sent: the user's address or the subscription's
	Confirmed bool     `json:"-"`
	Folded    bool     `json:"-"`
	// Language is the language of the alert's e-mails (i18n.Languages'
	// codes; "": English): its user's (users.language), or an anonymous
	// subscription's own (the page it was made on).
	Language string `json:"-"`
}

// Filters are what a circular must be to pass an alert: of one of the
// sources, categories, document types and impact levels listed (an empty
// list: any). An alert has them, and so do the calls that make one.
type Filters struct {
	Sources       []string `json:"sources"`
	Categories    []string `json:"categories"`
	DocumentTypes []string `json:"documentTypes"`
	ImpactLevels  []string `json:"impactLevels"`
}

// The kinds of alert.
const (
	KindPreferences = "preferences"
	KindSearch      = "search"
)

// Kinds are the alerts' kinds.
var Kinds = []string{KindPreferences, KindSearch}

// The frequencies: each match at once, or a digest of the day or week.
const (
	Immediately = "immediately"
	Daily       = "daily"
	Weekly      = "weekly"
)

// Frequencies are the alerts' frequencies, in the order forms list them.
var Frequencies = []string{Immediately, Daily, Weekly}

// FrequencyLabels name each frequency as forms and e-mails show it.
var FrequencyLabels = map[string]string{Immediately: "Immediately", Daily: "Daily digest", Weekly: "Weekly digest"}

// The values the filters take: the regulators (the search's and the
// preferences' sources), the categories, the document types, the impact
// levels and entity types.
var (
	FilterSources       = catalog.Regulators
	FilterCategories    = catalog.CircularCategories
	FilterDocumentTypes = catalog.DocumentTypes
	FilterImpactLevels  = catalog.ImpactLevels
	FilterEntityTypes   = catalog.EntityTypes
)

// Errors a store returns.
var (
	// ErrNoAlert: no alert has that id, or it is someone else's.
	ErrNoAlert = errors.New("no such alert")
	// ErrPreferencesAlert: the preferences' alert is changed through the
	// preferences, and cannot be deleted (turn it off instead).
	ErrPreferencesAlert = errors.New("the alert of your preferences follows them: change the preferences or turn the alert off")
)

// Level is c's impact level for the entity types: the highest the
// circular gives any of them, else (it names none of them, or types is
// empty) its overall level.
func Level(c catalog.Circular, types []string) string {
	best := -1
	for _, ei := range c.EntityImpact {
		if slices.Contains(types, ei.EntityType) {
			if i := slices.Index(catalog.ImpactLevels, ei.ImpactLevel); i >= 0 && (best < 0 || i < best) {
				best = i
			}
		}
	}
	if best < 0 {
		return c.ImpactLevel
	}
	return catalog.ImpactLevels[best]
}

// concerns reports whether c is for one of types: it names one of them,
// or names no entity type at all (it is for everyone).
func concerns(c catalog.Circular, types []string) bool {
	if len(types) == 0 || len(c.EntityImpact) == 0 {
		return true
	}
	for _, ei := range c.EntityImpact {
		if slices.Contains(types, ei.EntityType) {
			return true
		}
	}
	return false
}

// Passes reports whether c passes a's filters, the query aside.
func (a *Alert) Passes(c catalog.Circular) bool {
	in := func(list []string, v string) bool { return len(list) == 0 || slices.Contains(list, v) }
	return in(a.Sources, c.Source) && in(a.Categories, c.Category) && in(a.DocumentTypes, c.DocumentType) &&
		concerns(c, a.EntityTypes) && in(a.ImpactLevels, Level(c, a.EntityTypes))
}

// Arrival is a circular as it reached the store.
type Arrival struct {
	Circular catalog.Circular
	At       time.Time
}

// Match is one (alert, circular) pair to deliver.
type Match struct {
	AlertID, CircularID string
}

// Waiting is an alert with matches waiting to be sent, and how many
// immediate e-mails it sent since the start of the day (UTC).
type Waiting struct {
	Alert     Alert
	SentSince int
}

// BounceAfter is how many permanent refusals in a row make an address
// bouncing: skipped until it is cleared.
const BounceAfter = 3

// Address is an address a server refused.
type Address struct {
	Email     string
	Failures  int
	Bouncing  bool
	LastError string
	UpdatedAt time.Time
}

// Stats are the CLI's counts: alerts by "kind/frequency" (with " (off)"
// for those that cannot send), matches waiting, e-mails by status; and
// the Master Directions followed: the follows, the versions waiting to
// be sent to them, their e-mails by status; and the decisions'
// reminders (teammail) by status, which the same runs send.
type Stats struct {
	Alerts  map[string]int
	Waiting int
	Sends   map[string]int

	Follows, FollowsWaiting int
	FollowSends             map[string]int

	ReminderSends map[string]int

	// DeadlineReminders are the comment deadlines' reminders
	// (reminders.go) by status.
	DeadlineReminders map[string]int
}

// Describe says in one line what a sends and how often, e.g. "A daily
// digest (from 07:00 UTC) of new circulars matching "upi fraud" from
// RBI; high impact."
func (a *Alert) Describe() string {
	var b strings.Builder
	switch a.Frequency {
	case Immediately:
		b.WriteString("An e-mail as soon as a new circular")
	case Weekly:
		b.WriteString("A weekly digest (Mondays from 07:00 UTC) of new circulars")
	default:
		b.WriteString("A daily digest (from 07:00 UTC) of new circulars")
	}
	if a.Query != "" {
		fmt.Fprintf(&b, " matching %q", a.Query)
	}
	part := func(prefix string, l []string, suffix string) {
		if len(l) > 0 {
			b.WriteString(prefix + strings.Join(l, ", ") + suffix)
		}
	}
	part(" from ", a.Sources, "")
	part(" in ", a.Categories, "")
	if len(a.DocumentTypes) > 0 {
		labels := make([]string, len(a.DocumentTypes))
		for i, t := range a.DocumentTypes {
			labels[i] = catalog.DocumentTypeLabel(t)
		}
		part(" of type ", labels, "")
	}
	part(" of ", a.ImpactLevels, " impact")
	part(" for ", a.EntityTypes, "")
	if a.Frequency == Immediately {
		b.WriteString(" arrives")
	}
	if a.Query == "" && len(a.Sources)+len(a.Categories)+len(a.DocumentTypes)+len(a.ImpactLevels)+len(a.EntityTypes) == 0 {
		b.WriteString(" (every new circular)")
	}
	b.WriteString(".")
	return b.String()
}
