// Command regpulse-jobs runs the scheduled jobs (internal/jobs: ingest,
// alerts, digest, webhooks, rebuild) on a static host, one scheduled
// function per job (netlify.toml: regpulse-ingest, regpulse-alerts,
// regpulse-digest, regpulse-webhooks),
// all built from this one binary: the job is the function's name
// ($AWS_LAMBDA_FUNCTION_NAME, else the binary's own name, ending in
// regpulse-JOB), or the argument when run by hand:
//
//	regpulse-jobs [flags] ingest|alerts|digest|webhooks|rebuild
//
// Under a Lambda runtime (AWS_LAMBDA_RUNTIME_API set, as on Netlify) it
// answers each scheduled invocation with one run; there it is stateless
// on PostgreSQL ($DATABASE_URL), sends through $SMTP_URL and reads its
// secrets from the environment, as regpulse-api does. Each run is the
// one `regpulse serve` makes on its own timers, under the same locks, so
// a function overlapping serve or itself is safe. It does not import the
// generator (Hugo): a test checks it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"regpulse"
	"regpulse/internal/app"
	"regpulse/internal/auth"
	"regpulse/internal/ingest"
	"regpulse/internal/jobs"
)

// The environment a function reads (besides app's DATABASE_URL,
// REGPULSE_SITE_URL and the secrets', and jobs' SMTP_URL).
const (
	lambdaRuntimeEnv  = "AWS_LAMBDA_RUNTIME_API"
	functionNameEnv   = "AWS_LAMBDA_FUNCTION_NAME"
	netlifySiteURLEnv = "URL" // Netlify's own name for the site's main address
	contentEnv        = "REGPULSE_CONTENT"
	feedsEnv          = "REGPULSE_FEEDS"
	alertsFromEnv     = "REGPULSE_ALERTS_FROM"
	digestFromEnv     = "REGPULSE_DIGEST_FROM"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "regpulse-jobs:", err)
		os.Exit(1)
	}
}

// config is the command's settings: flags by hand, the environment in a
// function (where no flag is given, so each flag's default is its
// variable).
type config struct {
	store   app.Store
	baseURL string
	content string
	feeds   string
	budget  time.Duration
	timeout time.Duration
	contact string
	mail    jobs.Mail
	lambda  bool
}

func (c *config) flags(fs *flag.FlagSet, getenv func(string) string) {
	c.store.Register(fs, "directory of the SQLite database and of the secrets the environment does not give (not in a function)")
	siteURL := getenv(app.SiteURLEnv)
	if siteURL == "" {
		siteURL = getenv(netlifySiteURLEnv)
	}
	fs.StringVar(&c.baseURL, "base-url", siteURL, "absolute URL of the site, for the e-mails' links (default $"+app.SiteURLEnv+", else Netlify's $"+netlifySiteURLEnv+")")
	fs.StringVar(&c.content, "content", getenv(contentEnv), "content folder: ingest writes its drafts there too; the digest is chosen from it (default $"+contentEnv+"; empty: drafts queued in the store only, the digest read from the store)")
	fs.StringVar(&c.feeds, "feeds", getenv(feedsEnv), "the list of feeds to ingest (default $"+feedsEnv+"; empty: the feeds.yaml built in)")
	fs.DurationVar(&c.budget, "budget", jobs.FunctionBudget, "time ingest polls for before leaving the rest to the next tick (a scheduled function has 30 s)")
	// shorter than serve's: one slow source must not spend the whole budget
	fs.DurationVar(&c.timeout, "ingest-timeout", 10*time.Second, "time limit for fetching each feed")
	fs.StringVar(&c.contact, "support-email", "support@regpulse.in", "contact address added to the User-Agent the regulators' servers see")
	fs.StringVar(&c.mail.Out, "out", "", "folder of the .eml files written when $"+jobs.SMTPURLEnv+" is unset (default: DATA/outbox; none in a function)")
}

// run picks the job and runs it: once, or under a Lambda runtime once per
// invocation.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var c config
	fs := flag.NewFlagSet("regpulse-jobs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, getenv)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: regpulse-jobs [flags] JOB\n\njobs (each a scheduled function regpulse-JOB):\n")
		for _, j := range jobs.All() {
			fmt.Fprintf(stderr, "  %-8s %-12s %s\n", j.Name, j.Schedule, j.Covers)
		}
		fmt.Fprintln(stderr, "\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	c.lambda = getenv(lambdaRuntimeEnv) != ""
	job, err := pick(fs.Args(), getenv(functionNameEnv), args[0])
	if err != nil {
		fs.Usage()
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil)).With("job", job.Name)
	if c.lambda {
		if c.store.URL == "" {
			return errors.New("as a function, " + app.DatabaseURLEnv + " must be set (a function has no disk for SQLite)")
		}
		c.store.Data = "" // no disk: secrets from the environment, e-mails through SMTP_URL
		if (job.Name == "alerts" || job.Name == "digest") && getenv(auth.SecretEnv) == "" {
			// the API's secret: the e-mails' unsubscribe links must be the
			// ones the API accepts (with no disk, none could be made up)
			return errors.New("as a function, " + auth.SecretEnv + " must be set (the API's)")
		}
	}
	db, err := c.store.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	env := jobs.Env{DB: db, Holder: jobs.NewHolder(), Getenv: getenv, Log: log, BaseURL: c.baseURL, Data: c.store.Data,
		Content: c.content, Mail: c.mail}
	switch job.Name {
	case "alerts":
		env.Mail.From = getenv(alertsFromEnv)
	case "digest":
		env.Mail.From = getenv(digestFromEnv)
	}
	op, err := env.Operator()
	if err != nil {
		return err
	}
	// the store is ingest's state and queue: with no content folder (a
	// function) drafts wait there for `regpulse ingest pull`
	env.Ingest = jobs.IngestEnv{Feeds: c.loadFeeds, State: db, Items: db, Operator: op, Timeout: c.timeout, Budget: c.budget, Contact: c.contact}
	once := func(ctx context.Context) (string, error) {
		res, err := job.Run(ctx, env)
		if res != nil {
			log.Info(res.String())
		}
		if err != nil {
			log.Error("run failed", "err", err)
		}
		return fmt.Sprint(res), err
	}
	if c.lambda {
		lambda.StartWithOptions(once, lambda.WithContext(ctx))
		return nil
	}
	res, err := once(ctx)
	fmt.Fprintln(stdout, res)
	return err
}

// pick is the job to run: the argument when given, else the function's
// name, else the binary's own name (netlify/functions/regpulse-ingest).
func pick(args []string, function, argv0 string) (jobs.Job, error) {
	if len(args) > 1 {
		return jobs.Job{}, fmt.Errorf("one job at a time (got %q)", args)
	}
	names := []string{function, filepath.Base(argv0)}
	if len(args) == 1 {
		names = []string{args[0]}
	}
	for _, name := range names {
		for _, j := range jobs.All() {
			if name != "" && (name == j.Name || strings.HasSuffix(name, j.Function())) {
				return j, nil
			}
		}
	}
	if len(args) == 1 {
		return jobs.Job{}, fmt.Errorf("no job %q", args[0])
	}
	return jobs.Job{}, errors.New("which job? give its name (or run as a function named regpulse-JOB)")
}

// loadFeeds reads --feeds, or the feeds.yaml built into the binary.
func (c config) loadFeeds() ([]ingest.Feed, error) {
	if c.feeds != "" {
		return ingest.LoadFeeds(c.feeds)
	}
	// ingest reads its list from a file (its checks in one place): the
	// built-in copy goes through a temporary one.
	f, err := os.CreateTemp("", "feeds-*.yaml")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(regpulse.FeedsYAML)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	feeds, err := ingest.LoadFeeds(f.Name())
	if err != nil {
		return nil, fmt.Errorf("the built-in feeds.yaml: %w", err)
	}
	return feeds, nil
}
