package jobs

import (
	"context"
	"strconv"
	"time"

	"regpulse/internal/mail"
	"regpulse/internal/webhooks"
)

// WebhooksSchedule: every minute, the cron's finest; a function's run
// sends for up to FunctionBudget. serve runs it more often
// (--webhooks-every, 5 s by default), so a webhook's first attempts
// follow the schedule's 5 s closely there; on a static host the first
// retry waits for the next minute's tick.
const WebhooksSchedule = "* * * * *"

// WebhooksAllowLoopbackEnv, when true, lets endpoints be http and on
// loopback (tests, local development). Private ranges stay refused.
const WebhooksAllowLoopbackEnv = webhooks.AllowLoopbackEnv

// WebhooksEnv is the webhooks' run's settings beside the environment's.
type WebhooksEnv struct {
	// Sender is the sender serve keeps between runs (its connections);
	// nil: one made for the run, under Policy and Schedule.
	Sender *webhooks.Sender
	// AllowLoopback allows loopback endpoints even when
	// $REGPULSE_WEBHOOKS_ALLOW_LOOPBACK is unset.
	AllowLoopback bool
	// Schedule is the retries' (nil: webhooks.DefaultSchedule).
	Schedule webhooks.Schedule
	// Budget is how long a run claims new deliveries (0: FunctionBudget).
	Budget time.Duration
}

// WebhooksPolicy is the endpoints' address policy of an environment:
// loopback allowed when getenv's $REGPULSE_WEBHOOKS_ALLOW_LOOPBACK is
// true.
func WebhooksPolicy(getenv func(string) string) webhooks.AddressPolicy {
	on, _ := strconv.ParseBool(getenv(WebhooksAllowLoopbackEnv))
	return webhooks.AddressPolicy{AllowLoopback: on}
}

// WebhooksSender is the sender of an environment's runs.
func (e Env) WebhooksSender() *webhooks.Sender {
	if e.Webhooks.Sender != nil {
		return e.Webhooks.Sender
	}
	p := WebhooksPolicy(e.getenv)
	p.AllowLoopback = p.AllowLoopback || e.Webhooks.AllowLoopback
	s := webhooks.NewSender(p, e.Webhooks.Schedule)
	s.Now = e.Now
	return s
}

// Webhooks is one run of the webhooks' sender (serve's --webhooks-every,
// the regpulse-webhooks function): the deliveries due sent, retried on
// the schedule, the log pruned; an endpoint turned off is told to its
// admins by e-mail, through $SMTP_URL when set, else .eml files in the
// outbox's webhooks/. Claims with a lease make overlapping runs send each
// delivery once.
func Webhooks(ctx context.Context, env Env) (webhooks.Report, error) {
	budget := env.Webhooks.Budget
	if budget <= 0 {
		budget = FunctionBudget
	}
	o := webhooks.Options{Budget: budget, Log: env.log(), Now: env.Now, Notifier: disabledNotifier{env}}
	return webhooks.Run(ctx, env.DB, env.WebhooksSender(), o)
}

// disabledNotifier e-mails the admins of an endpoint turned off, its
// mailer made when one is (rarely: most runs turn none off).
type disabledNotifier struct{ env Env }

func (n disabledNotifier) Disabled(ctx context.Context, d webhooks.Disabled, to []webhooks.Recipient) error {
	m, err := n.env.webhooksMailer()
	if err != nil {
		return err
	}
	return m.Disabled(ctx, d, to)
}

// webhooksMailer tells the admins of an endpoint turned off.
func (e Env) webhooksMailer() (*webhooks.Mailer, error) {
	site, err := mail.ParseSite(e.BaseURL)
	if err != nil {
		return nil, err
	}
	from := e.Mail.From
	if from == "" {
		from = AlertsFrom
	}
	snd, err := mail.NewSender(from, "")
	if err != nil {
		return nil, err
	}
	if _, err := e.transport("webhooks"); err != nil {
		return nil, err
	}
	return &webhooks.Mailer{Sender: snd, Site: site, Now: e.Now, Transport: func() (mail.Transport, error) { return e.transport("webhooks") }}, nil
}
