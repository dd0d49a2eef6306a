package jobs

import (
	"context"
	"fmt"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/newsletter"
)

// SendDigest renders month's digest and delivers it: through $SMTP_URL
// when set, else into .eml files (Mail.Out, else Data/outbox/YYYY-MM).
// A dry run never uses SMTP and records nothing; without Mail.Out it
// only renders. The month's content is the content folder's when
// env.Content is set (serve, `regpulse digest`), else the store's (a
// function: what the last build synced there).
func SendDigest(ctx context.Context, env Env, month time.Time, dryRun bool) (newsletter.Report, error) {
	var issue newsletter.Issue
	if env.Content != "" {
		cat, err := catalog.Load(env.Content)
		if err != nil {
			return newsletter.Report{}, err
		}
		issue = newsletter.NewIssue(cat, month)
	} else {
		c, err := env.DB.DigestContent(ctx, month)
		if err != nil {
			return newsletter.Report{}, err
		}
		issue = newsletter.NewIssueFromList(c, month)
	}
	tokens, err := newsletter.LoadTokens(env.Data, env.getenv)
	if err != nil {
		return newsletter.Report{}, err
	}
	rd, err := newsletter.NewRenderer(issue, env.BaseURL, tokens)
	if err != nil {
		return newsletter.Report{}, err
	}
	var tr mail.Transport
	switch {
	case dryRun && env.Mail.Out == "":
		tr = discard{}
	case dryRun:
		tr = mail.Dir{Path: env.Mail.Out}
	case env.getenv(SMTPURLEnv) != "":
		tr, err = env.transport("")
	case env.Mail.Out != "":
		tr = mail.Dir{Path: env.Mail.Out}
	default:
		tr, err = env.outbox(newsletter.MonthKey(month))
	}
	if err != nil {
		return newsletter.Report{}, err
	}
	defer tr.Close()
	from := env.Mail.From
	if from == "" {
		from = DigestFrom
	}
	return newsletter.Send(ctx, env.DB, tr, rd, newsletter.Options{From: from, UnsubscribeMailto: env.Mail.UnsubscribeMailto,
		DryRun: dryRun, Log: env.log()})
}

// DigestResult is what one digest tick did.
type DigestResult struct {
	Month  time.Time
	Sent   bool // this run sent it (false: sent already, or another process holds it)
	Report newsletter.Report
}

func (r DigestResult) String() string {
	if !r.Sent {
		return fmt.Sprintf("digest %s: skipped: sent already, or being sent by another process", newsletter.MonthKey(r.Month))
	}
	return r.Report.String()
}

// Digest is one tick of the monthly digest: on the first day of a month
// (UTC) the previous month's, once across every process sharing the
// store (newsletter.RunMonth: the same lock as serve's
// newsletter.Schedule); on any other day nothing.
func Digest(ctx context.Context, env Env) (fmt.Stringer, error) {
	now := env.now().UTC()
	if now.Day() != 1 {
		return Skipped{Job: "digest", Why: "not the first day of the month (UTC)"}, nil
	}
	res := DigestResult{Month: newsletter.PreviousMonth(now)}
	var err error
	res.Sent, err = newsletter.RunMonth(ctx, env.DB, env.Holder, res.Month, func(ctx context.Context, month time.Time) error {
		var err error
		res.Report, err = SendDigest(ctx, env, month, false)
		return err
	})
	return res, err
}
