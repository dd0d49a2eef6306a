package jobs

import (
	"context"
	"errors"
	"io"
	"path/filepath"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/mail"
)

// errNoWayOut: neither $SMTP_URL nor a folder for .eml files (a
// function has no disk to keep them on).
var errNoWayOut = errors.New(SMTPURLEnv + " is not set and there is no data folder for .eml files (as a function, set " + SMTPURLEnv + ")")

// transport is the way out of a run's e-mails: $SMTP_URL when set, else
// .eml files in Mail.Out, else in Data/outbox/sub.
func (e Env) transport(sub string) (mail.Transport, error) {
	if u := e.getenv(SMTPURLEnv); u != "" {
		return mail.NewSMTP(u)
	}
	return e.outbox(sub)
}

// outbox is the folder of .eml files.
func (e Env) outbox(sub string) (mail.Transport, error) {
	switch {
	case e.Mail.Out != "":
		return mail.Dir{Path: filepath.Join(e.Mail.Out, sub)}, nil
	case e.Data != "":
		return mail.Dir{Path: filepath.Join(e.Data, "outbox", sub)}, nil
	}
	return nil, errNoWayOut
}

// discard renders and drops every message (a dry run without --out).
type discard struct{}

func (discard) Deliver(_ context.Context, m *gomail.Msg, _ string) error {
	_, err := m.WriteTo(io.Discard)
	return err
}

func (discard) Close() error { return nil }
