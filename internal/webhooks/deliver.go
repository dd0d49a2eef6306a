package webhooks

import (
	"context"
	"time"
)

// The delivery engine (issue 47): a run claims the deliveries due
// (Store.ClaimDeliveries: a lease, so two senders never take the same
// one), sends each (Sender.Send), and finishes them (Store.Finish
// Deliveries): an attempt row each, the delivery delivered, pending
// again at its next attempt (Schedule), or failed; an endpoint failing
// for good for DisableAfter, or answering 410 Gone, is turned off and
// its admins told once (Notifier).

// Schedule is when a delivery's attempts are made: attempt n+1 (n from
// 1) at Schedule[n] after the first attempt, the first at once. Past the
// last, the delivery has failed for good.
type Schedule []time.Duration

// DefaultSchedule backs off exponentially for the 24 hours, on
// Standard Webhooks' example steps: at once, then 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h and 24 h after the first attempt.
var DefaultSchedule = Schedule{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 24 * time.Hour}

// Scale is s with every time multiplied by f (serve's
// --webhooks-retry-scale: e2e shows a day of retries in seconds).
func (s Schedule) Scale(f float64) Schedule {
	out := make(Schedule, len(s))
	for i, d := range s {
		out[i] = time.Duration(float64(d) * f)
	}
	return out
}

// Next is when attempt n+1 is due after attempt n (from 1) failed at at,
// the first attempt made at first, and a Retry-After of retryAfter (0:
// none): the schedule's time, or the receiver's later one as long as it
// stays within the schedule (before its last attempt's time); false when
// n was the last attempt. An attempt made late (a lapsed claim sent
// again, a resend) keeps the schedule's gap to the next rather than
// catching up at once.
func (s Schedule) Next(n int, first, at time.Time, retryAfter time.Duration) (time.Time, bool) {
	if n >= len(s) || n < 1 {
		return time.Time{}, false
	}
	next := first.Add(s[n])
	if next.Before(at) {
		next = at.Add(s[n] - s[n-1])
	}
	if later := at.Add(retryAfter); retryAfter > 0 && later.After(next) {
		next = later
		if last := first.Add(s[len(s)-1]); next.After(last) {
			next = last
		}
	}
	return next, true
}

// DisableAfter is how long an endpoint's deliveries may fail for good,
// with no success in between, before it is turned off: measured from
// the first attempt of the first of them to a final failure.
const DisableAfter = 24 * time.Hour

// RetentionDays is how long events, their deliveries and attempts are
// kept (the delivery log).
const RetentionDays = 30

// Due is a claimed delivery with what a sender needs.
type Due struct {
	DeliveryID string
	// N is this attempt's number (1 the first).
	N int
	// FirstAt is when attempt 1 was made; nil when this is it.
	FirstAt  *time.Time
	Endpoint Endpoint
	Event    Event
	// Payload is the webhook body as stored (and signed), byte for byte.
	Payload []byte
}

// Result is how an attempt of a delivery ended, for Store.FinishDeliveries.
type Result struct {
	DeliveryID string
	EndpointID string
	Kind       Kind
	// FirstAt is when the delivery's first attempt was made (this one's
	// At when it was the first): an endpoint's failures count from it.
	FirstAt time.Time
	Attempt Attempt
	// Status is Delivered, Pending (NextAttemptAt) or Failed.
	Status        Status
	NextAttemptAt time.Time
	// Gone: the receiver answered 410; the endpoint is turned off now.
	Gone bool
}

// Disabled is an endpoint a finish turned off: its admins are told once.
type Disabled struct {
	Endpoint Endpoint
	// OrganisationName names the organisation ("" for an alert's channel);
	// AlertName the alert ("" for an organisation's endpoint).
	OrganisationName string
	AlertName        string
	Reason           string
	At               time.Time
}

// Recipient is someone told of a disabled endpoint.
type Recipient struct {
	Email string
	Name  string
	// Language is the language of the person's e-mails ("": English).
	Language string
}

// Store is what the engine needs of the store (internal/store's *DB).
type Store interface {
	// ClaimDeliveries first turns claims whose lease lapsed back (a
	// webhook's to pending, a chat message's to unknown), then claims up
	// to limit deliveries due at now for lease.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]Due, error)
	// FinishDeliveries records the attempts and their deliveries' states
	// in one transaction, and answers the endpoints it turned off.
	FinishDeliveries(ctx context.Context, rs []Result) ([]Disabled, error)
	// PruneWebhooks deletes the events created before before, with
	// their deliveries and attempts (at most a batch per call).
	PruneWebhooks(ctx context.Context, before time.Time) (int, error)
	// DisabledRecipients is who is told that d was turned off: the
	// organisation's admins, or the alert's owner.
	DisabledRecipients(ctx context.Context, d Disabled) ([]Recipient, error)
}
