package jobs

import (
	"context"
	"maps"

	"regpulse/internal/alerts"
	"regpulse/internal/mail"
	"regpulse/internal/teammail"
)

// Alerts is one alerts run (serve's --alerts-every, `regpulse alerts
// send`, the regpulse-alerts function): what arrived matched and sent,
// the daily and weekly digests when due, and the decisions' reminders
// (teammail.Remind), through $SMTP_URL when set, else .eml files in the
// outbox's alerts/. Each send is claimed in the store, so overlapping
// runs send each e-mail once.
func Alerts(ctx context.Context, env Env) (alerts.Report, error) {
	tokens, err := alerts.LoadTokens(env.Data, env.getenv)
	if err != nil {
		return alerts.Report{}, err
	}
	links, err := alerts.NewLinks(env.BaseURL, tokens)
	if err != nil {
		return alerts.Report{}, err
	}
	from := env.Mail.From
	if from == "" {
		from = AlertsFrom
	}
	snd, err := mail.NewSender(from, env.Mail.UnsubscribeMailto)
	if err != nil {
		return alerts.Report{}, err
	}
	tr, err := env.transport("alerts")
	if err != nil {
		return alerts.Report{}, err
	}
	defer tr.Close()
	log := env.log()
	rep, err := alerts.Run(ctx, env.DB, tr, alerts.Options{Links: links, Tokens: tokens, Sender: snd, Holder: env.Holder, Log: log, Now: env.Now})
	if err != nil {
		return rep, err
	}
	// The decisions' reminders go through the same run, sender and
	// transport, once a day from the digests' hour (teammail.Remind).
	site, err := mail.ParseSite(env.BaseURL)
	if err != nil {
		return rep, err
	}
	rem, err := teammail.Remind(ctx, env.DB, tr, teammail.Options{Site: site, Sender: snd, Holder: env.Holder, Log: log, Now: env.Now})
	rep.Sent, rep.Failed, rep.Skipped = rep.Sent+rem.Sent, rep.Failed+rem.Failed, rep.Skipped+rem.Skipped
	if rep.Failures == nil && len(rem.Failures) > 0 {
		rep.Failures = map[string]string{}
	}
	maps.Copy(rep.Failures, rem.Failures)
	if rem.Sent+rem.Failed > 0 {
		log.Info(rem.String())
	}
	return rep, err
}
