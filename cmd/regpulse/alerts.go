package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/app"
	"regpulse/internal/jobs"
)

const alertsUsage = `usage: regpulse alerts <command> [flags]

commands:
  send                     match what arrived and send what is due now (what serve --alerts-every runs),
                           the decisions' daily reminders included
  list                     list every alert: kind, frequency, on/off, address, last sent
  stats                    count alerts, matches waiting and e-mails by status
  bouncing                 list the addresses servers refused (bouncing after 3 refusals in a row)
  resend --from D --to D   send again the matches of the e-mails sent from D to D (UTC dates, --to excluded)

Immediate alerts go at each run; daily digests from 07:00 UTC, weekly ones
on Mondays from 07:00 UTC; the reminders of the decisions due within 7 days
or overdue from 07:00 UTC, once a day, each decision once per kind. E-mails go through $SMTP_URL, else into .eml
files (DATA/outbox/alerts, or --out/alerts).
Run "regpulse alerts <command> -h" for a command's flags.
`

func cmdAlerts(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, alertsUsage)
		return errors.New("no alerts command")
	}
	sub := args[0]
	if slices.Contains([]string{"-h", "-help", "--help", "help"}, sub) {
		fmt.Fprint(stdout, alertsUsage)
		return nil
	}
	fs := newFlagSet("alerts "+sub, stderr)
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database, and of the secrets the environment does not give")
	var df digestFlags
	baseURL := fs.String("base-url", "http://localhost:8080/", "absolute URL of the site, for the e-mails' links")
	var from, to string
	switch sub {
	case "send":
		df.register(fs)
		fs.Lookup("from").DefValue = jobs.AlertsFrom
		df.from = jobs.AlertsFrom
	case "resend":
		fs.StringVar(&from, "from", "", "first day, YYYY-MM-DD (UTC)")
		fs.StringVar(&to, "to", "", "the day after the last, YYYY-MM-DD (UTC)")
	case "list", "stats", "bouncing":
	default:
		fmt.Fprint(stderr, alertsUsage)
		return fmt.Errorf("unknown alerts command %q", sub)
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("alerts %s takes no arguments (got %q)", sub, fs.Args())
	}
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	defer tw.Flush()
	switch sub {
	case "send":
		rep, err := jobs.Alerts(ctx, jobs.Env{DB: db, Holder: jobs.NewHolder(), Getenv: os.Getenv, Log: slog.New(slog.NewTextHandler(stderr, nil)),
			BaseURL: *baseURL, Data: sf.Data, Mail: df.mail()})
		fmt.Fprintln(stdout, rep)
		for addr, why := range rep.Failures {
			fmt.Fprintf(stdout, "  failed: %s: %s\n", addr, why)
		}
		return err
	case "list":
		list, err := db.ListAlerts(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "ID\tKIND\tNAME\tFREQUENCY\tON\tCONFIRMED\tADDRESS\tLAST SENT")
		for _, a := range list {
			last := "never"
			if a.LastSentAt != nil {
				last = a.LastSentAt.UTC().Format(time.DateTime)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%v\t%s\t%s\n", a.ID, a.Kind, a.Name, a.Frequency, a.Enabled, a.Confirmed, a.Email, last)
		}
	case "stats":
		st, err := db.AlertStats(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "ALERTS (KIND/FREQUENCY)\tCOUNT")
		for _, k := range slices.Sorted(maps.Keys(st.Alerts)) {
			fmt.Fprintf(tw, "%s\t%d\n", k, st.Alerts[k])
		}
		fmt.Fprintf(tw, "matches waiting\t%d\n", st.Waiting)
		for _, k := range []string{"sent", "failed", "sending"} {
			fmt.Fprintf(tw, "e-mails %s\t%d\n", k, st.Sends[k])
		}
		fmt.Fprintf(tw, "Master Directions followed\t%d\n", st.Follows)
		fmt.Fprintf(tw, "their versions waiting\t%d\n", st.FollowsWaiting)
		for _, k := range []string{"sent", "failed", "sending"} {
			fmt.Fprintf(tw, "their e-mails %s\t%d\n", k, st.FollowSends[k])
		}
		for _, k := range []string{"sent", "failed", "sending"} {
			fmt.Fprintf(tw, "reminders of decisions %s\t%d\n", k, st.ReminderSends[k])
		}
	case "bouncing":
		list, err := db.Bouncing(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintln(tw, "ADDRESS\tREFUSALS IN A ROW\tBOUNCING\tLAST ERROR\tSINCE")
		for _, a := range list {
			fmt.Fprintf(tw, "%s\t%d\t%v\t%s\t%s\n", a.Email, a.Failures, a.Bouncing, strings.ReplaceAll(a.LastError, "\n", " "), a.UpdatedAt.UTC().Format(time.DateTime))
		}
	case "resend":
		start, err1 := time.Parse(time.DateOnly, from)
		end, err2 := time.Parse(time.DateOnly, to)
		if err1 != nil || err2 != nil || !end.After(start) {
			return errors.New("usage: regpulse alerts resend --from YYYY-MM-DD --to YYYY-MM-DD (--to after --from, excluded)")
		}
		n, err := db.ResendAlerts(ctx, start, end)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%d matches will be sent again at the next run\n", n)
	}
	return nil
}

// scheduleAlerts starts serve's alerts: a run (jobs.Alerts, the
// regpulse-alerts function's) every interval.
func scheduleAlerts(ctx context.Context, interval time.Duration, env jobs.Env) {
	go alerts.Every(ctx, interval, func(ctx context.Context) (alerts.Report, error) { return jobs.Alerts(ctx, env) }, env.Log)
}
