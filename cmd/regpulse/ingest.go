package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/ingest"
	"regpulse/internal/mail"
	"regpulse/internal/schedule"
	"regpulse/internal/store"
)

// OperatorEmailEnv names the address told of stale sources (and, later,
// of listing pages that changed shape).
const OperatorEmailEnv = "REGPULSE_OPERATOR_EMAIL"

// ingestFlags are ingest's inputs, shared by ingest and serve.
type ingestFlags struct {
	feeds         string
	timeout       time.Duration
	operatorEmail string
}

// register adds the flags; timeoutFlag names the time limit, which serve
// calls --ingest-timeout so it is not taken for the server's own.
func (in *ingestFlags) register(fs *flag.FlagSet, timeoutFlag string) {
	fs.StringVar(&in.feeds, "feeds", "feeds.yaml", "the list of feeds to ingest")
	fs.DurationVar(&in.timeout, timeoutFlag, ingest.DefaultTimeout, "time limit for fetching each feed")
	fs.StringVar(&in.operatorEmail, "operator-email", os.Getenv(OperatorEmailEnv),
		"address told by e-mail when a feed goes stale (no success for "+catalog.StaleAfter.String()+"), once per spell; $"+SMTPURLEnv+
			", else .eml files in DATA/outbox/operator (default $"+OperatorEmailEnv+"; none: the log and the metrics only)")
}

// run ingests the feeds named only ("" all) into content, with opts'
// state, operator and the rest.
func (in *ingestFlags) run(ctx context.Context, content, only string, opts ingest.Options) (ingest.Report, error) {
	feeds, err := ingest.LoadFeeds(in.feeds)
	if err == nil {
		feeds, err = ingest.Select(feeds, only)
	}
	if err != nil {
		return ingest.Report{}, err
	}
	opts.ContentDir, opts.Timeout = content, in.timeout
	return ingest.Run(ctx, feeds, opts)
}

// operator is who --operator-email names (nil when none): e-mails go
// through $SMTP_URL, else into .eml files in dataDir/outbox/operator.
func (in *ingestFlags) operator(dataDir string, getenv func(string) string) (ingest.Operator, error) {
	if in.operatorEmail == "" {
		return nil, nil
	}
	snd, err := mail.NewSender(app.InviteFrom, "")
	if err != nil {
		return nil, err
	}
	open := func() (mail.Transport, error) {
		return mail.Dir{Path: filepath.Join(dataDir, "outbox", "operator")}, nil
	}
	if u := getenv(SMTPURLEnv); u != "" {
		if _, err := mail.NewSMTP(u); err != nil { // a bad URL fails the start, not the e-mail
			return nil, err
		}
		open = func() (mail.Transport, error) { return mail.NewSMTP(u) }
	}
	return mail.Operator{Sender: snd, To: in.operatorEmail, Open: open}, nil
}

func cmdIngest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "direction":
			return cmdIngestDirection(ctx, args[1:], stdout, stderr)
		case "status":
			return cmdIngestStatus(ctx, args[1:], stdout, stderr, time.Now)
		case "pull":
			return cmdIngestPull(ctx, args[1:], stdout, stderr)
		}
	}
	fs := newFlagSet("ingest", stderr)
	var in ingestFlags
	in.register(fs, "timeout")
	content := fs.String("content", "content", "content directory (files go to its circulars/)")
	only := fs.String("only", "", "ingest only the feed of this name")
	force := fs.Bool("force", false, "poll every feed now, whatever its cadence, and read it whole (no validators sent)")
	contact := fs.String("support-email", "support@regpulse.in", "contact address added to the User-Agent the regulators' servers see")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database keeping each feed's state (validators, next poll, polls)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if in.timeout <= 0 {
		return fmt.Errorf("--timeout %s: want a positive duration", in.timeout)
	}
	// No store, no run: polling without validators or schedule is what
	// the store is there to prevent.
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	op, err := in.operator(sf.Data, os.Getenv)
	if err != nil {
		return err
	}
	rep, err := in.run(ctx, *content, *only, ingest.Options{State: db, Items: db, Operator: op, Force: *force, Contact: *contact})
	for _, w := range rep.Written {
		fmt.Fprintf(stdout, "wrote %s (feed %q: %q)\n", w.Path, w.Feed, w.Title)
	}
	for _, m := range rep.Merged {
		fmt.Fprintf(stdout, "also published as: %s (%s, matched by %s) of %s%s\n", m.Link, m.As, m.Rule, m.Of,
			map[bool]string{true: "", false: ": waiting for an editor"}[m.Added])
	}
	for _, s := range rep.Skipped {
		if s.Warning {
			fmt.Fprintf(stderr, "warning: skipped %s\n", s)
		} else {
			fmt.Fprintf(stdout, "skipped %s\n", s)
		}
	}
	for _, n := range rep.NotDue {
		fmt.Fprintf(stdout, "not due: feed %q until %s (--force polls it now)\n", n.Feed, n.Next.In(schedule.IST).Format(statusTime))
	}
	for _, s := range rep.Stale {
		fmt.Fprintf(stderr, "stale: feed %q: no successful poll since %s\n", s.Feed, orNever(s.LastSuccess))
	}
	fmt.Fprintf(stdout, "ingest: %d written, %d already in the content, %d skipped with a warning; %s\n",
		len(rep.Written), len(rep.Skipped)-rep.Warnings(), rep.Warnings(), rep.Figures())
	return err
}

// statusTime is how ingest's output shows a time: IST, as the editors
// and the regulators keep it.
const statusTime = "2006-01-02 15:04 IST"

func orNever(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.In(schedule.IST).Format(statusTime)
}

// statusWindow is the span of the polls' shares ingest status shows.
const statusWindow = 7 * 24 * time.Hour

func cmdIngestStatus(ctx context.Context, args []string, stdout, stderr io.Writer, now func() time.Time) error {
	fs := newFlagSet("ingest status", stderr)
	feedsFile := fs.String("feeds", "feeds.yaml", "the list of feeds (those never polled are listed too)")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database keeping each feed's state")
	if err := fs.Parse(args); err != nil {
		return err
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	return ingestStatus(ctx, db, *feedsFile, stdout, now())
}

// ingestStatus prints each feed of feedsFile and each stored source: its
// last success, whether it is stale, its next poll, its last outcome, the
// share of its polls over statusWindow that cost nothing (304 or
// unchanged), and its failures in a row.
func ingestStatus(ctx context.Context, db *store.DB, feedsFile string, stdout io.Writer, now time.Time) error {
	stored, err := db.IngestSources(ctx)
	if err != nil {
		return err
	}
	counts, err := db.IngestPollCounts(ctx, now.Add(-statusWindow))
	if err != nil {
		return err
	}
	byName := map[string]ingest.SourceState{}
	for _, s := range stored {
		byName[s.Name] = s
	}
	var names []string
	listed := map[string]bool{}
	if feeds, err := ingest.LoadFeeds(feedsFile); err == nil {
		for _, f := range feeds {
			names = append(names, f.Name)
			listed[f.Name] = true
			if _, ok := byName[f.Name]; !ok {
				byName[f.Name] = ingest.SourceState{Name: f.Name, Source: f.Source}
			}
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	for _, s := range stored {
		if !listed[s.Name] {
			names = append(names, s.Name)
		}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FEED\tSOURCE\tLAST SUCCESS\tSTALE\tNEXT POLL\tLAST OUTCOME\t304/UNCHANGED (7 DAYS)\tERRORS IN A ROW")
	for _, name := range names {
		s := byName[name]
		stale := "no"
		if catalog.IsStale(s.LastSuccess, now) {
			stale = "STALE"
		}
		next, last := "due", string(s.LastStatus)
		if s.NextPoll.After(now) {
			next = s.NextPoll.In(schedule.IST).Format(statusTime)
		}
		if s.LastPoll.IsZero() {
			next, last = "due (never polled)", "-"
		}
		if !listed[name] {
			next = "(not in " + filepath.Base(feedsFile) + ")"
		}
		c := counts[name]
		total, cheap := 0, c[ingest.NotModified]+c[ingest.Unchanged]
		for _, n := range c {
			total += n
		}
		share := "-"
		if total > 0 {
			share = fmt.Sprintf("%d of %d (%d%%)", cheap, total, cheap*100/total)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", name, s.Source, orNever(s.LastSuccess), stale, next, last, share, s.ConsecutiveErrors)
	}
	return tw.Flush()
}
