package generator

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
)

// The groups of the site's pages, beyond the site's own (render.SiteGroup:
// the dashboard, the directories, the first pages of the lists): each is
// rendered in runs of its own with only the data its pages read.
const (
	// groupCircular: circulars' pages, with circularPageData only.
	groupCircular render.Group = iota + 1
	// groupList: the lists' further pages, with listPageData only.
	groupList
	// groupDirection: the Master Directions' pages, whose views are in
	// their front matter, with the shell's data (circularPageData) only.
	groupDirection
)

// Route is one path of the site with the title its page has.
type Route struct {
	Path     string
	TitleKey string // the title's key in the catalogue (internal/i18n)
	Layout   string
}

// staticRoutes are the site's routes that do not depend on
// content. "/" is the dashboard; /dashboard is the same screen.
var staticRoutes = []Route{
	{"/", "title.home", "dashboard"},
	{"/dashboard", "title.dashboard", "dashboard"},
	{"/login", "title.login", "login"},
	{"/signup", "title.signup", "signup"},
	{"/profile", "title.profile", "profile"},
	{"/obligations", "title.obligations", "obligations"},
	{"/organisation", "title.organisation", "organisation"},
	{"/organisation/board", "title.organisationBoard", "organisation-board"},
	{"/work", "title.work", "work"},
	{"/organisation/register", "title.organisationRegister", "organisation-register"},
	{"/join", "title.join", "join"},
	{"/search", "title.search", "search"},
	{"/news", "title.news", "news"},
	{"/impact-tracker", "title.impactTracker", "impact-tracker"},
	{"/global-fintech", "title.globalFintech", "global-fintech"},
	{"/pii-regulations", "title.piiRegulations", "pii-regulations"},
	{"/payment-networks", "title.paymentNetworks", "payment-networks"},
	{"/newsletter", "title.newsletter", "newsletter"},
	{"/newsletter/subscribed", "title.newsletterSubscribed", "newsletter-subscribed"},
	{"/newsletter/unsubscribed", "title.newsletterUnsubscribed", "newsletter-unsubscribed"},
	{"/sibos-events", "title.sibosEvents", "sibos-events"},
	{"/fintech-events", "title.fintechEvents", "fintech-events"},
	{"/learning-videos", "title.learningVideos", "learning-videos"},
	{"/summarizer", "title.summarizer", "summarizer"},
	{"/fintech-leaders", "title.fintechLeaders", "fintech-leaders"},
	{"/publication-log", "title.publicationLog", "publication-log"},
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
	out = append(out, directionRoutes(cat)...)
	return append(out, listRoutes(siteLists(cat, now, noPreview))...)
}

// bodyNotFoundPath is the page of an unknown payment body.
const bodyNotFoundPath = "/payment-body/404.html"

// sidebarEvents are the slugs of the sidebar's seven event links
// (templates/_partials/sidebar.html), which must exist in content/events.
// SPEC.md fixes the seven; World Fintech Festival, which no source
// confirmed, stays as its entry says: not verified, no details, a web
// search for a link.
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
func sitePages(cat *catalog.Catalog, now time.Time, txt texts, kept map[string]bool, shown map[string][]string, networksRecent [][]string) []render.Page {
	var pages []render.Page
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
		front := map[string]any{"title": keyText(r.TitleKey, nil), "layout": r.Layout}
		if r.Path != "/" {
			front["url"] = r.Path + "/"
		}
		var shows []string
		if p, ok := firstPager[r.Path]; ok {
			front["pager"] = p
			shows = firstShows[r.Path]
		}
		pages = append(pages, render.Page{File: file, Front: front, Shows: shows})
	}
	for i, n := range cat.Networks {
		p := entryPage("payment-networks", n.Entry, n.Name, "network", n.Profile)
		p.Shows = networksRecent[i]
		pages = append(pages, p)
	}
	pages = append(pages, render.Page{File: "payment-body/_index.md",
		Front: map[string]any{"title": keyText("title.paymentBodies", nil), "layout": "payment-bodies"}})
	for _, b := range cat.Bodies {
		p := entryPage("payment-body", b.Entry, b.Name, "payment-body", b.Profile)
		p.Front["pager"] = firstPager["/payment-body/"+b.Slug]
		p.Shows = append(slices.Clone(firstShows["/payment-body/"+b.Slug]), bodyRecent(cat, b, now)...)
		pages = append(pages, p)
	}
	// What /payment-body/{unknown} shows: internal/web serves the nearest
	// 404.html, and netlify.toml sends /payment-body/* here with a 404.
	pages = append(pages, render.Page{File: "payment-body/not-found.md",
		Front: map[string]any{"title": keyText("title.paymentBodyNotFound", nil), "layout": "payment-body-missing", "url": bodyNotFoundPath}})
	pages = append(pages, render.Page{File: "circulars/_index.md",
		Front: map[string]any{"title": keyText("title.allCirculars", nil), "layout": "circulars", "pager": firstPager["/circulars"]},
		Shows: firstShows["/circulars"]})
	for _, l := range lists {
		pages = append(pages, l.extraPages()...)
	}
	// each regulator's frame: the head and shell its circulars' pages are
	// set in (render/frames.go), rendered with the site's own pages
	regulators := map[string]bool{}
	for _, c := range cat.Circulars {
		regulators[c.Source] = true
	}
	for _, r := range slices.Sorted(maps.Keys(regulators)) {
		slug := render.FrameSlug(r)
		pages = append(pages, render.Page{File: "circulars/" + slug + ".html",
			Front: map[string]any{"title": render.FrameTitle, "layout": "circular-frame", "slug": slug, "feedSource": r, "frame": render.FrameParams()}})
	}
	for _, c := range cat.Circulars {
		if kept[c.Slug] {
			continue // the output has it, rendered from the same inputs
		}
		p := entryPage("circulars", c.Entry, c.Title, "circular", catalog.OptString(c.Content))
		p.Front["date"] = c.PublishedDate.String()
		// its regulator's feeds in its head, and the frame of its page
		p.Front["feedSource"] = c.Source
		p.FrameIn(c.Source)
		p.Body = ""
		// renderTexts rendered every circular: into the workspace's
		// texts (Build), or kept for render.WritePages to write (the benchmark's
		// site for the Hugo CLI)
		p.Text, p.TextFile = txt[c.Slug].Marked, textFile(c.Slug)
		p.Front["text"] = p.TextFile
		if obs := txt[c.Slug].Obligations; len(obs) > 0 {
			p.Front["obligations"] = obs
		}
		if fd := txt[c.Slug].FromDraft; fd != nil {
			p.Front["fromDraft"] = fd
		}
		p.Group, p.Shows = groupCircular, append([]string{c.Slug}, shown[c.Slug]...)
		pages = append(pages, p)
	}
	return pages
}

// entryPage is the page of one entry under section, whose Markdown body
// (a profile, perhaps empty) Hugo gets as HTML.
func entryPage(section string, e catalog.Entry, title, layout string, body catalog.OptString) render.Page {
	return render.Page{
		File:  section + "/" + e.Slug + ".html",
		Front: map[string]any{"title": title, "layout": layout, "slug": e.Slug},
		Body:  string(body),
	}
}
