package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/metrics"
)

// Store is what the alerts' runs need from persistence.
type Store interface {
	ActiveAlerts(ctx context.Context) ([]Alert, error)
	// Arrivals are circulars that reached the store and are not matched yet.
	Arrivals(ctx context.Context, limit int) ([]Arrival, error)
	RecordMatches(ctx context.Context, arrivals []Arrival, ms []Match) error
	Waiting(ctx context.Context, since time.Time) ([]Waiting, error)
	// ClaimSend takes the alert's waiting matches into one e-mail; "" when
	// another sender took them. messageID's {send} is the e-mail's id.
	ClaimSend(ctx context.Context, alertID, email, kind, messageID string) (string, []catalog.Circular, error)
	FinishSend(ctx context.Context, sendID, email, failure string, permanent bool) error
	SetFolded(ctx context.Context, alertID string, folded bool) error
	Unconfirmed(ctx context.Context) ([]Alert, error)
	MarkConfirmationSent(ctx context.Context, id string) (bool, error)
	ClaimAlertRun(ctx context.Context, key, holder string, lease time.Duration) (bool, error)
	FinishAlertRun(ctx context.Context, key string) error
	ReleaseAlertRun(ctx context.Context, key, holder string) error

	// MatchFollows turns the versions that arrived into one delivery per
	// follower of their direction, and answers how many.
	MatchFollows(ctx context.Context) (int, error)
	// FollowsWaiting are the follows with versions waiting to be sent.
	FollowsWaiting(ctx context.Context) ([]Follow, error)
	// ClaimFollowSend takes the follow's waiting versions into one
	// e-mail, as ClaimSend; FinishFollowSend ends it, as FinishSend.
	ClaimFollowSend(ctx context.Context, followID, email, messageID string) (string, []catalog.DirectionVersion, error)
	FinishFollowSend(ctx context.Context, sendID, email, failure string, permanent bool) error
	Direction(ctx context.Context, slug string) (catalog.MasterDirection, error)
	DirectionBetween(ctx context.Context, slug string, from, to catalog.Date) (catalog.MasterDirection, error)
	CircularRefs(ctx context.Context, slugs []string) (map[string]catalog.CircularRef, error)

	// ConsultationsClosing are the circulars whose comments are due
	// between two days (both included), by deadline (reminders.go).
	ConsultationsClosing(ctx context.Context, from, to catalog.Date) ([]catalog.Circular, error)
	// ClaimReminder takes one (alert, circular, reminder) into a new
	// e-mail, as ClaimSend; "" when it was sent already or is being sent.
	ClaimReminder(ctx context.Context, alertID, circularID, reminder, email, messageID string) (string, error)
	FinishReminder(ctx context.Context, sendID, email, failure string, permanent bool) error
}

// DigestHour is the hour (UTC) from which the daily digests go, every
// day, and the weekly ones, on Mondays: 07:00 UTC is 12:30 in India, after
// the regulators' morning releases.
const DigestHour = 7

// DefaultFoldAfter is how many e-mails an immediate alert sends in a day
// (UTC) before the rest wait for one digest.
const DefaultFoldAfter = 10

// How long a run holds its lock: an immediate run a few minutes, a digest
// longer (100,000 e-mails take a while); a crashed holder's lease runs out.
const (
	immediateLease = 10 * time.Minute
	digestLease    = 2 * time.Hour
	arrivalsBatch  = 1000
)

// Options are a run's settings.
type Options struct {
	Links  *Links
	Tokens *Tokens
	Sender mail.Sender
	// FoldAfter caps an immediate alert's e-mails a day (0: DefaultFoldAfter).
	FoldAfter int
	// Holder names this process in the run lock.
	Holder string
	Now    func() time.Time // nil: time.Now
	Log    *slog.Logger
}

// Report counts what a run did.
type Report struct {
	Confirmations, Matched, Sent, Failed, Folded, Skipped int
	Failures                                              map[string]string // address: reason
}

func (r Report) String() string {
	return fmt.Sprintf("alerts: %d confirmations, %d matches, %d e-mails sent, %d failed, %d alerts folded, %d taken by another sender",
		r.Confirmations, r.Matched, r.Sent, r.Failed, r.Folded, r.Skipped)
}

// The outcomes a run counts, each in one place (Report.count): what
// metrics will read.
const (
	outcomeConfirmation = "confirmation"
	outcomeSent         = "sent"
	outcomeFailed       = "failed"
	outcomeFolded       = "folded"
	outcomeSkipped      = "skipped"
)

func (r *Report) count(outcome string) {
	metrics.Alerts.WithLabelValues(outcome).Inc()
	switch outcome {
	case outcomeConfirmation:
		r.Confirmations++
	case outcomeSent:
		r.Sent++
	case outcomeFailed:
		r.Failed++
	case outcomeFolded:
		r.Folded++
	case outcomeSkipped:
		r.Skipped++
	}
}

// Run does what is due at now: it sends the confirmations asked for,
// matches the circulars that arrived against every alert, sends each
// immediate alert's matches (folding an alert over its daily cap), each
// followed Master Direction's new versions to its followers, and
// from DigestHour sends the day's digests once (the weekly ones on
// Mondays) and the comment deadlines' reminders due that day, each run once across every process sharing the store. Every
// e-mail is claimed before it leaves, so a rerun, a run after a crash or
// a second sender never sends a match twice.
func Run(ctx context.Context, st Store, tr mail.Transport, o Options) (Report, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.FoldAfter <= 0 {
		o.FoldAfter = DefaultFoldAfter
	}
	r := &runner{st: st, tr: tr, o: o, rep: Report{Failures: map[string]string{}}}
	now := o.Now().UTC()
	err := r.mutex(ctx, "immediately", immediateLease, func() error {
		if err := r.confirmations(ctx); err != nil {
			return err
		}
		if err := r.match(ctx); err != nil {
			return err
		}
		if err := r.send(ctx, now, Immediately); err != nil {
			return err
		}
		return r.follows(ctx, now)
	})
	if err == nil && now.Hour() >= DigestHour {
		day := now.Format("2006-01-02")
		err = r.locked(ctx, "daily-"+day, digestLease, func() error { return r.send(ctx, now, Daily) })
		if err == nil { // the comment deadlines' reminders, once a day with the digests (reminders.go)
			err = r.locked(ctx, "comment-reminders-"+day, digestLease, func() error { return r.reminders(ctx, now) })
		}
		if err == nil && now.Weekday() == time.Monday {
			err = r.locked(ctx, "weekly-"+day, digestLease, func() error { return r.send(ctx, now, Weekly) })
		}
	}
	return r.rep, err
}

type runner struct {
	st  Store
	tr  mail.Transport
	o   Options
	rep Report
}

// locked runs f when this process gets the run key, and marks it done
// when f succeeds; a failed run is taken up again when its lease ends.
func (r *runner) locked(ctx context.Context, key string, lease time.Duration, f func() error) error {
	ok, err := r.st.ClaimAlertRun(ctx, key, r.o.Holder, lease)
	if err != nil || !ok {
		return err
	}
	if err := f(); err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	return r.st.FinishAlertRun(ctx, key)
}

// mutex runs f when this process gets key, and releases it after: one
// process at a time, any number of times.
func (r *runner) mutex(ctx context.Context, key string, lease time.Duration, f func() error) error {
	ok, err := r.st.ClaimAlertRun(ctx, key, r.o.Holder, lease)
	if err != nil || !ok {
		return err
	}
	err = f()
	// Released even when f failed or ctx ended (a crash leaves the lease
	// to run out instead).
	if rerr := r.st.ReleaseAlertRun(context.WithoutCancel(ctx), key, r.o.Holder); err == nil {
		err = rerr
	}
	return err
}

// match matches every arrival against the active alerts, a batch at a
// time; the index is built once per run.
func (r *runner) match(ctx context.Context) error {
	var x *Index
	for {
		arrivals, err := r.st.Arrivals(ctx, arrivalsBatch)
		if err != nil || len(arrivals) == 0 {
			return err
		}
		if x == nil {
			active, err := r.st.ActiveAlerts(ctx)
			if err != nil {
				return err
			}
			x = NewIndex(active)
		}
		ms := x.MatchAll(arrivals)
		if err := r.st.RecordMatches(ctx, arrivals, ms); err != nil {
			return err
		}
		r.rep.Matched += len(ms)
	}
}

// send sends the waiting matches of the alerts of frequency: the
// immediate ones at every run, folding those over the cap; the daily run
// also sends the folded ones' digest.
func (r *runner) send(ctx context.Context, now time.Time, frequency string) error {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	waiting, err := r.st.Waiting(ctx, day)
	if err != nil {
		return err
	}
	for _, w := range waiting {
		if err := ctx.Err(); err != nil {
			return err
		}
		a := w.Alert
		kind := ""
		switch {
		case a.Frequency == frequency && frequency != Immediately:
			kind = frequency
		case a.Frequency != Immediately:
		case frequency == Immediately && !a.Folded && w.SentSince >= r.o.FoldAfter:
			if err := r.st.SetFolded(ctx, a.ID, true); err != nil {
				return err
			}
			r.rep.count(outcomeFolded)
		case frequency == Immediately && !a.Folded:
			kind = Immediately
		case frequency == Daily && a.Folded:
			kind = KindFold
		}
		if kind == "" {
			continue
		}
		if err := r.sendAlert(ctx, a, kind, now); err != nil {
			return err
		}
		if kind == KindFold {
			if err := r.st.SetFolded(ctx, a.ID, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// sendAlert claims the alert's waiting matches and e-mails them. Only a
// store failure or the end of ctx stops the run; an address refused is
// recorded and the run goes on.
func (r *runner) sendAlert(ctx context.Context, a Alert, kind string, now time.Time) error {
	msgID := "alert-{send}@" + r.o.Sender.Domain
	sendID, cs, err := r.st.ClaimSend(ctx, a.ID, a.Email, kind, msgID)
	if err != nil {
		return err
	}
	if sendID == "" {
		r.rep.count(outcomeSkipped)
		return nil
	}
	if len(cs) == 0 { // every circular was removed since it matched
		return r.st.FinishSend(ctx, sendID, a.Email, "", false)
	}
	err = r.deliver(ctx, Email{Alert: a, Kind: kind, Circulars: cs, FoldAfter: r.o.FoldAfter},
		strings.ReplaceAll(msgID, "{send}", sendID), "alert-"+sendID, now)
	failure, permanent := r.outcome(err, a.Email, "alert", a.ID)
	return r.st.FinishSend(ctx, sendID, a.Email, failure, permanent)
}

// outcome counts how an e-mail to email went (err nil: sent) and says
// what to record: the failure, and whether it was permanent. A failure
// is logged with what the e-mail was of (kind, id).
func (r *runner) outcome(err error, email, kind, id string) (failure string, permanent bool) {
	if err == nil {
		r.rep.count(outcomeSent)
		return "", false
	}
	failure, permanent = err.Error(), Permanent(err)
	r.rep.count(outcomeFailed)
	r.rep.Failures[email] = failure
	r.o.Log.Warn("alerts: not delivered", kind, id, "err", err, "permanent", permanent)
	return failure, permanent
}

// deliver renders e and hands it to the transport.
func (r *runner) deliver(ctx context.Context, e Email, msgID, name string, now time.Time) error {
	rd, err := r.o.Links.Render(e)
	if err != nil {
		return err
	}
	return r.post(ctx, e.Alert.Email, rd, msgID, "RegPulse alert <alert-"+e.Alert.ID+"."+r.o.Sender.Domain+">", name, now)
}

// post builds a rendered e-mail to to, on the list listID, and hands it
// to the transport as name.
func (r *runner) post(ctx context.Context, to string, rd Rendered, msgID, listID, name string, now time.Time) error {
	m, err := r.o.Sender.Build(mail.Message{To: to, Subject: rd.Subject, MessageID: msgID, Date: now,
		ListID: listID, UnsubscribeURL: rd.UnsubscribeURL, Text: rd.Text, HTML: rd.HTML})
	if err != nil {
		return err
	}
	return r.tr.Deliver(ctx, m, name)
}

// confirmations e-mails each new anonymous subscription its
// confirmation link, once (marked before it leaves).
func (r *runner) confirmations(ctx context.Context) error {
	subs, err := r.st.Unconfirmed(ctx)
	if err != nil {
		return err
	}
	now := r.o.Now()
	for _, a := range subs {
		ok, err := r.st.MarkConfirmationSent(ctx, a.ID)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		link := r.o.Links.Confirm(a.ID, now)
		if err := r.deliver(ctx, Email{Alert: a, ConfirmURL: link}, "confirm-"+a.ID+"@"+r.o.Sender.Domain, "confirm-"+a.ID, now); err != nil {
			r.rep.count(outcomeFailed)
			r.rep.Failures[a.Email] = err.Error()
			r.o.Log.Warn("alerts: confirmation not delivered", "alert", a.ID, "err", err)
			continue
		}
		r.rep.count(outcomeConfirmation)
	}
	return nil
}

// Permanent reports whether err is a server's permanent refusal (5xx).
func Permanent(err error) bool {
	var se *gomail.SendError
	return errors.As(err, &se) && !se.IsTemp() && se.ErrorCode() >= 500
}
