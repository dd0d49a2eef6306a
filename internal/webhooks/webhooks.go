// Package webhooks is what an organisation's systems and chat channels
// are told (issue 47): the events, the endpoints that want them (a signed
// webhook, a Slack incoming webhook, a Microsoft Teams Workflows
// webhook), each delivery of an event to an endpoint and its attempts,
// the Standard Webhooks 1.0 signature (sign.go), the addresses an
// endpoint may have (address.go), each event's data (data.go), the chat
// messages (chat.go), and the
// engine that sends the deliveries (deliver.go: the schedule and the
// store it needs; send.go: the HTTP sender; run.go: a run; notify.go:
// the admins' e-mail when an endpoint is turned off). It
// holds no SQL (internal/store keeps the tables) and no HTTP handler
// (api/webhooks.go).
//
// An event is published once, in the transaction of the change it tells
// (store's publishTx), with a delivery row per endpoint that wants it;
// the sender claims due deliveries, sends, and records each attempt. A
// webhook is delivered at least once, every attempt with the same
// webhook-id (the event's ID), so a receiver drops repeats; a chat
// message, which a person reads and no receiver can drop, is sent at
// most once, as an e-mail is: a claim a crash left behind is not sent
// again.
package webhooks

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// EventType is what happened.
type EventType string

// The events an endpoint may want.
const (
	// CircularPublished: a circular new to RegPulse.
	CircularPublished EventType = "circular.published"
	// CircularRevised: a circular already published changed (its text,
	// its dates, its facts).
	CircularRevised EventType = "circular.revised"
	// DirectionChanged: a Master Direction has a new version.
	DirectionChanged EventType = "direction.changed"
	// AlertMatched: a new circular matched an alert (an alert's channel),
	// or concerns the organisation's kinds of business (its events).
	AlertMatched EventType = "alert.matched"
	// ObligationDue: a decision of the organisation's falls due within
	// the reminders' horizon, or is overdue.
	ObligationDue EventType = "obligation.due"
	// DecisionChanged: a decision of the organisation's was made,
	// changed or reassigned.
	DecisionChanged EventType = "decision.changed"
	// Test is the test event an admin sends from the delivery log; never
	// subscribed to, delivered to the one endpoint asked.
	Test EventType = "webhook.test"
)

// EventTypes are the events an endpoint may subscribe to, in the order
// forms list them.
var EventTypes = []EventType{CircularPublished, CircularRevised, DirectionChanged, AlertMatched, ObligationDue, DecisionChanged}

// Kind is where an endpoint's deliveries go and in what shape.
type Kind string

const (
	// KindWebhook: the event's JSON, signed per Standard Webhooks 1.0.
	KindWebhook Kind = "webhook"
	// KindSlack: a Slack incoming webhook, the event as Block Kit.
	KindSlack Kind = "slack"
	// KindTeams: a Microsoft Teams Workflows webhook, the event as an
	// Adaptive Card.
	KindTeams Kind = "teams"
)

// Kinds are the endpoints' kinds.
var Kinds = []Kind{KindWebhook, KindSlack, KindTeams}

// AtLeastOnce says whether a delivery claimed and never finished (the
// sender crashed) is sent again: a webhook's receiver drops a repeat by
// its webhook-id; a chat channel's reader cannot.
func (k Kind) AtLeastOnce() bool { return k == KindWebhook }

// Event is one thing that happened, for one organisation (or one
// alert's channels). Its ID is the webhook-id of every delivery of it.
type Event struct {
	// ID is "msg_" and a UUID; the same for every attempt and resend.
	ID   string    `json:"id"`
	Type EventType `json:"type"`
	// OrganisationID is whose event it is; empty for an alert's own.
	OrganisationID string `json:"organisationId,omitempty"`
	// AlertID names the alert whose channels alone get it (an alert's
	// match); empty for an organisation's events.
	AlertID string `json:"-"`
	// Key makes publishing idempotent: an event with the key of one
	// already published for the same organisation (or alert) is not
	// published again (a rerun of the job that found it, a retried
	// request). Its ID is derived from it (NewEvent).
	Key       string    `json:"-"`
	Timestamp time.Time `json:"timestamp"`
	// Data is the event's own JSON object, per type: data.go's types
	// (CircularEventData, DirectionChangedData, AlertMatchedData,
	// DecisionChangedData, ObligationDueData) document each.
	Data json.RawMessage `json:"data"`
	// Card is what a chat channel shows of it.
	Card Card `json:"-"`
}

// eventSpace names the events' IDs (UUIDv5 of the owner and the key).
var eventSpace = uuid.MustParse("5f0c6a52-8c47-4d2b-9a3e-7e3b7e1d2a47")

// NewEvent is an event of type t for an organisation (orgID) or an
// alert's channels (alertID), with key, its data encoded, at now. Its ID
// is derived from the owner, type and key, so the same event found twice
// has one ID.
func NewEvent(t EventType, orgID, alertID, key string, data any, card Card, now time.Time) (Event, error) {
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, err
	}
	return Event{
		ID:             "msg_" + uuid.NewSHA1(eventSpace, []byte(orgID+"\x00"+alertID+"\x00"+string(t)+"\x00"+key)).String(),
		Type:           t,
		OrganisationID: orgID,
		AlertID:        alertID,
		Key:            key,
		Timestamp:      now.UTC().Truncate(time.Second),
		Data:           raw,
		Card:           card,
	}, nil
}

// Payload is the body a webhook receives: the event's type, timestamp
// and data, as Standard Webhooks recommends.
func (e Event) Payload() ([]byte, error) {
	return json.Marshal(struct {
		Type      EventType       `json:"type"`
		Timestamp string          `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}{e.Type, e.Timestamp.UTC().Format(time.RFC3339), e.Data})
}

// Card is what a chat message shows of an event: a title, the regulator,
// the impact for the organisation's (or the alert's) kinds of business, a
// summary and links.
type Card struct {
	Title     string `json:"title"`
	Regulator string `json:"regulator,omitempty"`
	// Impact is the level (low, medium, high) for the kinds of business
	// named in ImpactFor; empty when the event has none.
	Impact    string `json:"impact,omitempty"`
	ImpactFor string `json:"impactFor,omitempty"`
	Summary   string `json:"summary,omitempty"`
	// Context is one line above the title: what happened ("New circular",
	// "Master Direction changed", "Due in 3 days").
	Context string `json:"context,omitempty"`
	Links   []Link `json:"links,omitempty"`
}

// Link is a link a chat message offers.
type Link struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Endpoint is where an organisation's (or an alert's) events go.
type Endpoint struct {
	ID             string `json:"id"`
	OrganisationID string `json:"organisationId,omitempty"`
	// AlertID is the alert whose channel this is (then OrganisationID is
	// empty and Events is [alert.matched]).
	AlertID     string      `json:"alertId,omitempty"`
	Kind        Kind        `json:"kind"`
	URL         string      `json:"url"`
	Description string      `json:"description"`
	Events      []EventType `json:"events"`
	// Secret signs a webhook's deliveries ("whsec_" and base64); shown
	// when made or rotated only.
	Secret  string `json:"-"`
	Enabled bool   `json:"enabled"`
	// DisabledReason says why the sender turned it off (empty: an
	// admin did, or it is on).
	DisabledReason string `json:"disabledReason"`
	// Failures counts the deliveries in a row that failed for good;
	// FailingSince is when the first of them was attempted.
	Failures     int        `json:"failures"`
	FailingSince *time.Time `json:"failingSince"`
	CreatedBy    string     `json:"createdBy"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
}

// Status is a delivery's state.
type Status string

const (
	// Pending: waiting for its next attempt (NextAttemptAt).
	Pending Status = "pending"
	// Sending: claimed by a sender until ClaimedUntil.
	Sending Status = "sending"
	// Delivered: a 2xx answer.
	Delivered Status = "delivered"
	// Failed: retried for the retry window without a 2xx, refused for
	// good, or its endpoint turned off.
	Failed Status = "failed"
	// Unknown: a chat message whose sender crashed mid-send; not sent
	// again (it may have arrived).
	Unknown Status = "unknown"
)

// Delivery is one event to one endpoint.
type Delivery struct {
	ID            string     `json:"id"`
	EndpointID    string     `json:"endpointId"`
	EventID       string     `json:"eventId"`
	EventType     EventType  `json:"eventType"`
	Status        Status     `json:"status"`
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	// LastAttempt is the newest attempt, nil before the first.
	LastAttempt *Attempt `json:"lastAttempt"`
}

// Attempt is one request of a delivery and what came back.
type Attempt struct {
	N          int       `json:"n"`
	At         time.Time `json:"at"`
	DurationMS int       `json:"durationMs"`
	// StatusCode is the HTTP status answered; 0 when none came (Error
	// says why).
	StatusCode int `json:"statusCode"`
	// Response is the start of the body answered (at most ResponseKept
	// bytes, as text).
	Response string `json:"response"`
	Error    string `json:"error"`
}

// ResponseKept is how much of a response an attempt keeps.
const ResponseKept = 2048
