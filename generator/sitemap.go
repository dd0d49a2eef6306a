package generator

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/i18n"
)

// SitemapPath is the sitemap index robots.txt names; the sitemaps it
// lists are sitemaps/1.xml, sitemaps/2.xml…
const SitemapPath = "sitemap.xml"

// sitemapMaxURLs is how many URLs one sitemap file holds: the protocol's
// limit is 50,000 (and 50 MB, which 50,000 of our URLs stay far below).
// A variable so that a test can split a small site.
var sitemapMaxURLs = 50000

// sitemapURL is one page of the sitemap with the date its content last
// changed (empty when the content has no date of its own).
type sitemapURL struct {
	Loc     string `xml:"loc"`
	LastMod string `xml:"lastmod,omitempty"`
}

// sitemapURLs are every page of the site, each with its content's date: a
// circular's published date, a list page's newest entry's date.
func sitemapURLs(cat *catalog.Catalog, now time.Time, baseURL string) []sitemapURL {
	abs := func(route string) string { return strings.TrimSuffix(baseURL, "/") + route }
	var out []sitemapURL
	lists := siteLists(cat, now, noPreview)
	newest := map[string]string{} // route → date of its newest entry
	for _, l := range lists {
		for n := 1; n <= l.pages(); n++ {
			if from := (n - 1) * ListPageSize; from < len(l.items) {
				i := l.items[from] // lists run newest first
				switch {
				case l.kind == "news":
					newest[l.pageRoute(n)] = cat.News[i].PublishedDate.String()
				case l.kind == "impact":
					newest[l.pageRoute(n)] = l.entries[i].PublishedDate.String()
				case l.base == ConsultationsPath: // open ones first, by deadline: the page's newest anywhere on it
					for _, j := range l.items[from:min(from+ListPageSize, len(l.items))] {
						newest[l.pageRoute(n)] = max(newest[l.pageRoute(n)], cat.Circulars[j].PublishedDate.String())
					}
				default:
					newest[l.pageRoute(n)] = cat.Circulars[i].PublishedDate.String()
				}
			}
		}
	}
	for _, r := range staticRoutes {
		out = append(out, sitemapURL{Loc: abs(r.Path), LastMod: newest[r.Path]})
	}
	for _, n := range cat.Networks {
		out = append(out, sitemapURL{Loc: abs("/payment-networks/" + n.Slug)})
	}
	out = append(out, sitemapURL{Loc: abs("/payment-body")}, sitemapURL{Loc: abs("/circulars"), LastMod: newest["/circulars"]})
	for _, b := range cat.Bodies {
		r := "/payment-body/" + b.Slug
		out = append(out, sitemapURL{Loc: abs(r), LastMod: newest[r]})
	}
	for _, c := range cat.Circulars {
		out = append(out, sitemapURL{Loc: abs(circularRoute(c.Slug)), LastMod: c.PublishedDate.String()})
	}
	for _, r := range listRoutes(lists) {
		out = append(out, sitemapURL{Loc: abs(r), LastMod: newest[r]})
	}
	// every page again in each other language (its head names the
	// alternates: _partials/head.html)
	en := len(out)
	base := strings.TrimSuffix(baseURL, "/")
	for _, lang := range i18n.Languages[1:] {
		for _, u := range out[:en] {
			out = append(out, sitemapURL{Loc: base + lang.Path(strings.TrimPrefix(u.Loc, base)), LastMod: u.LastMod})
		}
	}
	return out
}

// circularRoute is the route of a circular's page.
func circularRoute(slug string) string { return "/circulars/" + slug }

// renderSitemaps writes the URLs into sitemap files of at most
// sitemapMaxURLs each and returns them by path, with the index at
// SitemapPath (its lastmod is each file's newest).
func renderSitemaps(urls []sitemapURL, baseURL string) (map[string][]byte, error) {
	type urlset struct {
		XMLName xml.Name     `xml:"urlset"`
		NS      string       `xml:"xmlns,attr"`
		URLs    []sitemapURL `xml:"url"`
	}
	type index struct {
		XMLName  xml.Name     `xml:"sitemapindex"`
		NS       string       `xml:"xmlns,attr"`
		Sitemaps []sitemapURL `xml:"sitemap"`
	}
	const ns = "http://www.sitemaps.org/schemas/sitemap/0.9"
	encode := func(v any) ([]byte, error) {
		var b bytes.Buffer
		b.WriteString(xml.Header)
		enc := xml.NewEncoder(&b)
		enc.Indent("", "  ")
		if err := enc.Encode(v); err != nil {
			return nil, err
		}
		b.WriteByte('\n')
		return b.Bytes(), nil
	}
	out := map[string][]byte{}
	idx := index{NS: ns}
	for i := 0; i*sitemapMaxURLs < len(urls) || i == 0; i++ {
		part := urls[i*sitemapMaxURLs : min((i+1)*sitemapMaxURLs, len(urls))]
		name := fmt.Sprintf("sitemaps/%d.xml", i+1)
		data, err := encode(urlset{NS: ns, URLs: part})
		if err != nil {
			return nil, err
		}
		out[name] = data
		var last string
		for _, u := range part {
			last = max(last, u.LastMod) // YYYY-MM-DD sorts as text
		}
		idx.Sitemaps = append(idx.Sitemaps, sitemapURL{Loc: baseURL + name, LastMod: last})
	}
	data, err := encode(idx)
	if err != nil {
		return nil, err
	}
	out[SitemapPath] = data
	return out, nil
}
