package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"regpulse/internal/metrics"
)

// Options are a run's settings; zero values take the defaults.
type Options struct {
	// Workers is how many deliveries are sent at once (default 32).
	Workers int
	// Batch is how many deliveries a claim takes (default 4 × Workers).
	Batch int
	// Lease is how long a claim holds (default 2 min): past it, a sender
	// that has not finished is taken for dead.
	Lease time.Duration
	// Budget is how long a run claims new deliveries (default 50 s: a
	// run a minute).
	Budget time.Duration
	// Notifier tells the admins of an endpoint turned off (nil: nobody,
	// the log says it).
	Notifier Notifier
	Log      *slog.Logger
	// Now is the clock of the claims and the budget (nil: time.Now).
	Now func() time.Time
}

// Notifier tells the people of an endpoint turned off, once.
type Notifier interface {
	Disabled(ctx context.Context, d Disabled, to []Recipient) error
}

// Report is what a run did.
type Report struct {
	Delivered, Retried, Failed int
	// Disabled are the endpoints turned off.
	Disabled []Disabled
	Pruned   int
}

func (r Report) String() string {
	return fmt.Sprintf("webhooks: %d delivered, %d to retry, %d failed, %d endpoint(s) turned off, %d old event(s) pruned",
		r.Delivered, r.Retried, r.Failed, len(r.Disabled), r.Pruned)
}

func (o *Options) defaults() {
	if o.Workers <= 0 {
		o.Workers = 32
	}
	if o.Batch <= 0 {
		o.Batch = 4 * o.Workers
	}
	if o.Lease <= 0 {
		o.Lease = 2 * time.Minute
	}
	if o.Budget <= 0 {
		o.Budget = 50 * time.Second
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
}

// finishEvery is how many results are finished in one transaction.
const finishEvery = 64

// Run sends what is due: it prunes the log past RetentionDays, then
// claims batches and sends them (Workers at once), finishing the results
// in transactions of up to finishEvery, until nothing is due or Budget
// has passed since it started; then it tells the admins of the
// endpoints it turned off.
func Run(ctx context.Context, st Store, s *Sender, o Options) (Report, error) {
	o.defaults()
	var rep Report
	start := o.Now()
	pruned, err := st.PruneWebhooks(ctx, start.AddDate(0, 0, -RetentionDays))
	if err != nil {
		return rep, err
	}
	rep.Pruned = pruned

	results := make(chan Result, o.Batch)
	var finishErr error
	finished := make(chan struct{})
	go func() { // the finisher: results in batches, one transaction each
		defer close(finished)
		var batch []Result
		flush := func() {
			if len(batch) == 0 || finishErr != nil {
				batch = batch[:0]
				return
			}
			// Finishing outlives a cancelled run: what was sent is recorded.
			ds, err := st.FinishDeliveries(context.WithoutCancel(ctx), batch)
			if err != nil {
				finishErr = err
			}
			for _, r := range batch {
				outcome := "failed"
				switch r.Status {
				case Delivered:
					rep.Delivered++
					outcome = "delivered"
				case Pending:
					rep.Retried++
					outcome = "retried"
				default:
					rep.Failed++
				}
				metrics.WebhookDeliveries.WithLabelValues(string(r.Kind), outcome).Inc()
			}
			rep.Disabled = append(rep.Disabled, ds...)
			batch = batch[:0]
		}
		for r := range results {
			batch = append(batch, r)
			if len(batch) >= finishEvery || len(results) == 0 {
				flush()
			}
		}
		flush()
	}()

	sem := make(chan struct{}, o.Workers)
	var wg sync.WaitGroup
	var claimErr error
	for ctx.Err() == nil && o.Now().Sub(start) < o.Budget {
		ds, err := st.ClaimDeliveries(ctx, o.Now(), o.Lease, o.Batch)
		if err != nil {
			claimErr = err
			break
		}
		if len(ds) == 0 {
			break
		}
		for _, d := range ds {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				results <- s.Send(ctx, d)
			})
		}
		if len(ds) < o.Batch {
			break // all that was due is claimed
		}
	}
	wg.Wait()
	close(results)
	<-finished
	for _, d := range rep.Disabled {
		o.Log.Warn("webhook endpoint turned off", "endpoint", d.Endpoint.ID, "organisation", d.Endpoint.OrganisationID,
			"alert", d.Endpoint.AlertID, "reason", d.Reason)
		if o.Notifier == nil {
			continue
		}
		to, err := st.DisabledRecipients(ctx, d)
		if err == nil {
			err = o.Notifier.Disabled(ctx, d, to)
		}
		if err != nil {
			o.Log.Error("telling of a webhook endpoint turned off failed", "endpoint", d.Endpoint.ID, "err", err)
		}
	}
	if claimErr != nil {
		return rep, claimErr
	}
	return rep, finishErr
}
