// Package newsletter is RegPulse's monthly newsletter: the subscriber type
// the store keeps and the API writes, the topics a subscriber chooses, the
// signed unsubscribe tokens, and the monthly digest (rendering, and
// sending with package mail, once per subscriber and month). It holds no
// SQL and no HTTP.
package newsletter

import (
	"errors"
	"time"
)

// Subscriber is one address on the newsletter's list. The address is
// unique whatever its case; an unsubscribed address stays, inactive, so
// re-subscribing re-activates it.
type Subscriber struct {
	ID           string    `json:"id"` // a random UUID
	Email        string    `json:"email"`
	FirstName    string    `json:"firstName"`
	LastName     string    `json:"lastName"`
	SubscribedAt time.Time `json:"subscribedAt"`
	IsActive     bool      `json:"isActive"`
	Preferences  []string  `json:"preferences"` // topic ids (Topics)
	Source       string    `json:"source" enum:"NewsletterSource"`
	// Language is the language of the subscriber's e-mails: the page's
	// they subscribed on (i18n.Languages' codes).
	Language string `json:"language" enum:"Language"`
}

// Signup is a subscription request, checked by the caller.
type Signup struct {
	Email, FirstName, LastName string
	Preferences                []string // nil: DefaultTopics
	Source                     string   // "": SourceWebsite
	Language                   string   // "": English
}

// The topics a subscriber may choose: their ids and the labels forms show.
const (
	TopicRegulatory = "regulatory"
	TopicPayments   = "payments"
	TopicFintech    = "fintech"
	TopicEvents     = "events"
	TopicCompliance = "compliance"
)

// Topics are the topic ids, in the order forms list them.
var Topics = []string{TopicRegulatory, TopicPayments, TopicFintech, TopicEvents, TopicCompliance}

// TopicLabels names each topic as forms and the digest show it.
var TopicLabels = map[string]string{
	TopicRegulatory: "Regulatory Updates",
	TopicPayments:   "Payment Systems",
	TopicFintech:    "Fintech Industry News",
	TopicEvents:     "Industry Events",
	TopicCompliance: "Compliance Insights",
}

// DefaultTopics are a signup's topics when it names none.
var DefaultTopics = []string{TopicRegulatory, TopicPayments}

// Where a signup came from: the footer form on every page, the
// dashboard's compact form, the newsletter page.
const (
	SourceWebsite   = "website"
	SourceDashboard = "dashboard"
	SourcePage      = "newsletter-page"
)

// Sources are the allowed sources.
var Sources = []string{SourceWebsite, SourceDashboard, SourcePage}

// What a signup did to the list.
const (
	StatusSubscribed  = "subscribed"  // a new address
	StatusUpdated     = "updated"     // an active address: names and topics replaced
	StatusReactivated = "reactivated" // an inactive address, active again
)

// Statuses are the outcomes of a signup.
var Statuses = []string{StatusSubscribed, StatusUpdated, StatusReactivated}

// ErrNoSubscriber is a store's answer for an id it does not hold.
var ErrNoSubscriber = errors.New("no such subscriber")
