package catalog

import (
	"net/url"
	"strings"
)

// HindiVersion is where the regulator publishes a circular's Hindi
// version (the Official Languages Act has RBI, SEBI, IRDAI, PFRDA and
// NPCI publish in both): the page of its Hindi text and its Hindi
// reference number (RBI's भारिबैं/2020-21/60 for RBI/2020-21/60). The
// circular's page links it; the pairing is the editors', recorded in
// content, never guessed.
type HindiVersion struct {
	// URL is the Hindi version's page: https, on the regulator's own
	// domain (regulatorHosts) when its domains are known.
	URL string `json:"url"`
	// Number is the Hindi reference number as the regulator writes it;
	// empty when the Hindi version has none of its own.
	Number string `json:"number"`
}

// hindiVersion reads name, a map {url, number}, of a circular from
// source.
func (f *fields) hindiVersion(name, source string) *HindiVersion {
	read := func(s *fields) *HindiVersion {
		return &HindiVersion{URL: s.link("url", true), Number: s.str("number", false)}
	}
	h, s := objectOf(f, name, "{url, number}: the regulator's Hindi page and its Hindi reference number", read)
	if h == nil || h.URL == "" {
		return nil // reported: missing or not a URL
	}
	line := s.keyLines["url"]
	if u, err := url.Parse(h.URL); err != nil || u.Scheme != "https" {
		s.addAt(line, "url", "must be an https address: %q", h.URL)
		return nil
	}
	if on, known := OnRegulatorSite(source, h.URL); known && !on {
		s.addAt(line, "url", "%s is not on %s's own site (%s): link the regulator's Hindi version, not a copy",
			LinkHost(h.URL), source, strings.Join(regulatorHosts[source], ", "))
		return nil
	}
	return h
}
