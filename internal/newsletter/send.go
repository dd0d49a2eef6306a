package newsletter

import (
	"context"
	"fmt"
	"log/slog"
	"regpulse/internal/mail"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Store is what sending needs from persistence: the list, and a record
// of each delivery so a month's digest reaches a subscriber once.
type Store interface {
	ActiveSubscribers(ctx context.Context) ([]Subscriber, error)
	// ClaimDelivery answers false when the subscriber's digest of month
	// was sent or is being sent; a failed one may be claimed again.
	ClaimDelivery(ctx context.Context, subscriberID, month, messageID string) (bool, error)
	// FinishDelivery records the end: failure "" is sent.
	FinishDelivery(ctx context.Context, subscriberID, month, failure string) error
}

// Options are a digest run's settings.
type Options struct {
	// From is the sender, e.g. "RegPulse <newsletter@regpulse.in>"; its
	// domain names the messages (Message-ID) and the unsubscribe mailbox.
	From string
	// UnsubscribeMailto is the List-Unsubscribe mailbox; "" is the
	// sender's address with subject "unsubscribe".
	UnsubscribeMailto string
	// DryRun renders and delivers (to a folder, say) without recording:
	// nothing counts as sent.
	DryRun bool
	Now    func() time.Time // the Date header's clock; nil: time.Now
	Log    *slog.Logger
}

// Report counts what a run did.
type Report struct {
	Month                 string
	Sent, Skipped, Failed int
	Failures              map[string]string // address: reason
}

func (r Report) String() string {
	return fmt.Sprintf("digest %s: %d sent, %d already sent (skipped), %d failed", r.Month, r.Sent, r.Skipped, r.Failed)
}

// Send renders the issue for every active subscriber and delivers each
// message the store has not recorded yet. One failing address (a server's
// 5xx) is recorded and the run goes on; the run stops only when the store
// fails or ctx ends. Running it again sends only what was not sent.
func Send(ctx context.Context, st Store, tr mail.Transport, rd *Renderer, o Options) (Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	snd, err := mail.NewSender(o.From, o.UnsubscribeMailto)
	if err != nil {
		return Report{}, err
	}
	month := MonthKey(rd.issue.Month)
	rep := Report{Month: month, Failures: map[string]string{}}
	subs, err := st.ActiveSubscribers(ctx)
	if err != nil {
		return rep, err
	}
	for _, sub := range subs {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		msgID := "digest-" + month + "-" + sub.ID + "@" + snd.Domain
		if !o.DryRun {
			ok, err := st.ClaimDelivery(ctx, sub.ID, month, msgID)
			if err != nil {
				return rep, err
			}
			if !ok {
				rep.Skipped++
				continue
			}
		}
		failure := ""
		m, err := buildMessage(rd, sub, snd, msgID, o.Now())
		if err == nil {
			err = tr.Deliver(ctx, m, sub.ID)
		}
		if err != nil {
			failure = err.Error()
			rep.Failed++
			rep.Failures[sub.Email] = failure
			o.Log.Warn("digest: not delivered", "month", month, "subscriber", sub.ID, "err", err)
		} else {
			rep.Sent++
		}
		if !o.DryRun {
			if err := st.FinishDelivery(ctx, sub.ID, month, failure); err != nil {
				return rep, err
			}
		}
	}
	return rep, nil
}

// buildMessage is sub's digest as a message.
func buildMessage(rd *Renderer, sub Subscriber, snd mail.Sender, msgID string, now time.Time) (*gomail.Msg, error) {
	r, err := rd.Render(sub)
	if err != nil {
		return nil, err
	}
	return snd.Build(mail.Message{ToName: strings.TrimSpace(sub.FirstName + " " + sub.LastName), To: sub.Email,
		Subject: r.Subject, MessageID: msgID, Date: now, ListID: "RegPulse monthly update <monthly." + snd.Domain + ">",
		UnsubscribeURL: r.UnsubscribeURL, Text: r.Text, HTML: r.HTML})
}
