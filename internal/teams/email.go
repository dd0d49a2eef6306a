package teams

import (
	"bytes"
	"context"
	"embed"
	"net/url"
	"strings"
	"time"

	"regpulse/internal/i18n"
	"regpulse/internal/mail"
)

// The invitation e-mail: who invites whom to which organisation, as what,
// and the link that accepts, through the same sender and transports as
// the alerts (internal/mail).

//go:embed templates/*
var templateFS embed.FS

// The invitation's templates by language code, each with its language's
// T (the inviteMail area of internal/i18n) and dates.
var (
	inviteHTML = must(mail.HTMLByLanguage(templateFS, "templates/invite.html"))
	inviteText = must(mail.TextByLanguage(templateFS, "templates/invite.txt"))
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// AcceptPath is the site's page an invitation's link opens, with the
// token as ?token=: its English path; the e-mail links to the page in
// its language (AcceptLink).
const AcceptPath = "/join/"

// AcceptLink is the link an invitation in the language of code opens:
// the accept page in that language under site (the site's absolute URL),
// with the token.
func AcceptLink(site, code, token string) string {
	return strings.TrimSuffix(site, "/") + i18n.Of(code).Path(AcceptPath) + "?" + url.Values{"token": {token}}.Encode()
}

// InviteEmail is one invitation's e-mail.
type InviteEmail struct {
	Invite       Invite
	Organisation string // its name
	InvitedBy    string // the admin's name as the e-mail shows it
	AcceptURL    string // the link, with its token (AcceptLink)
	// Language is the language the e-mail is written in ("": English).
	// The invitee may have no account, so no language of their own: the
	// API writes it in the language of the page the admin invites from
	// (see api's invite).
	Language string
}

// Subject is e's subject line, in its language.
func (e InviteEmail) Subject() string {
	return i18n.T(i18n.Of(e.Language).Code, "inviteMail.subject", map[string]any{"InvitedBy": e.InvitedBy, "Organisation": e.Organisation})
}

// roleKeys name a role as the invitation does ("a member"), roleDoes
// say what it may do.
var (
	roleKeys = map[string]string{RoleAdmin: "inviteMail.roleAdmin", RoleMember: "inviteMail.roleMember",
		RoleViewer: "inviteMail.roleViewer", RoleAuditor: "inviteMail.roleAuditor"}
	roleDoes = map[string]string{RoleAdmin: "inviteMail.doesAdmin", RoleMember: "inviteMail.doesMember",
		RoleViewer: "inviteMail.doesViewer", RoleAuditor: "inviteMail.doesAuditor"}
)

// Rendered is an e-mail's subject and bodies.
type Rendered struct{ Subject, Text, HTML string }

type inviteView struct {
	Subject, Organisation, InvitedBy, Email string
	RoleLabel, RoleDoes                     string
	AccessEnds, Expires                     string
	AcceptURL                               string
}

// longTime is t in the language of code: 2 January 2006, 15:04 UTC.
func longTime(code string, t time.Time) string {
	return i18n.Date(code, t.UTC(), "2 January 2006, 15:04 UTC")
}

// Render renders e in its language.
func (e InviteEmail) Render() (Rendered, error) {
	lang := i18n.Of(e.Language).Code
	v := inviteView{Subject: e.Subject(), Organisation: e.Organisation, InvitedBy: e.InvitedBy, Email: e.Invite.Email,
		RoleLabel: e.Invite.Role, Expires: longTime(lang, e.Invite.ExpiresAt), AcceptURL: e.AcceptURL}
	if key, ok := roleKeys[e.Invite.Role]; ok {
		v.RoleLabel, v.RoleDoes = i18n.T(lang, key, nil), i18n.T(lang, roleDoes[e.Invite.Role], nil)
	}
	if a := e.Invite.AccessEndsAt; a != nil {
		v.AccessEnds = longTime(lang, *a)
	}
	var h, t bytes.Buffer
	if err := inviteHTML[lang].ExecuteTemplate(&h, "invite.html", v); err != nil {
		return Rendered{}, err
	}
	if err := inviteText[lang].ExecuteTemplate(&t, "invite.txt", v); err != nil {
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
