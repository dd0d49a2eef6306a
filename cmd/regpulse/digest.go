package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/newsletter"
	"regpulse/internal/store"
)

// SMTPURLEnv names the environment variable of the digest's SMTP server
// (it carries a password, so it is not a flag).
const SMTPURLEnv = "SMTP_URL"

// digestFlags are the digest's settings, shared by digest and serve.
type digestFlags struct {
	from, mailto, out string
}

func (d *digestFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&d.from, "from", "RegPulse <newsletter@regpulse.in>", "the digest's sender; its domain names the messages (Message-ID)")
	fs.StringVar(&d.mailto, "unsubscribe-mailto", "", "the List-Unsubscribe mailbox as a mailto: URL (default: the --from address, subject unsubscribe)")
	fs.StringVar(&d.out, "out", "", "folder of the .eml files written when $"+SMTPURLEnv+" is unset (default: DATA/outbox/YYYY-MM)")
}

// digestRun is one month's digest to send.
type digestRun struct {
	db                        *store.DB
	flags                     digestFlags
	content, baseURL, dataDir string
	dryRun                    bool
	getenv                    func(string) string
	log                       *slog.Logger
}

// send renders month's digest from the content and delivers it: through
// $SMTP_URL when set, otherwise into .eml files (a dry run never uses
// SMTP and records nothing; without --out it only renders).
func (r digestRun) send(ctx context.Context, month time.Time) (newsletter.Report, error) {
	cat, err := catalog.Load(r.content)
	if err != nil {
		return newsletter.Report{}, err
	}
	tokens, err := newsletter.LoadTokens(r.dataDir, r.getenv)
	if err != nil {
		return newsletter.Report{}, err
	}
	rd, err := newsletter.NewRenderer(newsletter.NewIssue(cat, month), r.baseURL, tokens)
	if err != nil {
		return newsletter.Report{}, err
	}
	var tr mail.Transport
	smtpURL := r.getenv(SMTPURLEnv)
	switch {
	case r.dryRun && r.flags.out == "":
		tr = discard{}
	case smtpURL != "" && !r.dryRun:
		if tr, err = mail.NewSMTP(smtpURL); err != nil {
			return newsletter.Report{}, err
		}
	default:
		out := r.flags.out
		if out == "" {
			out = filepath.Join(r.dataDir, "outbox", newsletter.MonthKey(month))
		}
		tr = mail.Dir{Path: out}
	}
	defer tr.Close()
	return newsletter.Send(ctx, r.db, tr, rd, newsletter.Options{From: r.flags.from, UnsubscribeMailto: r.flags.mailto,
		DryRun: r.dryRun, Log: r.log})
}

// discard renders and drops every message (a dry run without --out).
type discard struct{}

func (discard) Deliver(_ context.Context, m *gomail.Msg, _ string) error {
	_, err := m.WriteTo(io.Discard)
	return err
}

func (discard) Close() error { return nil }

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
	run := digestRun{db: db, flags: df, content: *content, baseURL: *baseURL, dataDir: *dataDir, dryRun: *dryRun,
		getenv: os.Getenv, log: slog.New(slog.NewTextHandler(stderr, nil))}
	rep, err := run.send(ctx, m)
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
// each first day (UTC), once across processes sharing the store.
func scheduleDigest(ctx context.Context, run digestRun) {
	go newsletter.Schedule(ctx, run.db, newHolder(),
		func(ctx context.Context, month time.Time) error {
			rep, err := run.send(ctx, month)
			run.log.Info("digest schedule: "+rep.String(), "err", err)
			return err
		}, run.log)
}
