package teammail

import (
	"bytes"
	"context"
	"embed"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"

	"regpulse/internal/decisions"
	"regpulse/internal/i18n"
	"regpulse/internal/mail"
	"regpulse/internal/teams"
)

//go:embed templates/*
var templateFS embed.FS

var (
	mentionHTML  = must(mail.HTMLByLanguage(templateFS, "templates/mention.html"))
	mentionText  = must(mail.TextByLanguage(templateFS, "templates/mention.txt"))
	reminderHTML = must(mail.HTMLByLanguage(templateFS, "templates/reminder.html"))
	reminderText = must(mail.TextByLanguage(templateFS, "templates/reminder.txt"))
)

// ProfilePath is the page where a user turns these e-mails off, at its
// section of them.
const ProfilePath = "/profile"

// ProfileAnchor is the profile's section of the team's e-mails.
const ProfileAnchor = "team-emails"

// MentionEmail is the e-mail to a member a comment @mentions.
type MentionEmail struct {
	To           teams.Member // the member mentioned
	Author       string       // who commented, as the e-mail names them
	Organisation string       // its name
	Comment      decisions.Comment
	Subject      Page
	Site         mail.Site // the links' base
	// Language is the language of the member's e-mails ("": English).
	Language string
}

// NewMention is the e-mail telling to that author (a member) mentioned
// them in c, on subject's page of organisation.
func NewMention(to, author teams.Member, organisation string, c decisions.Comment, subject Page, site mail.Site) MentionEmail {
	return MentionEmail{To: to, Author: name(author.FirstName, author.LastName, author.Username), Organisation: organisation,
		Comment: c, Subject: subject, Site: site}
}

type mentionView struct {
	Subject, Author, Organisation, Title, Body string
	When, Email                                string
	SubjectURL, ProfileURL                     string
	// OnBefore and OnAfter are the words around the linked title in
	// "On {title}, {when}:" in the e-mail's language.
	OnBefore, OnAfter string
}

// Render renders e.
func (e MentionEmail) Render() (Rendered, error) {
	lang := i18n.Of(e.Language).Code
	v := mentionView{Subject: i18n.T(lang, "teamMail.mentionSubject", map[string]any{"Author": e.Author, "Title": e.Subject.Title}),
		Author: e.Author, Organisation: e.Organisation, Title: e.Subject.Title, Body: e.Comment.Body,
		When: i18n.Date(lang, e.Comment.CreatedAt.UTC(), "2 January 2006, 15:04 UTC"), Email: e.To.Email,
		SubjectURL: e.Site.LinkIn(lang, e.Subject.Path, nil), ProfileURL: e.Site.LinkIn(lang, ProfilePath, nil) + "#" + ProfileAnchor}
	const title = "\x00"
	v.OnBefore, v.OnAfter, _ = strings.Cut(i18n.T(lang, "teamMail.mentionOn", map[string]any{"Title": title, "When": v.When}), title)
	return render(mentionHTML[lang], mentionText[lang], "mention", v.Subject, v)
}

// render executes the HTML and text templates of the e-mail name on v.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func render(h *htmltemplate.Template, t *texttemplate.Template, name, subject string, v any) (Rendered, error) {
	var hb, tb bytes.Buffer
	if err := h.ExecuteTemplate(&hb, name+".html", v); err != nil {
		return Rendered{}, err
	}
	if err := t.ExecuteTemplate(&tb, name+".txt", v); err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: subject, Text: tb.String(), HTML: hb.String()}, nil
}

// Message is e as sent by snd at now: a one-off message (no list
// headers), named after the comment and the member.
func (e MentionEmail) Message(snd mail.Sender, now time.Time) (mail.Message, error) {
	r, err := e.Render()
	if err != nil {
		return mail.Message{}, err
	}
	return mail.Message{To: e.To.Email, Subject: r.Subject, MessageID: e.name() + "@" + snd.Domain, Date: now, Text: r.Text, HTML: r.HTML}, nil
}

func (e MentionEmail) name() string {
	return "mention-" + e.Comment.ID + "-" + url.PathEscape(e.To.UserID)
}

// Mailer sends the mentions' e-mails as the comments are made: through
// Transport (SMTP, or .eml files), one connection per comment.
type Mailer struct {
	Sender mail.Sender
	// Transport opens the way out for one comment's e-mails.
	Transport func() (mail.Transport, error)
	Now       func() time.Time // nil: time.Now
}

// SendMentions delivers es, each once, and answers the addresses that
// failed with why (every one is tried).
func (m *Mailer) SendMentions(ctx context.Context, es []MentionEmail) (map[string]error, error) {
	if len(es) == 0 {
		return nil, nil
	}
	now := time.Now
	if m.Now != nil {
		now = m.Now
	}
	tr, err := m.Transport()
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	failed := map[string]error{}
	for _, e := range es {
		msg, err := e.Message(m.Sender, now())
		if err != nil {
			return failed, err
		}
		built, err := m.Sender.Build(msg)
		if err != nil {
			return failed, err
		}
		if err := tr.Deliver(ctx, built, e.name()); err != nil {
			failed[e.To.Email] = err
		}
	}
	return failed, nil
}
