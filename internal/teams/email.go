package teams

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	htmltemplate "html/template"
	texttemplate "text/template"
	"time"

	"regpulse/internal/mail"
)

// The invitation e-mail: who invites whom to which organisation, as what,
// and the link that accepts, through the same sender and transports as
// the alerts (internal/mail).

//go:embed templates/*
var templateFS embed.FS

var (
	inviteHTML = htmltemplate.Must(mail.HTMLTemplates(templateFS, "templates/invite.html"))
	inviteText = texttemplate.Must(texttemplate.ParseFS(templateFS, "templates/invite.txt"))
)

// AcceptPath is the site's page an invitation's link opens, with the
// token as ?token=.
const AcceptPath = "/join/"

// InviteEmail is one invitation's e-mail.
type InviteEmail struct {
	Invite       Invite
	Organisation string // its name
	InvitedBy    string // the admin's name as the e-mail shows it
	AcceptURL    string // the link, with its token
}

// Subject is e's subject line.
func (e InviteEmail) Subject() string {
	return fmt.Sprintf("%s invites you to %s on RegPulse", e.InvitedBy, e.Organisation)
}

// roleDoes says what a role may do, for the invitation.
var roleDoes = map[string]string{
	RoleAdmin:   "you will manage its members and their roles, and decide and act on what applies to it.",
	RoleMember:  "you will decide and act on what applies to it, and comment.",
	RoleViewer:  "you will read what it decides and does.",
	RoleAuditor: "you will read everything it decides and does, and accept or reject its evidence.",
}

// Rendered is an e-mail's subject and bodies.
type Rendered struct{ Subject, Text, HTML string }

type inviteView struct {
	Subject, Organisation, InvitedBy, Email string
	RoleLabel, RoleDoes                     string
	AccessEnds, Expires                     string
	AcceptURL                               string
}

func longTime(t time.Time) string { return t.UTC().Format("2 January 2006, 15:04 UTC") }

// Render renders e.
func (e InviteEmail) Render() (Rendered, error) {
	v := inviteView{Subject: e.Subject(), Organisation: e.Organisation, InvitedBy: e.InvitedBy, Email: e.Invite.Email,
		RoleLabel: "an " + e.Invite.Role, RoleDoes: roleDoes[e.Invite.Role], Expires: longTime(e.Invite.ExpiresAt), AcceptURL: e.AcceptURL}
	if e.Invite.Role == RoleMember || e.Invite.Role == RoleViewer {
		v.RoleLabel = "a " + e.Invite.Role
	}
	if a := e.Invite.AccessEndsAt; a != nil {
		v.AccessEnds = longTime(*a)
	}
	var h, t bytes.Buffer
	if err := inviteHTML.ExecuteTemplate(&h, "invite.html", v); err != nil {
		return Rendered{}, err
	}
	if err := inviteText.ExecuteTemplate(&t, "invite.txt", v); err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: v.Subject, Text: t.String(), HTML: h.String()}, nil
}

// Message is e as sent by snd at now: a one-off message, without the
// lists' unsubscribe headers.
func (e InviteEmail) Message(snd mail.Sender, now time.Time) (mail.Message, error) {
	r, err := e.Render()
	if err != nil {
		return mail.Message{}, err
	}
	return mail.Message{To: e.Invite.Email, Subject: r.Subject, MessageID: "invite-" + e.Invite.ID + "@" + snd.Domain,
		Date: now, Text: r.Text, HTML: r.HTML}, nil
}

// Mailer sends invitations as they are made: through Transport (SMTP, or
// .eml files), one connection per e-mail.
type Mailer struct {
	Sender mail.Sender
	// Transport opens the way out for one e-mail.
	Transport func() (mail.Transport, error)
	Now       func() time.Time // nil: time.Now
}

// SendInvite renders e and delivers it.
func (m *Mailer) SendInvite(ctx context.Context, e InviteEmail) error {
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	msg, err := e.Message(m.Sender, now())
	if err != nil {
		return err
	}
	built, err := m.Sender.Build(msg)
	if err != nil {
		return err
	}
	tr, err := m.Transport()
	if err != nil {
		return err
	}
	defer tr.Close()
	return tr.Deliver(ctx, built, "invite-"+e.Invite.ID)
}
