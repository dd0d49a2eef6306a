package generator

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"regpulse/internal/atom"
	"regpulse/internal/catalog"
)

// Feed is one published feed of circulars.
type Feed struct {
	Title  string // e.g. "RBI circulars"
	Source string // "" for all sources
	Atom   string // site path, e.g. /feeds/rbi.atom
	JSON   string // site path, e.g. /feeds/rbi.json
}

// feedLimit caps each feed: readers want what is new, not the archive.
const feedLimit = 100

// Feeds lists the feeds the site publishes: all circulars and one per
// regulator (catalog.Regulators).
func Feeds() []Feed {
	feeds := []Feed{{Title: "All regulator circulars", Atom: "/feeds/circulars.atom", JSON: "/feeds/circulars.json"}}
	for _, s := range catalog.Regulators {
		slug := strings.ToLower(s)
		feeds = append(feeds, Feed{Title: s + " circulars", Source: s, Atom: "/feeds/" + slug + ".atom", JSON: "/feeds/" + slug + ".json"})
	}
	return feeds
}

// feedTitle is f's Title as pages name it (their <link> tags), in every
// language: the feeds themselves are English.
func feedTitle(f Feed) localText {
	if f.Source == "" {
		return keyText("feed.all", nil)
	}
	return keyText("feed.source", map[string]any{"Source": f.Source})
}

func (f Feed) circulars(cat *catalog.Catalog) []catalog.Circular {
	var out []catalog.Circular
	for _, c := range cat.Circulars { // already newest first
		if f.Source == "" || c.Source == f.Source {
			out = append(out, c)
		}
		if len(out) == feedLimit {
			break
		}
	}
	return out
}

// feedUpdated is the newest publication date, or a fixed date for an
// empty feed so that builds stay reproducible.
func feedUpdated(cs []catalog.Circular) time.Time {
	if len(cs) == 0 {
		return atom.EmptyUpdated
	}
	return cs[0].PublishedDate.Time
}

// renderAtom renders the feed as Atom 1.0 (RFC 4287), with the circulars'
// texts already rendered in txt.
func (f Feed) renderAtom(cat *catalog.Catalog, baseURL string, txt texts) ([]byte, error) {
	cs := f.circulars(cat)
	feed := atom.Feed{
		Title:    "RegPulse: " + f.Title,
		Subtitle: "Regulator circulars with their impact on payment service providers, card issuers and aggregators.",
		ID:       absURL(baseURL, f.Atom),
		Updated:  feedUpdated(cs).Format(time.RFC3339),
		Links: []atom.Link{
			{Rel: "self", Type: "application/atom+xml", Href: absURL(baseURL, f.Atom)},
			{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, f.alternate())},
		},
		Author: atom.Person{Name: "RegPulse"},
	}
	for _, c := range cs {
		body, err := txt.html(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Path, err)
		}
		links := append([]atom.Link{{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, "/circulars/"+c.Slug)}}, sourceAtomLinks(c)...)
		date := c.PublishedDate.Format(time.RFC3339)
		var categories []atom.Category
		for _, t := range entryTags(c) {
			categories = append(categories, atom.Category{Term: t})
		}
		feed.Entries = append(feed.Entries, atom.Entry{
			Title:      c.Heading(),
			ID:         "urn:uuid:" + c.ID,
			Links:      links,
			Published:  date,
			Updated:    date,
			Author:     atom.Person{Name: c.Source},
			Categories: categories,
			Summary:    &atom.Text{Type: "text", Body: entrySummary(c, txt)},
			Content:    &atom.Text{Type: "html", Body: verificationHTML(c) + body + sourcesHTML(c)},
		})
	}
	return atom.Marshal(feed)
}

// entryTags are an entry's Atom categories and JSON Feed tags besides its
// source: category, impact, document type and, when the entry says, how
// far it was checked against the regulator's text.
func entryTags(c catalog.Circular) []string {
	tags := []string{c.Category, c.ImpactLevel + " impact", catalog.DocumentTypeLabel(c.DocumentType)}
	if l := catalog.VerificationLabel(string(c.Verification)); l != "" {
		tags = append(tags, l)
	}
	return tags
}

// sourceAtomLinks are c's links as an Atom entry's: the regulator's own
// page an alternate of the entry (beside the portal's page, which is
// text/html: Atom allows one alternate per type), the reports and copies
// related, each titled with its label.
func sourceAtomLinks(c catalog.Circular) []atom.Link {
	var out []atom.Link
	if l, ok := c.OfficialLink(); ok {
		out = append(out, atom.Link{Rel: "alternate", Href: l.URL, Title: l.Label})
	}
	for _, l := range c.SecondaryLinks() {
		out = append(out, atom.Link{Rel: "related", Href: l.URL, Title: l.Label})
	}
	return out
}

// sourcesHTML is the paragraph ending a feed entry's content: every link
// of the circular with the label its page shows, so a feed reader that
// ignores link titles still says which is the regulator's ("" for none).
func sourcesHTML(c catalog.Circular) string {
	if len(c.Links) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n<p>Sources: ")
	for i, l := range c.Links {
		if i > 0 {
			b.WriteString(" · ")
		}
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, html.EscapeString(l.URL), html.EscapeString(l.Label))
	}
	b.WriteString("</p>\n")
	return b.String()
}

// verificationHTML is the note a circular's page shows on its
// verification, as the first paragraph of its feed entry, so that a
// reader of the feed sees it too ("" when the entry does not say).
func verificationHTML(c catalog.Circular) string {
	v := string(c.Verification)
	if v == "" {
		return ""
	}
	return "<p><strong>" + html.EscapeString(catalog.VerificationLabel(v)) + ".</strong> " +
		html.EscapeString(catalog.VerificationNote(v)) + "</p>\n"
}

func entrySummary(c catalog.Circular, txt texts) string {
	if c.Summary != "" {
		return string(c.Summary)
	}
	return txt.preview(c, catalog.CardPreviewLen)
}

type jsonFeedItem struct {
	ID            string   `json:"id"`
	URL           string   `json:"url"`
	ExternalURL   string   `json:"external_url,omitempty"`
	Title         string   `json:"title"`
	ContentHTML   string   `json:"content_html"`
	Summary       string   `json:"summary"`
	DatePublished string   `json:"date_published"`
	Tags          []string `json:"tags"`
	Authors       []struct {
		Name string `json:"name"`
	} `json:"authors"`
}

type jsonFeed struct {
	Version     string         `json:"version"`
	Title       string         `json:"title"`
	HomePageURL string         `json:"home_page_url"`
	FeedURL     string         `json:"feed_url"`
	Description string         `json:"description"`
	Language    string         `json:"language"`
	Items       []jsonFeedItem `json:"items"`
}

// renderJSON renders the feed as JSON Feed 1.1, with the circulars'
// texts already rendered in txt.
func (f Feed) renderJSON(cat *catalog.Catalog, baseURL string, txt texts) ([]byte, error) {
	feed := jsonFeed{
		Version:     "https://jsonfeed.org/version/1.1",
		Title:       "RegPulse: " + f.Title,
		HomePageURL: absURL(baseURL, f.alternate()),
		FeedURL:     absURL(baseURL, f.JSON),
		Description: "Regulator circulars with their impact on payment service providers, card issuers and aggregators.",
		Language:    "en-IN",
		Items:       []jsonFeedItem{},
	}
	for _, c := range f.circulars(cat) {
		body, err := txt.html(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Path, err)
		}
		item := jsonFeedItem{
			ID: c.ID, URL: absURL(baseURL, "/circulars/"+c.Slug), ExternalURL: string(c.OfficialURL),
			Title: c.Heading(), ContentHTML: verificationHTML(c) + body + sourcesHTML(c), Summary: entrySummary(c, txt),
			DatePublished: c.PublishedDate.Format(time.RFC3339),
			Tags:          append([]string{c.Source}, entryTags(c)...),
		}
		item.Authors = append(item.Authors, struct {
			Name string `json:"name"`
		}{c.Source})
		feed.Items = append(feed.Items, item)
	}
	return json.MarshalIndent(feed, "", "  ")
}

// alternate is the HTML page the feed mirrors.
func (f Feed) alternate() string {
	if f.Source == "" {
		return "/circulars"
	}
	return "/search?source=" + f.Source
}

func absURL(baseURL, path string) string {
	return strings.TrimSuffix(baseURL, "/") + path
}
