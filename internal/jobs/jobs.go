// Package jobs is every scheduled job of the pipeline, once: ingest,
// alerts (the decisions' team reminders go in the same run), the monthly
// digest and the rebuild. Each is a Job with its name, its cron schedule
// and a Run that both deployments call: `regpulse serve` on its own
// timers, and on a static host the scheduled functions of
// cmd/regpulse-jobs (netlify.toml declares each Job's schedule; a test
// holds the two together). Runs that overlap are safe by the same locks
// in both: alerts claim their runs (alert_runs), the digest its month
// (newsletter_runs), ingest a leased mutex (job_runs), the webhooks'
// sender its deliveries (a lease each: webhooks.Store).
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/ingest"
	"regpulse/internal/mail"
	"regpulse/internal/newsletter"
	"regpulse/internal/teammail"
	"regpulse/internal/webhooks"
)

// Job is one scheduled job.
type Job struct {
	// Name is the job's name: `regpulse-jobs NAME` by hand, and its
	// function's name is Function().
	Name string
	// Schedule is when it runs on a static host: a cron expression (five
	// fields, UTC, as Netlify reads it) or a shorthand such as @daily.
	Schedule string
	// Covers names what else the run does, for the operator's docs.
	Covers string
	// Run is one run, the same for serve and for a function; its result
	// says what it did, or why it skipped (a lock held, not the day).
	Run func(ctx context.Context, env Env) (fmt.Stringer, error)
}

// Function is the job's scheduled function on the static host.
func (j Job) Function() string { return "regpulse-" + j.Name }

// Schedules. Ingest ticks every five minutes: each source's own cadence
// (ingest_sources.next_poll_at) decides whether it is polled at a tick.
// Alerts every five minutes: immediate alerts leave within five minutes
// (serve's --alerts-every can do one), the daily and weekly ones and the
// reminders from 07:00 UTC. The digest hourly on the first day of each
// month (UTC): the first tick sends it, the later ones retry a failed or
// cut-short run (newsletter.RunMonth's lock makes it once). The rebuild
// daily (a build hook). The webhooks' sender every minute
// (WebhooksSchedule).
const (
	IngestSchedule  = "*/5 * * * *"
	AlertsSchedule  = "*/5 * * * *"
	DigestSchedule  = "0 * 1 * *"
	RebuildSchedule = "@daily"
)

// All is every scheduled job, in the order a reader meets them.
func All() []Job {
	return []Job{
		{Name: "ingest", Schedule: IngestSchedule, Covers: "the regulators' feeds and listing pages, each on its cadence",
			Run: func(ctx context.Context, env Env) (fmt.Stringer, error) { return Ingest(ctx, env) }},
		{Name: "alerts", Schedule: AlertsSchedule, Covers: "alerts (immediate, daily, weekly), Master Directions' follows, the decisions' team reminders",
			Run: func(ctx context.Context, env Env) (fmt.Stringer, error) { return Alerts(ctx, env) }},
		{Name: "digest", Schedule: DigestSchedule, Covers: "the previous month's newsletter digest, on the first day of the month",
			Run: func(ctx context.Context, env Env) (fmt.Stringer, error) { return Digest(ctx, env) }},
		{Name: "webhooks", Schedule: WebhooksSchedule, Covers: "webhook, Slack and Teams deliveries due, their retries, the delivery log's pruning",
			Run: func(ctx context.Context, env Env) (fmt.Stringer, error) { return Webhooks(ctx, env) }},
		{Name: "rebuild", Schedule: RebuildSchedule, Covers: "the static site rebuilt by the host's build hook",
			Run: func(ctx context.Context, env Env) (fmt.Stringer, error) { return Rebuild(ctx, env) }},
	}
}

// Lookup is the job named name.
func Lookup(name string) (Job, bool) {
	all := All()
	i := slices.IndexFunc(all, func(j Job) bool { return j.Name == name })
	if i < 0 {
		return Job{}, false
	}
	return all[i], true
}

// Store is what the jobs need of the store (internal/store implements
// it; the wiring in cmd/ passes it).
type Store interface {
	alerts.Store
	teammail.Store
	newsletter.Store
	newsletter.RunLock
	webhooks.Store
	// DigestContent is what month's digest is chosen from, as stored.
	DigestContent(ctx context.Context, month time.Time) (newsletter.Content, error)
	// ClaimJobRun takes job's run key for holder until lease runs out
	// (false: heldBy holds it until until); ReleaseJobRun frees it.
	ClaimJobRun(ctx context.Context, job, key, holder string, lease time.Duration) (ok bool, heldBy string, until time.Time, err error)
	ReleaseJobRun(ctx context.Context, job, key, holder string) error
}

// OperatorEmailEnv names the operator's address: ingest tells it of a
// source gone stale or a listing page that changed shape.
const OperatorEmailEnv = "REGPULSE_OPERATOR_EMAIL"

// Operator is the operator $REGPULSE_OPERATOR_EMAIL names, told by a
// one-off e-mail from the alerts' sender through the jobs' way out
// ($SMTP_URL, else .eml files in the outbox's operator/); nil when it is
// unset (the log and the metrics alone say so).
func (e Env) Operator() (ingest.Operator, error) {
	to := e.getenv(OperatorEmailEnv)
	if to == "" {
		return nil, nil
	}
	snd, err := mail.NewSender(AlertsFrom, "")
	if err != nil {
		return nil, err
	}
	return mail.Operator{Sender: snd, To: to, Now: e.Now, Open: func() (mail.Transport, error) { return e.transport("operator") }}, nil
}

// Env is what the jobs run with: the store, the settings, the clock.
// serve and the CLI fill it from their flags, a function from its
// environment.
type Env struct {
	DB Store
	// Holder names this process in the locks (NewHolder).
	Holder string
	Getenv func(string) string
	Log    *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// BaseURL is the site's absolute URL, for the e-mails' links.
	BaseURL string
	// Data is the folder of the secrets the environment does not give
	// and of the .eml outbox; "" in a function, which has no disk to
	// keep them: there $SMTP_URL and the secrets' variables are needed.
	Data string
	// Content is the content folder: the digest is chosen from it when
	// set, from the store otherwise; ingest writes drafts into it as well
	// as into the store's queue ("": the queue only).
	Content  string
	Mail     Mail
	Ingest   IngestEnv
	Webhooks WebhooksEnv
}

// Mail is how e-mails leave.
type Mail struct {
	// From is the sender (alerts and digest each have a default:
	// AlertsFrom, DigestFrom).
	From string
	// UnsubscribeMailto is the digest's List-Unsubscribe mailbox ("": the
	// From address).
	UnsubscribeMailto string
	// Out is the folder of the .eml files written when $SMTP_URL is unset
	// ("": Data's outbox).
	Out string
}

// The senders' defaults.
const (
	AlertsFrom = "RegPulse <alerts@regpulse.in>"
	DigestFrom = "RegPulse <newsletter@regpulse.in>"
)

// SMTPURLEnv names the SMTP server e-mails leave through (it carries a
// password, so it is not a flag).
const SMTPURLEnv = "SMTP_URL"

func (e Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e Env) log() *slog.Logger {
	if e.Log == nil {
		return slog.Default()
	}
	return e.Log
}

func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// NewHolder names this process in the stores' run locks: host, process
// and a random part (a function's instances may share a host name and a
// pid).
func NewHolder() string {
	b := make([]byte, 8)
	rand.Read(b)
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Skipped is a run that did nothing, and why.
type Skipped struct {
	Job, Why string
}

func (s Skipped) String() string { return s.Job + ": skipped: " + s.Why }
