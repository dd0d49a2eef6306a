// Package atom writes Atom 1.0 feeds (RFC 4287): the generator's feeds of
// circulars and the API's feed of a search share these types.
package atom

import (
	"encoding/xml"
	"time"
)

type Link struct {
	Rel  string `xml:"rel,attr,omitempty"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
	// Title says what the link leads to (RFC 4287 4.2.7.5): a circular's
	// links carry their labels, "View on rbi.org.in", "Reported by ...".
	Title string `xml:"title,attr,omitempty"`
}

type Text struct {
	Type string `xml:"type,attr,omitempty"`
	Body string `xml:",chardata"`
}

type Category struct {
	Term string `xml:"term,attr"`
}

type Person struct {
	Name string `xml:"name"`
}

type Entry struct {
	Title      string     `xml:"title"`
	ID         string     `xml:"id"`
	Links      []Link     `xml:"link"`
	Published  string     `xml:"published"`
	Updated    string     `xml:"updated"`
	Author     Person     `xml:"author"`
	Categories []Category `xml:"category"`
	Summary    *Text      `xml:"summary"`
	Content    *Text      `xml:"content"`
}

type Feed struct {
	XMLName  xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
	Title    string   `xml:"title"`
	Subtitle string   `xml:"subtitle,omitempty"`
	ID       string   `xml:"id"`
	Updated  string   `xml:"updated"`
	Links    []Link   `xml:"link"`
	Author   Person   `xml:"author"`
	// Archive, set, marks an archive document (RFC 5005 section 4,
	// fh:archive): one whose entries never change.
	Archive *struct{} `xml:"http://purl.org/syndication/history/1.0 archive,omitempty"`
	Entries []Entry   `xml:"entry"`
}

// Date writes t as Atom's dates are written (RFC 3339).
func Date(t time.Time) string { return t.Format(time.RFC3339) }

// EmptyUpdated is the updated date of a feed with no entries: fixed, so
// that the same (empty) feed is the same bytes every time.
var EmptyUpdated = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Marshal writes the feed as an XML document.
func Marshal(f Feed) ([]byte, error) {
	out, err := xml.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}
