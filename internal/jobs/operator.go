package jobs

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"html"

	"regpulse/internal/ingest"
	"regpulse/internal/mail"
)

// OperatorEmailEnv names the operator's address: ingest tells it of a
// source gone stale or a listing page that changed shape.
const OperatorEmailEnv = "REGPULSE_OPERATOR_EMAIL"

// MailOperator tells the operator by e-mail (ingest.Operator): a one-off
// plain message through the jobs' way out ($SMTP_URL, else .eml files in
// the outbox's operator/).
type MailOperator struct {
	Env  Env
	To   string
	From string // "": AlertsFrom
}

// Operator is the operator named by $REGPULSE_OPERATOR_EMAIL, nil when
// it is unset (the log and the metrics alone say so).
func (e Env) Operator() ingest.Operator {
	to := e.getenv(OperatorEmailEnv)
	if to == "" {
		return nil
	}
	return MailOperator{Env: e, To: to}
}

// Tell sends subject and text to the operator.
func (o MailOperator) Tell(ctx context.Context, subject, text string) error {
	snd, err := mail.NewSender(cmp.Or(o.From, AlertsFrom), "")
	if err != nil {
		return err
	}
	tr, err := o.Env.transport("operator")
	if err != nil {
		return err
	}
	defer tr.Close()
	b := make([]byte, 8)
	rand.Read(b)
	name := "operator-" + o.Env.now().UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b)
	msg, err := snd.Build(mail.Message{To: o.To, Subject: "RegPulse: " + subject, MessageID: name + "@" + snd.Domain,
		Date: o.Env.now(), Text: text, HTML: "<pre>" + html.EscapeString(text) + "</pre>"})
	if err != nil {
		return err
	}
	return tr.Deliver(ctx, msg, name)
}
