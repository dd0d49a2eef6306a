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
	"regpulse/internal/i18n"
	"regpulse/internal/indian"
	"regpulse/internal/mail"
)

//go:embed templates/*
var templateFS embed.FS

// mailTemplates are one e-mail's HTML and text templates, by language
// code (mail.HTMLByLanguage): each with that language's T and date.
type mailTemplates struct {
	html map[string]*htmltemplate.Template
	text map[string]*texttemplate.Template
}

func parseTemplates(name string) mailTemplates {
	html, err := mail.HTMLByLanguage(templateFS, "templates/"+name+".html")
	if err != nil {
		panic(err)
	}
	text, err := mail.TextByLanguage(templateFS, "templates/"+name+".txt")
	if err != nil {
		panic(err)
	}
	return mailTemplates{html: html, text: text}
}

var alertTemplates = parseTemplates("alert")

// render executes the HTML template htmlName and the text one textName
// (a file's name for a whole e-mail, a define's for a part of one),
// in the language of code.
func (m mailTemplates) render(code, htmlName, textName string, data any) (renderedItem, error) {
	code = i18n.Of(code).Code
	var h, t bytes.Buffer
	if err := m.html[code].ExecuteTemplate(&h, htmlName, data); err != nil {
		return renderedItem{}, err
	}
	if err := m.text[code].ExecuteTemplate(&t, textName, data); err != nil {
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

// Manage is where a user manages their alerts, in English.
func (l *Links) Manage() string { return l.ManageIn(i18n.English.Code) }

// ManageIn is where a user manages their alerts, the page in the
// language of code.
func (l *Links) ManageIn(code string) string { return l.site.LinkIn(code, "/profile", nil) + "#alerts" }

// Circular is a circular's page, in English.
func (l *Links) Circular(slug string) string { return l.CircularIn(i18n.English.Code, slug) }

// CircularIn is a circular's page in the language of code.
func (l *Links) CircularIn(code, slug string) string {
	return l.site.LinkIn(code, "/circulars/"+slug, nil)
}

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
	// BecauseBefore and BecauseAfter are the words around the quoted
	// name in "You receive this because … set up the alert "{name}"."
	BecauseBefore, BecauseAfter string
}

// Rendered is an e-mail ready to send.
type Rendered struct {
	Subject, Text, HTML, UnsubscribeURL string
}

// Subject is e's subject line, in its alert's language.
func (e Email) Subject() string {
	lang := i18n.Of(e.Alert.Language).Code
	n := len(e.Circulars)
	name := fmt.Sprintf("%q", e.Alert.Name)
	count := i18n.T(lang, "alertsMail.newCirculars", map[string]any{"Count": n, "N": indian.Int(n)})
	t := func(key string, data map[string]any) string { return i18n.T(lang, key, data) }
	switch {
	case e.ConfirmURL != "":
		return t("alertsMail.confirmSubject", map[string]any{"Name": name})
	case e.Kind == KindReminder && n == 1 && e.Circulars[0].CommentsDue != nil:
		return t("alertsMail.reminderSubject", map[string]any{"Date": i18n.Date(lang, e.Circulars[0].CommentsDue.Time, "2 January 2006"),
			"Title": e.Circulars[0].Title})
	case e.Kind == KindFold:
		return t("alertsMail.foldSubject", map[string]any{"Name": name, "Circulars": count})
	case e.Kind == Immediately && n == 1:
		return t("alertsMail.immediateSubject", map[string]any{"Title": e.Circulars[0].Title})
	case e.Kind == Daily:
		return t("alertsMail.dailySubject", map[string]any{"Name": name, "Circulars": count})
	case e.Kind == Weekly:
		return t("alertsMail.weeklySubject", map[string]any{"Name": name, "Circulars": count})
	}
	return t("alertsMail.alertSubject", map[string]any{"Name": name, "Circulars": count})
}

// frequencyKeys name each frequency in the e-mails (FrequencyLabels'
// English).
var frequencyKeys = map[string]string{Immediately: "alertsMail.immediately", Daily: "alertsMail.daily", Weekly: "alertsMail.weekly"}

// impactKeys name each impact level ("High impact").
var impactKeys = map[string]string{"high": "alertsMail.impactHigh", "medium": "alertsMail.impactMedium", "low": "alertsMail.impactLow"}

// documentTypeKeys name each document type (catalog.DocumentTypeLabel's
// English).
var documentTypeKeys = map[string]string{
	"circular":           "alertsMail.typeCircular",
	"direction":          "alertsMail.typeDirection",
	"master-direction":   "alertsMail.typeMasterDirection",
	"amendment":          "alertsMail.typeAmendment",
	"notification":       "alertsMail.typeNotification",
	"draft":              "alertsMail.typeDraft",
	"discussion-paper":   "alertsMail.typeDiscussionPaper",
	"consultation-paper": "alertsMail.typeConsultationPaper",
	"advisory":           "alertsMail.typeAdvisory",
	"press-release":      "alertsMail.typePressRelease",
	"policy":             "alertsMail.typePolicy",
}

// documentType is the name of document type t in the language of code.
func documentType(code, t string) string {
	if key, ok := documentTypeKeys[t]; ok {
		return i18n.T(code, key, nil)
	}
	return catalog.DocumentTypeLabel(t)
}

// frequency is the name of frequency f in the language of code.
func frequency(code, f string) string {
	if key, ok := frequencyKeys[f]; ok {
		return i18n.T(code, key, nil)
	}
	return FrequencyLabels[f]
}

// levelFor says a circular's impact level and for whom, in the language
// of code.
func levelFor(code string, c catalog.Circular, business []string) string {
	lvl := Level(c, business)
	label := strings.ToUpper(lvl[:1]) + lvl[1:] + " impact"
	if key, ok := impactKeys[lvl]; ok {
		label = i18n.T(code, key, nil)
	}
	var named []string
	for _, ei := range c.EntityImpact {
		for _, b := range business {
			if ei.EntityType == b {
				named = append(named, b)
			}
		}
	}
	if len(named) > 0 {
		return i18n.T(code, "alertsMail.impactFor", map[string]any{"Impact": label, "Types": strings.Join(named, ", ")})
	}
	return label
}

// Render renders e for its alert's address, in its alert's language.
func (l *Links) Render(e Email) (Rendered, error) {
	lang := i18n.Of(e.Alert.Language).Code
	v := emailView{Subject: e.Subject(), Name: e.Alert.Name, Frequency: strings.ToUpper(frequency(lang, e.Alert.Frequency)),
		Email: e.Alert.Email, UnsubscribeURL: l.Unsubscribe(e.Alert.ID),
		ManageURL: l.ManageIn(lang), ConfirmURL: e.ConfirmURL}
	n := len(e.Circulars)
	switch {
	case e.ConfirmURL != "":
		v.Intro = i18n.T(lang, "alertsMail.confirmIntro", map[string]any{"Frequency": strings.ToLower(frequency(lang, e.Alert.Frequency))})
	case e.Kind == KindReminder && n == 1 && e.Circulars[0].CommentsDue != nil:
		v.Intro = reminderIntro(lang, e.Circulars[0], e.Now)
		v.Frequency = strings.ToUpper(i18n.T(lang, "alertsMail.reminderKicker", nil))
	default:
		v.Intro = i18n.T(lang, "alertsMail.intro", map[string]any{"Count": n, "N": indian.Int(n)})
	}
	if e.Kind == KindFold {
		v.Fold = i18n.T(lang, "alertsMail.fold", map[string]any{"Max": indian.Int(e.FoldAfter),
			"Circulars": i18n.T(lang, "alertsMail.circulars", map[string]any{"Count": n, "N": indian.Int(n)})})
	}
	// The alert's name is quoted by the templates: its quotes are not
	// the catalogue's text, which carries no markup to escape.
	const name = "\x00"
	v.BecauseBefore, v.BecauseAfter, _ = strings.Cut(i18n.T(lang, "alertsMail.because", map[string]any{"Email": v.Email, "Name": name}), name)
	for _, c := range e.Circulars {
		it, err := l.item(lang, c, e.Alert.Business)
		if err != nil {
			return Rendered{}, err
		}
		v.Items = append(v.Items, it)
	}
	r, err := alertTemplates.render(lang, "alert.html", "alert.txt", v)
	return Rendered{Subject: v.Subject, Text: r.Text, HTML: string(r.HTML), UnsubscribeURL: v.UnsubscribeURL}, err
}

// item is c's part of an e-mail for business in the language of code,
// rendered once.
func (l *Links) item(code string, c catalog.Circular, business []string) (renderedItem, error) {
	return l.once(code+"|"+c.ID+"|"+strings.Join(business, ","), func() (renderedItem, error) {
		v := itemView{Title: c.Title, Number: string(c.CircularNumber), Regulator: c.Source,
			Date: i18n.Date(code, c.PublishedDate.Time, "2 January 2006"), Impact: levelFor(code, c, business),
			DocumentType: documentType(code, c.DocumentType), Draft: !catalog.Binding(c.DocumentType),
			Summary: mail.Summary(c), PageURL: l.CircularIn(code, c.Slug), OfficialURL: string(c.OfficialURL),
			LinkLabel: i18n.T(code, "alertsMail.officialDocument", nil)}
		if v.OfficialURL == "" {
			// No official link known: the source the entry was made from.
			v.OfficialURL, v.LinkLabel = c.SourceURL, i18n.T(code, "alertsMail.source", nil)
		}
		return alertTemplates.render(code, "item", "item", v)
	})
}

// Confirm is an anonymous subscription's confirmation link, made at now.
func (l *Links) Confirm(alertID string, now time.Time) string {
	return l.site.Link("/api/alerts/confirm", url.Values{"token": {l.tokens.Confirm(alertID, now)}})
}
