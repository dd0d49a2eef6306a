package newsletter

import (
	"bytes"
	"embed"
	htmltemplate "html/template"
	"net/url"
	"slices"
	"strings"
	texttemplate "text/template"

	"regpulse/internal/catalog"
	"regpulse/internal/i18n"
	"regpulse/internal/mail"
	"regpulse/internal/markdown"
)

//go:embed templates/*
var templateFS embed.FS

var (
	htmlTemplates = must(mail.HTMLByLanguage(templateFS, "templates/*.html"))
	textTemplates = must(textByLanguage())
)

// Rendered is one subscriber's digest.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// textByLanguage are the text templates by language, with upper.
func textByLanguage() (map[string]*texttemplate.Template, error) {
	out := map[string]*texttemplate.Template{}
	for _, l := range i18n.Languages {
		t, err := texttemplate.New("").Funcs(mail.Funcs(l.Code)).Funcs(texttemplate.FuncMap{"upper": strings.ToUpper}).
			ParseFS(templateFS, "templates/*.txt")
		if err != nil {
			return nil, err
		}
		out[l.Code] = t
	}
	return out, nil
}

type Rendered struct {
	Subject, HTML, Text string
	UnsubscribeURL      string
}

// Renderer renders an issue for each subscriber. The sections depend only
// on the subscriber's topics, so each set of topics is rendered once and
// reused; only the greeting and the unsubscribe link are per subscriber.
// A Renderer is not safe for concurrent use.
type Renderer struct {
	issue  Issue
	site   mail.Site
	tokens *Tokens
	bodies map[string]body // by language and topic set
}

type body struct {
	html htmltemplate.HTML
	text string
}

// NewRenderer renders issue with links under siteURL (the site's
// absolute URL, e.g. https://regpulse.in/) and unsubscribe links signed
// by tokens.
func NewRenderer(issue Issue, siteURL string, tokens *Tokens) (*Renderer, error) {
	site, err := mail.ParseSite(siteURL)
	if err != nil {
		return nil, err
	}
	return &Renderer{issue: issue, site: site, tokens: tokens, bodies: map[string]body{}}, nil
}

// link is the absolute URL of a site path.
func (r *Renderer) link(path string, query url.Values) string { return r.site.Link(path, query) }

// linkIn is link to the page of path in the language of code.
func (r *Renderer) linkIn(code, path string) string { return r.site.LinkIn(code, path, nil) }

// UnsubscribeURL is the subscriber's signed unsubscribe link.
func (r *Renderer) UnsubscribeURL(subscriberID string) string {
	return r.link("/api/newsletter/unsubscribe", url.Values{"token": {r.tokens.Token(subscriberID)}})
}

// Subject is the issue's subject line.
func (r *Renderer) Subject() string { return r.SubjectIn(i18n.English.Code) }

// SubjectIn is the subject in the language of code.
func (r *Renderer) SubjectIn(code string) string {
	return i18n.T(code, "newsletterMail.subject", map[string]any{"Month": r.month(code)})
}

// month is the issue's month as the language of code writes it.
func (r *Renderer) month(code string) string { return i18n.Date(code, r.issue.Month, "January 2006") }

// Render renders the issue for sub.
func (r *Renderer) Render(sub Subscriber) (Rendered, error) {
	topics := normalTopics(sub.Preferences)
	lang := i18n.Of(sub.Language).Code
	key := lang + ":" + strings.Join(topics, ",")
	b, ok := r.bodies[key]
	if !ok {
		v := r.view(lang, topics)
		var h, t bytes.Buffer
		if err := htmlTemplates[lang].ExecuteTemplate(&h, "sections.html", v); err != nil {
			return Rendered{}, err
		}
		if err := textTemplates[lang].ExecuteTemplate(&t, "sections.txt", v); err != nil {
			return Rendered{}, err
		}
		b = body{html: htmltemplate.HTML(h.String()), text: t.String()}
		r.bodies[key] = b
	}
	frame := frameView{Subject: r.SubjectIn(lang), Month: r.month(lang), Greeting: greeting(lang, sub),
		Body: b.html, BodyText: b.text, UnsubscribeURL: r.UnsubscribeURL(sub.ID), SiteURL: r.linkIn(lang, "/"),
		NewsletterURL: r.linkIn(lang, "/newsletter"), Email: sub.Email}
	var h, t bytes.Buffer
	if err := htmlTemplates[lang].ExecuteTemplate(&h, "digest.html", frame); err != nil {
		return Rendered{}, err
	}
	if err := textTemplates[lang].ExecuteTemplate(&t, "digest.txt", frame); err != nil {
		return Rendered{}, err
	}
	return Rendered{Subject: frame.Subject, HTML: h.String(), Text: t.String(), UnsubscribeURL: frame.UnsubscribeURL}, nil
}

// normalTopics are the known topics of prefs in the forms' order; none
// known (an old or emptied record) means the defaults.
func normalTopics(prefs []string) []string {
	var out []string
	for _, t := range Topics {
		if slices.Contains(prefs, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return DefaultTopics
	}
	return out
}

func greeting(code string, s Subscriber) string {
	if s.FirstName != "" {
		return i18n.T(code, "newsletterMail.hello", map[string]any{"Name": s.FirstName})
	}
	return i18n.T(code, "newsletterMail.helloAnyone", nil)
}

// The views the templates read.
type (
	frameView struct {
		Subject, Month, Greeting string
		Body                     htmltemplate.HTML
		BodyText                 string
		UnsubscribeURL, SiteURL  string
		NewsletterURL, Email     string
	}
	sectionsView struct {
		Month         string
		Topics        string // the subscriber's topics' labels, listed
		NoCirculars   bool   // the month had none at all: said once, at the top
		CircularTitle string
		Groups        []regulatorGroup
		NewsTitle     string
		News          []newsView
		Compliance    *complianceView
		Sibos         []sibosView
		Events        []eventView
	}
	regulatorGroup struct {
		Source    string
		Circulars []circularView
	}
	circularView struct {
		Title, URL, Number, Date, Category, Summary string
		Impact, ImpactLabel, ImpactColor            string
		EffectiveDate                               string
		// Verification is the label of how far the entry was checked
		// against the regulator's text ("" when it does not say);
		// Unchecked when it still awaits that check.
		Verification string
		Unchecked    bool
	}
	newsView       struct{ Title, URL, Source, Date, Excerpt string }
	complianceView struct{ High, Effective []circularView }
	sibosView      struct{ Title, When, Where, Theme, URL string }
	eventView      struct{ Name, Where, Frequency, URL string }
)

// Circular categories and news categories that belong to the payments topic.
var (
	paymentCircularCategories = []string{"Payment Systems", "UPI", "CBDC", "Digital Payments"}
	paymentNewsCategories     = []string{"Payment Systems", "CBDC", "Digital Banking"}
)

// impactColors are the badges' colours, readable on light and dark.
var impactColors = map[string]string{"high": "#b91c1c", "medium": "#b45309", "low": "#15803d"}

// The catalogue's keys of the topics' labels, the impact levels' and the
// verifications'.
var (
	topicKeys = map[string]string{TopicRegulatory: "newsletterMail.topicRegulatory", TopicPayments: "newsletterMail.topicPayments",
		TopicFintech: "newsletterMail.topicFintech", TopicEvents: "newsletterMail.topicEvents", TopicCompliance: "newsletterMail.topicCompliance"}
	impactKeys   = map[string]string{"high": "newsletterMail.impactHigh", "medium": "newsletterMail.impactMedium", "low": "newsletterMail.impactLow"}
	verifiedKeys = map[string]string{"checked": "newsletterMail.verifiedChecked", "reported": "newsletterMail.verifiedReported",
		"pending": "newsletterMail.verifiedPending"}
)

// label is key's text in the language of code, or else when key is "".
func label(code, key, orElse string) string {
	if key == "" {
		return orElse
	}
	return i18n.T(code, key, nil)
}

func (r *Renderer) circular(code string, c catalog.Circular) circularView {
	v := circularView{Title: c.Title, URL: r.linkIn(code, "/circulars/"+c.Slug), Number: string(c.CircularNumber),
		Date: i18n.Date(code, c.PublishedDate.Time, "2 January 2006"), Category: c.Category, Summary: mail.Summary(c),
		Impact:       c.ImpactLevel,
		ImpactLabel:  label(code, impactKeys[c.ImpactLevel], strings.ToUpper(c.ImpactLevel[:1])+c.ImpactLevel[1:]+" impact"),
		ImpactColor:  impactColors[c.ImpactLevel],
		Verification: label(code, verifiedKeys[string(c.Verification)], catalog.VerificationLabel(string(c.Verification))),
		Unchecked:    c.AwaitsVerification()}
	if c.EffectiveDate != nil {
		v.EffectiveDate = i18n.Date(code, c.EffectiveDate.Time, "2 January 2006")
	}
	return v
}

// view chooses the sections for a set of topics: regulatory, the month's
// circulars by regulator; payments, the payment circulars (when
// regulatory is not chosen) and payment news; fintech, all the news;
// compliance, the high-impact circulars and what takes effect soon;
// events, upcoming SIBOS and major industry events.
func (r *Renderer) view(code string, topics []string) sectionsView {
	is := r.issue
	has := func(t string) bool { return slices.Contains(topics, t) }
	v := sectionsView{Month: r.month(code), NoCirculars: len(is.Circulars) == 0}
	var labels []string
	for _, t := range topics {
		labels = append(labels, label(code, topicKeys[t], TopicLabels[t]))
	}
	v.Topics = strings.Join(labels, ", ")
	if has(TopicRegulatory) || has(TopicPayments) {
		v.CircularTitle = i18n.T(code, "newsletterMail.regulatoryUpdates", nil)
		keep := func(c catalog.Circular) bool { return true }
		if !has(TopicRegulatory) {
			v.CircularTitle = i18n.T(code, "newsletterMail.paymentCirculars", nil)
			keep = func(c catalog.Circular) bool { return slices.Contains(paymentCircularCategories, c.Category) }
		}
		for _, src := range catalog.Sources {
			g := regulatorGroup{Source: src}
			for _, c := range is.Circulars {
				if c.Source == src && keep(c) {
					g.Circulars = append(g.Circulars, r.circular(code, c))
				}
			}
			if len(g.Circulars) > 0 {
				v.Groups = append(v.Groups, g)
			}
		}
	}
	if has(TopicFintech) || has(TopicPayments) {
		v.NewsTitle = i18n.T(code, "newsletterMail.fintechNews", nil)
		if !has(TopicFintech) {
			v.NewsTitle = i18n.T(code, "newsletterMail.paymentsNews", nil)
		}
		for _, n := range is.News {
			if has(TopicFintech) || slices.Contains(paymentNewsCategories, n.Category) {
				v.News = append(v.News, newsView{Title: n.Title, URL: n.SourceURL, Source: n.Source,
					Date: i18n.Date(code, n.PublishedDate.Time, "2 January 2006"), Excerpt: markdown.Preview(n.Excerpt, 200)})
			}
		}
	}
	if has(TopicCompliance) {
		cv := &complianceView{}
		for _, c := range is.Circulars {
			if c.ImpactLevel == "high" {
				cv.High = append(cv.High, r.circular(code, c))
			}
		}
		for _, c := range is.Effective {
			cv.Effective = append(cv.Effective, r.circular(code, c))
		}
		v.Compliance = cv
	}
	if has(TopicEvents) {
		for _, s := range is.Sibos {
			sv := sibosView{Title: s.Title, Where: joinNonEmpty(", ", string(s.Venue), string(s.Location)), Theme: string(s.Theme),
				URL: r.linkIn(code, "/sibos-events")}
			if s.StartDate != nil {
				sv.When = i18n.Date(code, s.StartDate.Time, "2 January 2006")
				if s.EndDate != nil {
					sv.When = i18n.T(code, "newsletterMail.dateRange", map[string]any{"From": sv.When, "To": i18n.Date(code, s.EndDate.Time, "2 January 2006")})
				}
			}
			v.Sibos = append(v.Sibos, sv)
		}
		for _, e := range is.Events {
			v.Events = append(v.Events, eventView{Name: e.Name, Where: string(e.Location), Frequency: string(e.Frequency),
				URL: r.linkIn(code, "/fintech-events")})
		}
	}
	return v
}

func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}
