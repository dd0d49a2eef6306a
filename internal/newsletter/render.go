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
	"regpulse/internal/mail"
	"regpulse/internal/markdown"
)

//go:embed templates/*
var templateFS embed.FS

var (
	htmlTemplates = htmltemplate.Must(mail.HTMLTemplates(templateFS, "templates/*.html"))
	textTemplates = texttemplate.Must(texttemplate.New("").Funcs(texttemplate.FuncMap{"upper": strings.ToUpper}).ParseFS(templateFS, "templates/*.txt"))
)

// Rendered is one subscriber's digest.
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
	bodies map[string]body // by topic set
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

// UnsubscribeURL is the subscriber's signed unsubscribe link.
func (r *Renderer) UnsubscribeURL(subscriberID string) string {
	return r.link("/api/newsletter/unsubscribe", url.Values{"token": {r.tokens.Token(subscriberID)}})
}

// Subject is the issue's subject line.
func (r *Renderer) Subject() string {
	return "RegPulse monthly update: " + r.issue.Month.Format("January 2006")
}

// Render renders the issue for sub.
func (r *Renderer) Render(sub Subscriber) (Rendered, error) {
	topics := normalTopics(sub.Preferences)
	key := strings.Join(topics, ",")
	b, ok := r.bodies[key]
	if !ok {
		v := r.view(topics)
		var h, t bytes.Buffer
		if err := htmlTemplates.ExecuteTemplate(&h, "sections.html", v); err != nil {
			return Rendered{}, err
		}
		if err := textTemplates.ExecuteTemplate(&t, "sections.txt", v); err != nil {
			return Rendered{}, err
		}
		b = body{html: htmltemplate.HTML(h.String()), text: t.String()}
		r.bodies[key] = b
	}
	frame := frameView{Subject: r.Subject(), Month: r.issue.Month.Format("January 2006"), Greeting: greeting(sub),
		Body: b.html, BodyText: b.text, UnsubscribeURL: r.UnsubscribeURL(sub.ID), SiteURL: r.link("/", nil),
		NewsletterURL: r.link("/newsletter", nil), Email: sub.Email}
	var h, t bytes.Buffer
	if err := htmlTemplates.ExecuteTemplate(&h, "digest.html", frame); err != nil {
		return Rendered{}, err
	}
	if err := textTemplates.ExecuteTemplate(&t, "digest.txt", frame); err != nil {
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

func greeting(s Subscriber) string {
	if s.FirstName != "" {
		return "Hello " + s.FirstName + ","
	}
	return "Hello,"
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
		TopicLabels   []string
		NoCirculars   bool // the month had none at all: said once, at the top
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

func (r *Renderer) circular(c catalog.Circular) circularView {
	v := circularView{Title: c.Title, URL: r.link("/circulars/"+c.Slug, nil), Number: string(c.CircularNumber),
		Date: c.PublishedDate.Format("2 January 2006"), Category: c.Category, Summary: mail.Summary(c),
		Impact: c.ImpactLevel, ImpactLabel: strings.ToUpper(c.ImpactLevel[:1]) + c.ImpactLevel[1:] + " impact",
		ImpactColor:  impactColors[c.ImpactLevel],
		Verification: catalog.VerificationLabel(string(c.Verification)), Unchecked: c.AwaitsVerification()}
	if c.EffectiveDate != nil {
		v.EffectiveDate = c.EffectiveDate.Format("2 January 2006")
	}
	return v
}

// view chooses the sections for a set of topics: regulatory, the month's
// circulars by regulator; payments, the payment circulars (when
// regulatory is not chosen) and payment news; fintech, all the news;
// compliance, the high-impact circulars and what takes effect soon;
// events, upcoming SIBOS and major industry events.
func (r *Renderer) view(topics []string) sectionsView {
	is := r.issue
	has := func(t string) bool { return slices.Contains(topics, t) }
	v := sectionsView{Month: is.Month.Format("January 2006"), NoCirculars: len(is.Circulars) == 0}
	for _, t := range topics {
		v.TopicLabels = append(v.TopicLabels, TopicLabels[t])
	}
	if has(TopicRegulatory) || has(TopicPayments) {
		v.CircularTitle = "Regulatory updates"
		keep := func(c catalog.Circular) bool { return true }
		if !has(TopicRegulatory) {
			v.CircularTitle = "Payment systems circulars"
			keep = func(c catalog.Circular) bool { return slices.Contains(paymentCircularCategories, c.Category) }
		}
		for _, src := range catalog.Sources {
			g := regulatorGroup{Source: src}
			for _, c := range is.Circulars {
				if c.Source == src && keep(c) {
					g.Circulars = append(g.Circulars, r.circular(c))
				}
			}
			if len(g.Circulars) > 0 {
				v.Groups = append(v.Groups, g)
			}
		}
	}
	if has(TopicFintech) || has(TopicPayments) {
		v.NewsTitle = "Fintech news"
		if !has(TopicFintech) {
			v.NewsTitle = "Payments news"
		}
		for _, n := range is.News {
			if has(TopicFintech) || slices.Contains(paymentNewsCategories, n.Category) {
				v.News = append(v.News, newsView{Title: n.Title, URL: n.SourceURL, Source: n.Source,
					Date: n.PublishedDate.Format("2 January 2006"), Excerpt: markdown.Preview(n.Excerpt, 200)})
			}
		}
	}
	if has(TopicCompliance) {
		cv := &complianceView{}
		for _, c := range is.Circulars {
			if c.ImpactLevel == "high" {
				cv.High = append(cv.High, r.circular(c))
			}
		}
		for _, c := range is.Effective {
			cv.Effective = append(cv.Effective, r.circular(c))
		}
		v.Compliance = cv
	}
	if has(TopicEvents) {
		for _, s := range is.Sibos {
			sv := sibosView{Title: s.Title, Where: joinNonEmpty(", ", string(s.Venue), string(s.Location)), Theme: string(s.Theme),
				URL: r.link("/sibos-events", nil)}
			if s.StartDate != nil {
				sv.When = s.StartDate.Format("2 January 2006")
				if s.EndDate != nil {
					sv.When += " to " + s.EndDate.Format("2 January 2006")
				}
			}
			v.Sibos = append(v.Sibos, sv)
		}
		for _, e := range is.Events {
			v.Events = append(v.Events, eventView{Name: e.Name, Where: string(e.Location), Frequency: string(e.Frequency),
				URL: r.link("/fintech-events", nil)})
		}
	}
	return v
}

func joinNonEmpty(sep string, parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), sep)
}
