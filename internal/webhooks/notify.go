package webhooks

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"time"

	"regpulse/internal/i18n"
	"regpulse/internal/mail"
)

//go:embed templates/*
var templateFS embed.FS

// The e-mail's templates by language (mail.HTMLByLanguage).
var (
	disabledHTML = must(mail.HTMLByLanguage(templateFS, "templates/disabled.html"))
	disabledText = must(mail.TextByLanguage(templateFS, "templates/disabled.txt"))
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The pages where an endpoint is turned back on: an organisation's
// settings, at its webhooks; the profile's alerts, for an alert's.
const (
	OrganisationPath   = "/organisation"
	OrganisationAnchor = "organisation-webhooks" // webhook-settings.tsx's Section
	AlertsPath         = "/profile"
	AlertsAnchor       = "alerts"
)

// DisabledEmail is the e-mail telling one person that an endpoint was
// turned off.
type DisabledEmail struct {
	To       Recipient
	Disabled Disabled
	Site     mail.Site
}

type disabledView struct {
	Subject, Title, Owner, Kind, URL, Description string
	Reason, When, SettingsURL, Because            string
	Resend                                        bool
}

// Rendered is an e-mail's subject and bodies.
type Rendered struct{ Subject, Text, HTML string }

// kindName names an endpoint's kind in a sentence, in the language of
// code.
func kindName(code string, k Kind) string {
	switch k {
	case KindSlack:
		return i18n.T(code, "mail.kindSlack", nil)
	case KindTeams:
		return i18n.T(code, "mail.kindTeams", nil)
	}
	return i18n.T(code, "mail.kindWebhook", nil)
}

// Render renders e in its recipient's language.
func (e DisabledEmail) Render() (Rendered, error) {
	d := e.Disabled
	lang := i18n.Of(e.To.Language).Code
	v := disabledView{Kind: kindName(lang, d.Endpoint.Kind), URL: redactURL(d.Endpoint.Kind, d.Endpoint.URL), Description: d.Endpoint.Description,
		Reason: d.Reason, When: i18n.Date(lang, d.At.UTC(), "2 January 2006, 15:04 UTC")}
	if d.Endpoint.AlertID != "" {
		v.Owner = d.AlertName
		v.Title = i18n.T(lang, "mail.webhookOffAlertTitle", map[string]any{"Kind": v.Kind})
		v.SettingsURL = e.Site.LinkIn(lang, AlertsPath, nil) + "#" + AlertsAnchor
		v.Because = i18n.T(lang, "mail.webhookBecauseAlert", map[string]any{"Alert": d.AlertName, "Email": e.To.Email})
	} else {
		v.Owner = d.OrganisationName
		v.Title = i18n.T(lang, "mail.webhookOffOrgTitle", map[string]any{"Kind": v.Kind, "Organisation": d.OrganisationName})
		v.SettingsURL = e.Site.LinkIn(lang, OrganisationPath, url.Values{"id": {d.Endpoint.OrganisationID}}) + "#" + OrganisationAnchor
		v.Because = i18n.T(lang, "mail.webhookBecauseAdmin", map[string]any{"Organisation": d.OrganisationName, "Email": e.To.Email})
		v.Resend = true
	}
	v.Subject = v.Title
	var hb, tb bytes.Buffer
	if err := disabledHTML[lang].ExecuteTemplate(&hb, "disabled.html", v); err != nil {
		return Rendered{}, err
	}
	if err := disabledText[lang].ExecuteTemplate(&tb, "disabled.txt", v); err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: v.Subject, Text: tb.String(), HTML: hb.String()}, nil
}

// redactURL is an endpoint's URL as an e-mail shows it: a chat webhook's
// path and query are its secret, so only the scheme and host are shown;
// a webhook's query too may carry a token, so it is dropped.
func redactURL(kind Kind, raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if kind != KindWebhook {
		return u.Scheme + "://" + u.Host + "/…"
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// Message is e as sent by snd at now: a one-off message, named after the
// endpoint, the time it was turned off and the recipient.
func (e DisabledEmail) Message(snd mail.Sender, now time.Time) (mail.Message, error) {
	r, err := e.Render()
	if err != nil {
		return mail.Message{}, err
	}
	return mail.Message{To: e.To.Email, ToName: e.To.Name, Subject: r.Subject, MessageID: e.name() + "@" + snd.Domain, Date: now,
		Text: r.Text, HTML: r.HTML}, nil
}

func (e DisabledEmail) name() string {
	return fmt.Sprintf("webhook-disabled-%s-%d-%s", url.PathEscape(e.Disabled.Endpoint.ID), e.Disabled.At.Unix(), url.PathEscape(e.To.Email))
}

// Mailer tells the people of an endpoint turned off by e-mail, through
// internal/mail's sender and transports, as the team's e-mails.
type Mailer struct {
	Sender mail.Sender
	// Transport opens the way out for one endpoint's e-mails.
	Transport func() (mail.Transport, error)
	Site      mail.Site
	Now       func() time.Time // nil: time.Now
}

// Disabled sends one e-mail to each of to: see Notifier. Every one is
// tried; the failures are answered together.
func (m *Mailer) Disabled(ctx context.Context, d Disabled, to []Recipient) error {
	if len(to) == 0 {
		return nil
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	tr, err := m.Transport()
	if err != nil {
		return err
	}
	defer tr.Close()
	var errs []error
	for _, r := range to {
		e := DisabledEmail{To: r, Disabled: d, Site: m.Site}
		msg, err := e.Message(m.Sender, now())
		if err != nil {
			return err
		}
		built, err := m.Sender.Build(msg)
		if err != nil {
			return err
		}
		if err := tr.Deliver(ctx, built, e.name()); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.Email, err))
		}
	}
	return errors.Join(errs...)
}
