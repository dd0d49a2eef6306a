package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/jobs"
	"regpulse/internal/newsletter"
)

// SMTPURLEnv names the environment variable of the e-mails' SMTP server
// (it carries a password, so it is not a flag).
const SMTPURLEnv = jobs.SMTPURLEnv

// digestFlags are the digest's settings, shared by digest and serve.
type digestFlags struct {
	from, mailto, out string
}

func (d *digestFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.from, "from", "RegPulse <newsletter@regpulse.in>", "the digest's sender; its domain names the messages (Message-ID)")
	fs.StringVar(&d.mailto, "unsubscribe-mailto", "", "the List-Unsubscribe mailbox as a mailto: URL (default: the --from address, subject unsubscribe)")
	fs.StringVar(&d.out, "out", "", "folder of the .eml files written when $"+SMTPURLEnv+" is unset (default: DATA/outbox/YYYY-MM)")
}

// mail is the flags as the jobs take them.
func (d digestFlags) mail() jobs.Mail {
	return jobs.Mail{From: d.from, UnsubscribeMailto: d.mailto, Out: d.out}
}

func cmdDigest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("digest", stderr)
	month := fs.String("month", "", "the month to send, YYYY-MM (default: the previous month)")
	dryRun := fs.Bool("dry-run", false, "render (into --out, if given) without sending or recording anything")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database, and of the secrets the environment does not give")
	dataDir := &sf.Data
	content := fs.String("content", "content", "content directory")
	baseURL := fs.String("base-url", "http://localhost:8080/", "absolute URL of the site, for the digest's links")
	var df digestFlags
	df.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return errors.New("usage: regpulse digest [--month YYYY-MM] [--dry-run] [--out DIR]")
	}
	m := newsletter.PreviousMonth(time.Now())
	if *month != "" {
		var err error
		if m, err = newsletter.ParseMonth(*month); err != nil {
			return fmt.Errorf("--month %q: want YYYY-MM", *month)
		}
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	env := jobs.Env{DB: db, Getenv: os.Getenv, Log: slog.New(slog.NewTextHandler(stderr, nil)),
		BaseURL: *baseURL, Data: *dataDir, Content: *content, Mail: df.mail()}
	rep, err := jobs.SendDigest(ctx, env, m, *dryRun)
	if *dryRun {
		fmt.Fprint(stdout, "dry run: ")
	}
	fmt.Fprintln(stdout, rep)
	for addr, why := range rep.Failures {
		fmt.Fprintf(stdout, "  failed: %s: %s\n", addr, why)
	}
	return err
}

// scheduleDigest starts serve's monthly digest: the previous month's, on
// each first day (UTC), once across processes sharing the store (the
// same lock and run as the regpulse-digest function's, jobs.Digest).
func scheduleDigest(ctx context.Context, env jobs.Env) {
	go newsletter.Schedule(ctx, env.DB, env.Holder,
		func(ctx context.Context, month time.Time) error {
			rep, err := jobs.SendDigest(ctx, env, month, false)
			env.Log.Info("digest schedule: "+rep.String(), "err", err)
			return err
		}, env.Log)
}
