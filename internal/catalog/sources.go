package catalog

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// SourceKinds are what a link to a circular's text is: the regulator's
// own page (official), a report by a law firm, newspaper or legal
// database (report), or anything else that copies or describes it
// (unofficial: blogs, aggregators, document dumps). A compliance officer
// cites the first; pages say which one each link is (SourceLinkLabel).
var SourceKinds = []string{"official", "report", "unofficial"}

// SourceForms are what form of an instrument a link is, when it is not
// the instrument's first text: its press release, its Hindi version, its
// PDF, or a repost (NPCI re-posting an OC under another address). Ingest
// writes them ("as") when it keeps a second copy of a circular as a link
// on the first rather than a second draft; pages name them in the label.
var SourceForms = []string{"press-release", "hindi", "pdf", "repost"}

// OfficialURLConfidences say how well an officialUrl was matched to its
// circular: high when a source shows the address beside the circular's
// number, or its title and date; medium for a title-only match, a press
// release standing in for the document, or an address not re-checked.
// An editor reviews the medium ones (regpulse check lists them).
var OfficialURLConfidences = []string{"high", "medium"}

// regulatorHosts are the domains of each regulator's own site, as the
// official links in content show them (a subdomain counts: rbidocs,
// website). A link of kind official must be on one of its regulator's
// domains; a regulator not listed is not checked.
var regulatorHosts = map[string][]string{
	"RBI":   {"rbi.org.in"},
	"PRB":   {"rbi.org.in"}, // the Payments Regulatory Board sits within the RBI
	"NPCI":  {"npci.org.in"},
	"SEBI":  {"sebi.gov.in"},
	"PFRDA": {"pfrda.org.in"},
}

// SourceLink is one link to where a circular can be read, with what it
// is and how pages name it. A circular's Links are derived by the loader:
// its officialUrl first, then sourceUrl and additionalSourceUrls, each
// address once.
type SourceLink struct {
	URL  string `json:"url"`
	Kind string `json:"kind" enum:"SourceKind"`
	// As is the link's form (SourceForms), "" for the text itself.
	As string `json:"as,omitempty" enum:"SourceForm"`
	// Host is the link's host without "www.", shown beside it so a
	// reader sees where it leads.
	Host string `json:"host"`
	// Label is the link's text: "View on rbi.org.in", "Reported by
	// taxmann.com", "Unofficial copy on scribd.com".
	Label string `json:"label"`
}

// NewSourceLink is the link to u of kind k, with its host and label.
func NewSourceLink(u, k string) SourceLink { return NewSourceLinkAs(u, k, "") }

// NewSourceLinkAs is the link to u of kind k in the form as (one of
// SourceForms, or "" for the text itself).
func NewSourceLinkAs(u, k, as string) SourceLink {
	h := LinkHost(u)
	label := SourceLinkLabel(k, h)
	if as != "" && k != "report" {
		label = sourceFormLabel(k, as, h)
	}
	return SourceLink{URL: u, Kind: k, As: as, Host: h, Label: label}
}

// sourceFormLabel names a link in a form: "Hindi version on rbi.org.in",
// "Unofficial repost on example.com".
func sourceFormLabel(k, as, h string) string {
	form := map[string]string{"press-release": "press release", "hindi": "Hindi version", "pdf": "PDF", "repost": "repost"}[as]
	if k == "official" {
		return strings.ToUpper(form[:1]) + form[1:] + " on " + h
	}
	return "Unofficial " + form + " on " + h
}

// SourceLinkLabel is how pages, feeds and exports name a link of kind k
// on host h.
func SourceLinkLabel(k, h string) string {
	switch k {
	case "official":
		return "View on " + h
	case "report":
		return "Reported by " + h
	default:
		return "Unofficial copy on " + h
	}
}

// LinkHost is u's host in lower case without a leading "www." ("" when u
// is no URL).
func LinkHost(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(p.Hostname()), "www.")
}

// NormaliseLink is the key links are compared by: scheme and host in
// lower case (http and https alike), no fragment, no trailing slash; ok
// is false for anything but an absolute http(s) URL.
func NormaliseLink(s string) (key string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Host == "" {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	default:
		return "", false
	}
	u.Scheme = "https"
	u.Host = strings.ToLower(u.Host)
	u.Fragment, u.RawFragment = "", ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u.String(), true
}

// OnRegulatorSite reports whether u is on one of source's own domains;
// known is false for a regulator whose domains are not listed.
func OnRegulatorSite(source, u string) (on, known bool) {
	hosts, known := regulatorHosts[source]
	h := LinkHost(u)
	for _, d := range hosts {
		if h == d || strings.HasSuffix(h, "."+d) {
			return true, true
		}
	}
	return false, known
}

// onAnyRegulatorSite reports whether u is on any regulator's domain.
func onAnyRegulatorSite(u string) bool {
	for s := range regulatorHosts {
		if on, _ := OnRegulatorSite(s, u); on {
			return true
		}
	}
	return false
}

// OfficialLink is the link of c's officialUrl, if it has one (the first
// of its Links).
func (c Circular) OfficialLink() (SourceLink, bool) {
	if c.OfficialURL == "" || len(c.Links) == 0 {
		return SourceLink{}, false
	}
	return c.Links[0], true
}

// SecondaryLinks are c's links after its officialUrl's, in order.
func (c Circular) SecondaryLinks() []SourceLink {
	if _, ok := c.OfficialLink(); ok {
		return c.Links[1:]
	}
	return c.Links
}

// additionalSources reads additionalSourceUrls: a list whose items are
// maps {url, kind} (or, as older files have them, bare URLs, whose kind
// is then unknown: ""). The URLs are returned alone too, as the field
// the store and the ingester compare links by.
func (f *fields) additionalSources(name string) (urls []string, links []SourceLink) {
	f.spec(name, func(s *fieldSpec) { s.kind = listField })
	f.describeSub(name, func(s *fields) { // the keys read below (an item may be a bare URL too)
		s.link("url", true)
		s.enum("kind", false, SourceKinds)
		s.enum("as", false, SourceForms)
	})
	n := f.node(name, false)
	urls = []string{}
	if n == nil {
		return urls, nil
	}
	if n.Kind != yaml.SequenceNode {
		f.addAt(n.Line, name, "must be a list")
		return urls, nil
	}
	for _, item := range n.Content {
		var u, k, as string
		line := item.Line
		switch item.Kind {
		case yaml.ScalarNode:
			u = strings.TrimSpace(item.Value)
		case yaml.MappingNode:
			for i := 0; i+1 < len(item.Content); i += 2 {
				key, v := item.Content[i], item.Content[i+1]
				switch {
				case key.Value == "url" && v.Kind == yaml.ScalarNode:
					u, line = strings.TrimSpace(v.Value), v.Line
				case key.Value == "kind" && v.Kind == yaml.ScalarNode:
					k = strings.TrimSpace(v.Value)
					if !slices.Contains(SourceKinds, k) {
						f.addAt(v.Line, name, "unknown kind %q (allowed: %s)", k, strings.Join(SourceKinds, ", "))
						k = ""
					}
				case key.Value == "as" && v.Kind == yaml.ScalarNode:
					as = strings.TrimSpace(v.Value)
					if !slices.Contains(SourceForms, as) {
						f.addAt(v.Line, name, "unknown form %q in as (allowed: %s)", as, strings.Join(SourceForms, ", "))
						as = ""
					}
				default:
					f.addAt(key.Line, name, "unknown key %q in a source (want url, kind and as)", key.Value)
				}
			}
		default:
			f.addAt(item.Line, name, "list items must be URLs or maps like {url: https://..., kind: report}")
			continue
		}
		switch {
		case u == "":
			f.addAt(line, name, "list items must be non-empty text")
		case !validLink(u):
			f.addAt(line, name, "not a valid http(s) URL: %q", u)
		default:
			urls = append(urls, u)
			links = append(links, SourceLink{URL: u, Kind: k, As: as})
		}
	}
	return urls, links
}

// sourceLinks derives c.Links and checks each link's kind: official links
// on the regulator's own site, reports and copies off it. A link with no
// kind is labelled an unofficial copy and warned of: saying more than we
// know about a link is what this field prevents.
func (l *loader) sourceLinks(f *fields, c *Circular, extra []SourceLink) {
	at := func(field string) int { return f.keyLines[field] }
	var links []SourceLink
	seen := map[string]bool{}
	add := func(field string, sl SourceLink) {
		key, ok := NormaliseLink(sl.URL)
		if !ok || seen[key] {
			return
		}
		seen[key] = true
		switch sl.Kind {
		case "official":
			if on, known := OnRegulatorSite(c.Source, sl.URL); known && !on {
				f.addAt(at(field), field, "%s is not on %s's own site (%s): an official link is the regulator's page",
					LinkHost(sl.URL), c.Source, strings.Join(regulatorHosts[c.Source], ", "))
			}
		case "report", "unofficial":
			if onAnyRegulatorSite(sl.URL) {
				f.addAt(at(field), field, "%s is a regulator's site: its kind is official", LinkHost(sl.URL))
			}
		case "":
			l.warn(f, at(field), field, "says not what %s is (kind: official, report or unofficial): pages label it an unofficial copy", LinkHost(sl.URL))
			sl.Kind = "unofficial"
		}
		links = append(links, NewSourceLinkAs(sl.URL, sl.Kind, sl.As))
	}
	if c.OfficialURL != "" {
		add("officialUrl", SourceLink{URL: string(c.OfficialURL), Kind: "official"})
	}
	if c.SourceURL != "" {
		isOfficial := seen[mustNormalise(c.SourceURL)]
		switch {
		case c.SourceKind == "" && isOfficial:
			c.SourceKind = "official" // the official link itself, as regpulse ingest writes it
		case c.SourceKind == "" && onAnyRegulatorSite(c.SourceURL):
			// A regulator's page is official whatever it is (the rule
			// below for reports), and "official" is checked against
			// the circular's own regulator.
			c.SourceKind = "official"
		case c.SourceKind != "" && c.SourceKind != "official" && isOfficial:
			f.addAt(at("sourceKind"), "sourceKind", "sourceUrl is the officialUrl: its kind is official")
		}
		add("sourceUrl", SourceLink{URL: c.SourceURL, Kind: string(c.SourceKind)})
	}
	for _, sl := range extra {
		add("additionalSourceUrls", sl)
	}
	c.Links = links
	if c.OfficialURLConfidence != "" && c.OfficialURL == "" {
		f.addAt(at("officialUrlConfidence"), "officialUrlConfidence", "says how officialUrl was matched, and there is no officialUrl")
	}
	if c.OfficialURL == "" && c.Source != SourceOther {
		l.warn(f, at("source"), "officialUrl", "no official link: find %s's own page for this circular", c.Source)
	}
}

func mustNormalise(u string) string {
	k, _ := NormaliseLink(u)
	return k
}

// warn records something regpulse check reports without failing: content
// that is allowed but that an editor should improve.
func (l *loader) warn(f *fields, yamlLine int, field, format string, args ...any) {
	l.cat.Warnings = append(l.cat.Warnings, Problem{Path: f.path, Line: f.lineBase + yamlLine, Field: field,
		Message: fmt.Sprintf(format, args...)})
}
