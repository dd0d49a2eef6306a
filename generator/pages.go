package generator

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
)

// page is one Hugo content file the generator writes into its temporary
// site: front matter chosen here, layout from templates/. A body is
// Markdown rendered by internal/markdown, as the feeds are, and Hugo takes
// it as HTML (a file ending in .html), so every page renders Markdown the
// same way.
type page struct {
	file  string         // path under the site's content/ folder
	front map[string]any // Hugo front matter, until encoded
	body  string         // Markdown, until encoded
	// content is the content file once encoded (encode): the front
	// matter as JSON, then the body as HTML; layout and url are the
	// front's, kept for the pages' keys.
	content     []byte
	layout, url string
	// text is a circular's text, already rendered. It is not the page's
	// body: writeSite puts it at textFile in the site, and the circular's
	// template reads it as it renders (readFile .Params.text), so Hugo
	// does not hold every text, parsed and rendered, for the whole build.
	text, textFile string
	// group is the Hugo run that renders the page (chunks.go); shows are
	// the circulars whose views it reads (its own, its list's items).
	group pageGroup
	shows []string
}

// Route is one path of the site with the title its page has.
type Route struct {
	Path   string
	Title  string
	Layout string
}

// staticRoutes are the site's routes that do not depend on
// content. "/" is the dashboard; /dashboard is the same screen.
var staticRoutes = []Route{
	{"/", "Dashboard", "dashboard"},
	{"/dashboard", "Dashboard", "dashboard"},
	{"/login", "Sign In", "login"},
	{"/signup", "Create Account", "signup"},
	{"/profile", "Profile", "profile"},
	{"/obligations", "My Obligations", "obligations"},
	{"/search", "Search Regulatory Documents", "search"},
	{"/news", "Fintech News & Updates", "news"},
	{"/impact-tracker", "Impact Tracker Dashboard", "impact-tracker"},
	{"/global-fintech", "Fintech Leaders & Founders", "global-fintech"},
	{"/pii-regulations", "Global PII & Privacy Regulations", "pii-regulations"},
	{"/payment-networks", "Payment Networks & Card Schemes", "payment-networks"},
	{"/newsletter", "Newsletter", "newsletter"},
	{"/newsletter/subscribed", "You're Subscribed", "newsletter-subscribed"},
	{"/newsletter/unsubscribed", "You're Unsubscribed", "newsletter-unsubscribed"},
	{"/sibos-events", "SIBOS Events", "sibos-events"},
	{"/fintech-events", "Other Global Fintech Events", "fintech-events"},
	{"/learning-videos", "Learning Videos", "learning-videos"},
	{"/summarizer", "AI Document Summarizer", "summarizer"},
	{"/fintech-leaders", "Top Fintech Leaders", "fintech-leaders"},
}

// Routes lists every page path the built site must contain.
func Routes(cat *catalog.Catalog, now time.Time) []string {
	var out []string
	for _, r := range staticRoutes {
		out = append(out, r.Path)
	}
	for _, n := range cat.Networks {
		out = append(out, "/payment-networks/"+n.Slug)
	}
	for _, b := range catalog.BodyNames {
		out = append(out, "/payment-body/"+strings.ToLower(b))
	}
	for _, c := range cat.Circulars {
		out = append(out, "/circulars/"+c.Slug)
	}
	return append(out, listRoutes(siteLists(cat, now, noPreview))...)
}

// bodyNotFoundPath is the page of an unknown payment body.
const bodyNotFoundPath = "/payment-body/404.html"

// sidebarEvents are the slugs of the sidebar's seven event links
// (templates/_partials/sidebar.html), which must exist in content/events.
var sidebarEvents = []string{"finovate", "global-fintech-fest", "hong-kong-fintech-week", "money2020", "sibos",
	"singapore-fintech-festival", "world-fintech-festival"}

// checkSite reports content the site's fixed structure needs: the
// four payment bodies and the sidebar's seven events.
func checkSite(cat *catalog.Catalog, contentDir string) error {
	have := map[string]bool{}
	for _, b := range cat.Bodies {
		have["bodies/"+b.Slug] = true
	}
	for _, e := range cat.Events {
		if e.Group == "major" {
			have["events/"+e.Slug] = true
		}
	}
	var missing []string
	for _, b := range catalog.BodyNames {
		if p := "bodies/" + strings.ToLower(b); !have[p] {
			missing = append(missing, filepath.Join(contentDir, p+".md")+": payment body "+b+" is required (the site routes /payment-body/"+strings.ToLower(b)+")")
		}
	}
	for _, e := range sidebarEvents {
		if p := "events/" + e; !have[p] {
			missing = append(missing, filepath.Join(contentDir, p+".md")+": the sidebar's event (group: major) is required")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("content lacks %d required entr(ies):\n%s", len(missing), strings.Join(missing, "\n"))
	}
	return checkListRoutes(cat)
}

// sitePages is every page of the site, as Hugo content files, bodies still
// in Markdown, but the kept circulars' pages (the output has them); shown
// are the circulars each circular's page shows (circularShows).
func sitePages(cat *catalog.Catalog, now time.Time, txt texts, kept map[string]bool, shown map[string][]string) []page {
	var pages []page
	lists := siteLists(cat, now, txt.preview)
	// the first page of a list that is a route of its own gets its pager here
	firstPager := map[string]map[string]any{}
	firstShows := map[string][]string{}
	for _, l := range lists {
		if l.file == "" {
			firstPager[l.base], firstShows[l.base] = l.pagerFront(1), l.shows(1)
		}
	}
	for _, r := range staticRoutes {
		file := strings.TrimPrefix(r.Path, "/") + ".md"
		switch r.Path {
		case "/":
			file = "_index.md"
		case "/payment-networks":
			file = "payment-networks/_index.md" // the section of the per-network pages
		}
		front := map[string]any{"title": r.Title, "layout": r.Layout}
		if r.Path != "/" {
			front["url"] = r.Path + "/"
		}
		var shows []string
		if p, ok := firstPager[r.Path]; ok {
			front["pager"] = p
			shows = firstShows[r.Path]
		}
		pages = append(pages, page{file: file, front: front, shows: shows})
	}
	for _, n := range cat.Networks {
		pages = append(pages, entryPage("payment-networks", n.Entry, n.Name, "network", n.Profile))
	}
	pages = append(pages, page{file: "payment-body/_index.md",
		front: map[string]any{"title": "Payment Bodies", "layout": "payment-bodies"}})
	for _, b := range cat.Bodies {
		p := entryPage("payment-body", b.Entry, b.Name, "payment-body", b.Profile)
		p.front["pager"] = firstPager["/payment-body/"+b.Slug]
		p.shows = append(slices.Clone(firstShows["/payment-body/"+b.Slug]), b.RecentUpdates...)
		pages = append(pages, p)
	}
	// What /payment-body/{unknown} shows: internal/web serves the nearest
	// 404.html, and netlify.toml sends /payment-body/* here with a 404.
	pages = append(pages, page{file: "payment-body/not-found.md",
		front: map[string]any{"title": "Payment Body Not Found", "layout": "payment-body-missing", "url": bodyNotFoundPath}})
	pages = append(pages, page{file: "circulars/_index.md",
		front: map[string]any{"title": "All Circulars", "layout": "circulars", "pager": firstPager["/circulars"]},
		shows: firstShows["/circulars"]})
	for _, l := range lists {
		pages = append(pages, l.extraPages()...)
	}
	for _, c := range cat.Circulars {
		if kept[c.Slug] {
			continue // the output has it, rendered from the same inputs
		}
		p := entryPage("circulars", c.Entry, c.Title, "circular", catalog.OptString(c.Content))
		p.front["date"] = c.PublishedDate.String()
		p.body = ""
		// renderTexts rendered every circular: into the temporary site's
		// folder (Build), or kept for writePages to write (the benchmark's
		// site for the Hugo CLI)
		p.text, p.textFile = txt[c.Slug].Marked, textFile(c.Slug)
		p.front["text"] = p.textFile
		if obs := txt[c.Slug].Obligations; len(obs) > 0 {
			p.front["obligations"] = obs
		}
		p.group, p.shows = groupCircular, append([]string{c.Slug}, shown[c.Slug]...)
		pages = append(pages, p)
	}
	return pages
}

// entryPage is the page of one entry under section, whose Markdown body
// (a profile, perhaps empty) Hugo gets as HTML.
func entryPage(section string, e catalog.Entry, title, layout string, body catalog.OptString) page {
	return page{
		file:  section + "/" + e.Slug + ".html",
		front: map[string]any{"title": title, "layout": layout, "slug": e.Slug},
		body:  string(body),
	}
}

// encode turns p's front matter and body into its content file. At
// 100,000 circulars the pages' front matter is some 1.5 million maps,
// slices and strings, which the collector would scan through every one of
// Hugo's runs; their files are bytes it never scans.
func (p *page) encode() error {
	if p.content != nil {
		return nil
	}
	front, err := json.Marshal(p.front)
	if err != nil {
		return fmt.Errorf("%s: %w", p.file, err)
	}
	var body string
	if p.body != "" {
		if body, err = markdown.HTML(p.body); err != nil {
			return fmt.Errorf("%s: %w", p.file, err)
		}
	}
	// JSON front matter: Hugo reads a leading JSON object as front matter.
	p.content = append(append(front, '\n', '\n'), body...)
	p.layout, _ = p.front["layout"].(string)
	p.url, _ = p.front["url"].(string)
	p.front, p.body = nil, ""
	return nil
}

// encodePages encodes pages on every core.
func encodePages(ctx context.Context, pages []page) error {
	return inBatches(ctx, len(pages), 512, func(i int) error { return pages[i].encode() })
}
