package alerts

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/indian"
	"regpulse/internal/mail"
)

//go:embed templates/*
var templateFS embed.FS

// mailTemplates are one e-mail's HTML and text templates.
type mailTemplates struct {
	html *htmltemplate.Template
	text *texttemplate.Template
}

var alertTemplates = mailTemplates{
	html: htmltemplate.Must(mail.HTMLTemplates(templateFS, "templates/alert.html")),
	text: texttemplate.Must(texttemplate.ParseFS(templateFS, "templates/alert.txt")),
}

// render executes the HTML template htmlName and the text one textName
// (a file's name for a whole e-mail, a define's for a part of one).
func (m mailTemplates) render(htmlName, textName string, data any) (renderedItem, error) {
	var h, t bytes.Buffer
	if err := m.html.ExecuteTemplate(&h, htmlName, data); err != nil {
		return renderedItem{}, err
	}
	if err := m.text.ExecuteTemplate(&t, textName, data); err != nil {
		return renderedItem{}, err
	}
	// The HTML template escaped every value.
	return renderedItem{HTML: htmltemplate.HTML(h.String()), Text: t.String()}, nil
}

// once is the part of e-mails kept under key, rendered the first time
// it is asked for.
func (l *Links) once(key string, render func() (renderedItem, error)) (renderedItem, error) {
	l.mu.Lock()
	it, ok := l.items[key]
	l.mu.Unlock()
	if ok {
		return it, nil
	}
	it, err := render()
	if err != nil {
		return it, err
	}
	l.mu.Lock()
	l.items[key] = it
	l.mu.Unlock()
	return it, nil
}

// Links makes the absolute URLs e-mails carry, and renders them. A
// circular's part of an e-mail is rendered once per set of entity types
// and kept for the Links' life (a run), so a daily run of many alerts
// sharing circulars renders each once.
type Links struct {
	site   mail.Site
	tokens *Tokens
	mu     sync.Mutex
	items  map[string]renderedItem // by circular id and business
}

type renderedItem struct {
	HTML htmltemplate.HTML
	Text string
}

// NewLinks links under siteURL (e.g. https://regpulse.in/), signing with
// tokens.
func NewLinks(siteURL string, tokens *Tokens) (*Links, error) {
	site, err := mail.ParseSite(siteURL)
	if err != nil {
		return nil, err
	}
	return &Links{site: site, tokens: tokens, items: map[string]renderedItem{}}, nil
}

// Unsubscribe is the alert's signed unsubscribe link (no sign-in).
func (l *Links) Unsubscribe(alertID string) string {
	return l.site.Link("/api/alerts/unsubscribe", url.Values{"token": {l.tokens.Unsubscribe(alertID)}})
}

// Manage is where a user manages their alerts.
func (l *Links) Manage() string { return l.site.Link("/profile", nil) + "#alerts" }

// Circular is a circular's page.
func (l *Links) Circular(slug string) string { return l.site.Link("/circulars/"+slug, nil) }

// Kinds of e-mail: an alert's frequency, or its fold.
const KindFold = "fold"

// Email is one alert e-mail's content, before rendering.
type Email struct {
	Alert     Alert
	Kind      string // Immediately, Daily, Weekly or KindFold
	Circulars []catalog.Circular
	// FoldAfter is the daily cap a fold mentions.
	FoldAfter int
	// ConfirmURL makes the e-mail an anonymous subscription's
	// confirmation (Circulars empty).
	ConfirmURL string
	// Reminder (ReminderWeek, ReminderDay) makes the e-mail (Kind
	// KindReminder) a reminder of its one circular's comment deadline,
	// as of Now.
	Reminder string
	Now      time.Time
}

type itemView struct {
	Title, Number, Regulator, Date, Impact, DocumentType, Summary string
	Draft                                                         bool
	PageURL, OfficialURL, LinkLabel                               string
}

type emailView struct {
	Subject, Name, Frequency, Intro, Fold, Email string
	Items                                        []renderedItem
	UnsubscribeURL, ManageURL, ConfirmURL        string
}

// Rendered is an e-mail ready to send.
type Rendered struct {
	Subject, Text, HTML, UnsubscribeURL string
}

// Subject is e's subject line.
func (e Email) Subject() string {
	n := len(e.Circulars)
	switch {
	case e.ConfirmURL != "":
		return fmt.Sprintf("Confirm your RegPulse alert %q", e.Alert.Name)
	case e.Kind == KindReminder && n == 1 && e.Circulars[0].CommentsDue != nil:
		return "RegPulse reminder: comments due " + e.Circulars[0].CommentsDue.Format("2 January 2006") + " on " + e.Circulars[0].Title
	case e.Kind == KindFold:
		return fmt.Sprintf("RegPulse alert %q: %s more today, in one e-mail", e.Alert.Name, circularsCount(n))
	case e.Kind == Immediately && n == 1:
		return "RegPulse alert: " + e.Circulars[0].Title
	case e.Kind == Daily:
		return fmt.Sprintf("RegPulse daily digest %q: %s", e.Alert.Name, circularsCount(n))
	case e.Kind == Weekly:
		return fmt.Sprintf("RegPulse weekly digest %q: %s", e.Alert.Name, circularsCount(n))
	}
	return fmt.Sprintf("RegPulse alert %q: %s", e.Alert.Name, circularsCount(n))
}

func circularsCount(n int) string {
	if n == 1 {
		return "1 new circular"
	}
	return indian.Int(n) + " new circulars"
}

// levelFor says a circular's impact level and for whom.
func levelFor(c catalog.Circular, business []string) string {
	lvl := Level(c, business)
	label := strings.ToUpper(lvl[:1]) + lvl[1:] + " impact"
	var named []string
	for _, ei := range c.EntityImpact {
		for _, b := range business {
			if ei.EntityType == b {
				named = append(named, b)
			}
		}
	}
	if len(named) > 0 {
		return label + " for " + strings.Join(named, ", ")
	}
	return label
}

// Render renders e for its alert's address.
func (l *Links) Render(e Email) (Rendered, error) {
	v := emailView{Subject: e.Subject(), Name: e.Alert.Name, Frequency: strings.ToUpper(FrequencyLabels[e.Alert.Frequency]),
		Email: e.Alert.Email, UnsubscribeURL: l.Unsubscribe(e.Alert.ID),
		ManageURL: l.Manage(), ConfirmURL: e.ConfirmURL}
	switch {
	case e.ConfirmURL != "":
		v.Intro = "Please confirm that you want RegPulse to e-mail you new circulars matching this alert (" +
			strings.ToLower(FrequencyLabels[e.Alert.Frequency]) + ")."
	case e.Kind == KindReminder && len(e.Circulars) == 1 && e.Circulars[0].CommentsDue != nil:
		v.Intro, v.Frequency = reminderIntro(e.Circulars[0], e.Now), "COMMENT DEADLINE REMINDER"
	case len(e.Circulars) == 1:
		v.Intro = "A new circular matches your alert."
	default:
		v.Intro = indian.Int(len(e.Circulars)) + " new circulars match your alert."
	}
	if e.Kind == KindFold {
		v.Fold = fmt.Sprintf("This alert sends at most %s e-mails a day. The %s it matched after that are gathered in this one e-mail; it sends immediately again from now on. To get fewer e-mails, make it a daily digest under Manage your alerts.",
			indian.Int(e.FoldAfter), pluralCirculars(len(e.Circulars)))
	}
	for _, c := range e.Circulars {
		it, err := l.item(c, e.Alert.Business)
		if err != nil {
			return Rendered{}, err
		}
		v.Items = append(v.Items, it)
	}
	r, err := alertTemplates.render("alert.html", "alert.txt", v)
	return Rendered{Subject: v.Subject, Text: r.Text, HTML: string(r.HTML), UnsubscribeURL: v.UnsubscribeURL}, err
}

// item is c's part of an e-mail for business, rendered once.
func (l *Links) item(c catalog.Circular, business []string) (renderedItem, error) {
	return l.once(c.ID+"|"+strings.Join(business, ","), func() (renderedItem, error) {
		v := itemView{Title: c.Title, Number: string(c.CircularNumber), Regulator: c.Source,
			Date: c.PublishedDate.Format("2 January 2006"), Impact: levelFor(c, business),
			DocumentType: catalog.DocumentTypeLabel(c.DocumentType), Draft: !catalog.Binding(c.DocumentType),
			Summary: mail.Summary(c), PageURL: l.Circular(c.Slug), OfficialURL: string(c.OfficialURL), LinkLabel: "Official document"}
		if v.OfficialURL == "" {
			// No official link known: the source the entry was made from.
			v.OfficialURL, v.LinkLabel = c.SourceURL, "Source"
		}
		return alertTemplates.render("item", "item", v)
	})
}

func pluralCirculars(n int) string {
	if n == 1 {
		return "1 circular"
	}
	return indian.Int(n) + " circulars"
}

// Confirm is an anonymous subscription's confirmation link, made at now.
func (l *Links) Confirm(alertID string, now time.Time) string {
	return l.site.Link("/api/alerts/confirm", url.Values{"token": {l.tokens.Confirm(alertID, now)}})
}
