package generator

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
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
// regulator (catalog.Sources, "other" excluded).
func Feeds() []Feed {
	feeds := []Feed{{Title: "All regulator circulars", Atom: "/feeds/circulars.atom", JSON: "/feeds/circulars.json"}}
	for _, s := range catalog.Sources {
		if s == "other" {
			continue
		}
		slug := strings.ToLower(s)
		feeds = append(feeds, Feed{Title: s + " circulars", Source: s, Atom: "/feeds/" + slug + ".atom", JSON: "/feeds/" + slug + ".json"})
	}
	return feeds
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

// circularHeading is how a circular is named in lists: "number — title".
func circularHeading(c catalog.Circular) string {
	if c.CircularNumber == "" {
		return c.Title
	}
	return string(c.CircularNumber) + " — " + c.Title
}

// feedUpdated is the newest publication date, or a fixed date for an
// empty feed so that builds stay reproducible.
func feedUpdated(cs []catalog.Circular) time.Time {
	if len(cs) == 0 {
		return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return cs[0].PublishedDate.Time
}

type atomLink struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomText struct {
	Type string `xml:"type,attr,omitempty"`
	Body string `xml:",chardata"`
}

type atomCategory struct {
	Term string `xml:"term,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	Title      string         `xml:"title"`
	ID         string         `xml:"id"`
	Links      []atomLink     `xml:"link"`
	Published  string         `xml:"published"`
	Updated    string         `xml:"updated"`
	Author     atomPerson     `xml:"author"`
	Categories []atomCategory `xml:"category"`
	Summary    atomText       `xml:"summary"`
	Content    atomText       `xml:"content"`
}

type atomFeed struct {
	XMLName  xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	Title    string      `xml:"title"`
	Subtitle string      `xml:"subtitle"`
	ID       string      `xml:"id"`
	Updated  string      `xml:"updated"`
	Links    []atomLink  `xml:"link"`
	Author   atomPerson  `xml:"author"`
	Entries  []atomEntry `xml:"entry"`
}

// RenderAtom renders the feed as Atom 1.0 (RFC 4287).
func (f Feed) RenderAtom(cat *catalog.Catalog, baseURL string) ([]byte, error) {
	cs := f.circulars(cat)
	feed := atomFeed{
		Title:    "RegPulse: " + f.Title,
		Subtitle: "Regulator circulars with their impact on payment service providers, card issuers and aggregators.",
		ID:       absURL(baseURL, f.Atom),
		Updated:  feedUpdated(cs).Format(time.RFC3339),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: absURL(baseURL, f.Atom)},
			{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, f.alternate())},
		},
		Author: atomPerson{Name: "RegPulse"},
	}
	for _, c := range cs {
		body, err := markdown.HTML(c.Content)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Path, err)
		}
		links := []atomLink{{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, "/circulars/"+c.Slug)}}
		if c.OfficialURL != "" {
			links = append(links, atomLink{Rel: "related", Href: string(c.OfficialURL)})
		}
		date := c.PublishedDate.Format(time.RFC3339)
		feed.Entries = append(feed.Entries, atomEntry{
			Title:      circularHeading(c),
			ID:         "urn:uuid:" + c.ID,
			Links:      links,
			Published:  date,
			Updated:    date,
			Author:     atomPerson{Name: c.Source},
			Categories: []atomCategory{{Term: c.Category}, {Term: c.ImpactLevel + " impact"}, {Term: catalog.DocumentTypeLabel(c.DocumentType)}},
			Summary:    atomText{Type: "text", Body: entrySummary(c)},
			Content:    atomText{Type: "html", Body: body},
		})
	}
	out, err := xml.MarshalIndent(feed, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}

func entrySummary(c catalog.Circular) string {
	if c.Summary != "" {
		return string(c.Summary)
	}
	return circularPreview(c, cardPreviewLen)
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

// RenderJSON renders the feed as JSON Feed 1.1.
func (f Feed) RenderJSON(cat *catalog.Catalog, baseURL string) ([]byte, error) {
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
		body, err := markdown.HTML(c.Content)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Path, err)
		}
		item := jsonFeedItem{
			ID: c.ID, URL: absURL(baseURL, "/circulars/"+c.Slug), ExternalURL: string(c.OfficialURL),
			Title: circularHeading(c), ContentHTML: body, Summary: entrySummary(c),
			DatePublished: c.PublishedDate.Format(time.RFC3339),
			Tags:          []string{c.Source, c.Category, c.ImpactLevel + " impact", catalog.DocumentTypeLabel(c.DocumentType)},
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
