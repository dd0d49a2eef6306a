package teammail

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	texttemplate "text/template"
	"time"

	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/teams"
)

//go:embed templates/*
var templateFS embed.FS

var (
	mentionHTML  = htmltemplate.Must(mail.HTMLTemplates(templateFS, "templates/mention.html"))
	mentionText  = texttemplate.Must(texttemplate.ParseFS(templateFS, "templates/mention.txt"))
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
}

// Render renders e.
func (e MentionEmail) Render() (Rendered, error) {
	v := mentionView{Subject: fmt.Sprintf("%s mentioned you on %s", e.Author, e.Subject.Title), Author: e.Author,
		Organisation: e.Organisation, Title: e.Subject.Title, Body: e.Comment.Body, When: longTime(e.Comment.CreatedAt), Email: e.To.Email,
		SubjectURL: e.Site.Link(e.Subject.Path, nil), ProfileURL: e.Site.Link(ProfilePath, nil) + "#" + ProfileAnchor}
	return render(mentionHTML, mentionText, "mention", v.Subject, v)
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
