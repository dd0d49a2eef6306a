package mail

import (
	"errors"
	"net/url"
	"strings"

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
)

// Site is the site's absolute URL, which e-mails link under.
type Site struct{ u *url.URL }

var errNotAbsolute = errors.New("want an absolute http or https URL")

// ParseSite reads the site's absolute URL (e.g. https://regpulse.in/).
func ParseSite(siteURL string) (Site, error) {
	u, err := url.Parse(siteURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Site{}, &url.Error{Op: "site URL", URL: siteURL, Err: errNotAbsolute}
	}
	return Site{u}, nil
}

// Link is the absolute URL of a site path with query.
func (s Site) Link(path string, query url.Values) string {
	return s.u.ResolveReference(&url.URL{Path: strings.TrimPrefix(path, "/"), RawQuery: query.Encode()}).String()
}

// Summary is what an e-mail shows of c: its summary, else the start of
// its text, at most 280 characters.
func Summary(c catalog.Circular) string {
	summary := string(c.Summary)
	if summary == "" {
		summary = markdown.PlainText(c.Content)
	}
	return markdown.Preview(summary, 280)
}
