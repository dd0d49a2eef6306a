package webhooks

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// What an admin may set on an organisation's endpoints (issue 47's
// management: internal/store's webhook_endpoints.go keeps them,
// api/webhooks.go checks requests with these).

// MaxEndpoints is how many endpoints an organisation may have: enough
// for a GRC tool, a SIEM and a few channels, few enough that one event
// never fans out into a queue of its own.
const MaxEndpoints = 20

// Errors of the management of endpoints.
var (
	// ErrTooManyEndpoints: the organisation has MaxEndpoints already.
	ErrTooManyEndpoints = fmt.Errorf("webhooks: an organisation has at most %d endpoints", MaxEndpoints)
	// ErrNoSecret: a chat channel has no secret to rotate (its URL is
	// its only credential).
	ErrNoSecret = errors.New("webhooks: only a webhook has a signing secret")
	// ErrBusy: a delivery being sent right now cannot be resent.
	ErrBusy = errors.New("webhooks: the delivery is being sent; resend it once the attempt is over")
)

// CheckKind says whether k is an endpoint's kind.
func CheckKind(k Kind) error {
	if !slices.Contains(Kinds, k) {
		return errors.New("choose webhook, slack or teams")
	}
	return nil
}

// CheckEvents says whether evs is a list an endpoint may want: at least
// one, each of EventTypes, none twice.
func CheckEvents(evs []EventType) error {
	if len(evs) == 0 {
		return errors.New("choose at least one event")
	}
	for i, e := range evs {
		if !slices.Contains(EventTypes, e) {
			return fmt.Errorf("%q is not an event an endpoint may want", e)
		}
		if slices.Contains(evs[:i], e) {
			return fmt.Errorf("%q is named twice", e)
		}
	}
	return nil
}

// CheckEndpointURL checks the URL of an endpoint of kind k: CheckURL
// for every kind, and for a chat channel its service's own address. A
// Slack incoming webhook is always https://hooks.slack.com/services/…
// (Slack's documentation of incoming webhooks), and a Teams channel now
// takes a Workflows ("Post to a channel when a webhook request is
// received") URL, served by Azure Logic Apps (…logic.azure.com) or Power
// Platform (…powerplatform.com); the retired Office 365 connector URLs
// (…webhook.office.com) stop working, so they are refused with that
// reason. Pinning the hosts keeps a channel from being pointed anywhere
// else under a chat kind, whose messages are not signed. A loopback
// address stays allowed when the policy allows it (stand-in receivers
// in tests).
func (p AddressPolicy) CheckEndpointURL(k Kind, raw string) error {
	if err := p.CheckURL(raw); err != nil {
		return err
	}
	u, _ := url.Parse(raw) // CheckURL parsed it
	host := strings.ToLower(u.Hostname())
	if p.AllowLoopback && isLoopbackHost(host) {
		return nil
	}
	switch k {
	case KindSlack:
		if u.Scheme != "https" || host != "hooks.slack.com" || !strings.HasPrefix(u.Path, "/services/") {
			return errors.New("a Slack incoming webhook URL starts https://hooks.slack.com/services/")
		}
	case KindTeams:
		switch {
		case strings.HasSuffix(host, ".webhook.office.com") || host == "outlook.office.com":
			return errors.New("office 365 connectors are retired: use a Workflows webhook URL (…logic.azure.com or …powerplatform.com)")
		case u.Scheme != "https" || !(strings.HasSuffix(host, ".logic.azure.com") || strings.HasSuffix(host, ".powerplatform.com")):
			return errors.New("a Teams Workflows webhook URL is https on a host ending .logic.azure.com or .powerplatform.com")
		}
	}
	return nil
}

// LogEntry is a delivery as its endpoint's log shows it: the delivery
// and every attempt of it, oldest first.
type LogEntry struct {
	Delivery
	// History is each attempt, the first first.
	History []Attempt `json:"history"`
}

// TestEvent is the webhook.test event an admin sends to endpoint
// endpointID of organisation orgID at now: an event of its own each
// time (its key the endpoint and a random UUID), so two tests, even at
// one instant, are two deliveries. settings is the absolute URL of the
// organisation's webhook settings, the card's link as a real event's
// card links its page.
func TestEvent(orgID, endpointID, settings string, now time.Time) (Event, error) {
	return NewEvent(Test, orgID, "", endpointID+"\x00"+uuid.NewString(),
		map[string]string{"endpointId": endpointID, "message": "A test event from RegPulse: this endpoint receives its organisation's events.", "url": settings},
		Card{Context: "Test event", Title: "RegPulse test message",
			Summary: "This channel receives the organisation's RegPulse events. No action is needed.",
			Links:   []Link{{Title: "Webhook settings", URL: settings}}}, now)
}
