package generator

import (
	"fmt"
	"html"
	"strings"
	"time"

	"regpulse/generator/render"
	"regpulse/internal/atom"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/impact"
	"regpulse/internal/markdown"
	"regpulse/internal/redline"
)

// The Master Directions' pages, static and readable with JavaScript off:
//
//	/master-directions/                          the list
//	/master-directions/SLUG/                     the text in force today, its table of contents and timeline
//	/master-directions/SLUG/as-of/DATE/          the text in force on the issue date and on each version's date
//	/master-directions/SLUG/compare/FROM/TO/     a version against the one before, and against the latest
//
// Each page's view is computed here and given to its template in the
// page's front matter: the templates show it, they decide nothing.

// directionRunPages is how many of the directions' pages one Hugo run
// renders: each holds a whole text (about 1 MB once Hugo has parsed a
// 300-provision direction's), so fewer than other pages' runs.
const directionRunPages = 250

// directionListItem is a direction as the list shows it.
type directionListItem struct {
	Slug        string           `json:"slug"`
	Title       string           `json:"title"`
	ShortTitle  string           `json:"shortTitle"`
	Number      string           `json:"number"`
	Source      string           `json:"source"`
	IssuedDate  catalog.Date     `json:"issuedDate"`
	Status      statusView       `json:"status"`
	Versions    int              `json:"versions"`
	LastAmended *catalog.Date    `json:"lastAmended"`
	AppliesTo   []entityTypeView `json:"appliesTo"`
	URL         string           `json:"url"`
}

type entityTypeView struct {
	Value string `json:"value"`
	Label string `json:"label"`
	Key   string `json:"key"` // the label's in the catalogue (pages show T .key)
}

func entityTypeViews(ts []string) []entityTypeView {
	out := []entityTypeView{}
	for _, t := range ts {
		out = append(out, entityTypeView{t, impact.DisplayName(t), labelKey("entity.%s", t)})
	}
	return out
}

// statusView says whether a direction is in force, as a badge and a
// sentence.
type statusView struct {
	Value string        `json:"value"`
	Label string        `json:"label"`
	Key   string        `json:"key"` // the label's in the catalogue (pages show T .key)
	Date  *catalog.Date `json:"date"`
	// Successors are the directions or instruments that replace it.
	Successors []linkView `json:"successors"`
	By         *linkView  `json:"by"` // the circular that replaced or withdrew it
}

type linkView struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// directionsView holds what the directions' pages need of the catalog.
type directionsView struct {
	book *directions.Book
	now  catalog.Date
}

func (v directionsView) circularLink(slug string) linkView {
	if c := v.book.Circular(slug); c != nil {
		return linkView{Title: c.Title, URL: "/circulars/" + slug}
	}
	return linkView{Title: slug}
}

func (v directionsView) status(d *catalog.MasterDirection) statusView {
	s := statusView{Value: d.Status, Date: d.StatusDate, Successors: []linkView{}}
	switch d.Status {
	case "in-force":
		s.Label, s.Key = "In force", "directionStatus.inForce"
		if len(d.Versions) > 0 {
			s.Label, s.Key = "In force, as amended", "directionStatus.inForceAmended"
		}
	case "replaced":
		s.Label, s.Key = "Replaced", "directionStatus.replaced"
	case "withdrawn":
		s.Label, s.Key = "Withdrawn", "directionStatus.withdrawn"
	}
	for _, r := range d.ReplacedBy {
		if o := v.book.Direction(r); o != nil {
			s.Successors = append(s.Successors, linkView{Title: o.Title, URL: catalog.DirectionPath(r)})
		}
	}
	for _, name := range d.Successors {
		s.Successors = append(s.Successors, linkView{Title: name})
	}
	if d.StatusCircular != "" {
		l := v.circularLink(string(d.StatusCircular))
		s.By = &l
	}
	return s
}

func (v directionsView) listItem(d *catalog.MasterDirection) directionListItem {
	it := directionListItem{Slug: d.Slug, Title: d.Title, ShortTitle: string(d.ShortTitle), Number: string(d.Number),
		Source: d.Source, IssuedDate: d.IssuedDate, Status: v.status(d), Versions: len(published(d.Versions)),
		AppliesTo: entityTypeViews(d.AppliesTo), URL: catalog.DirectionPath(d.Slug)}
	if vs := published(d.Versions); len(vs) > 0 {
		it.LastAmended = &vs[len(vs)-1].Date
	}
	return it
}

// published leaves out the drafts, which no page shows.
func published(vs []catalog.DirectionVersion) []catalog.DirectionVersion {
	out := make([]catalog.DirectionVersion, 0, len(vs))
	for _, v := range vs {
		if !v.Draft {
			out = append(out, v)
		}
	}
	return out
}

// chapterView is a chapter of a text (none when the direction has no
// chapters) with its provisions.
type chapterView struct {
	ID         string          `json:"id"`
	Title      string          `json:"title"`
	Anchor     string          `json:"anchor"`
	Provisions []provisionView `json:"provisions"`
}

type provisionView struct {
	ID      string `json:"id"`
	Anchor  string `json:"anchor"`
	Heading string `json:"heading"`
	Text    string `json:"text"`
	Digest  bool   `json:"digest"`
	// Since is when it got this text, and By what did it (nil: as issued).
	Since catalog.Date `json:"since"`
	By    []linkView   `json:"by"`
	// Compare links the change that gave it this text.
	Compare string `json:"compare"`
}

// textView is a direction's text on one day.
type textView struct {
	Day        catalog.Date  `json:"day"`
	Chapters   []chapterView `json:"chapters"`
	Provisions int           `json:"provisions"`
	Digests    int           `json:"digests"`
}

func (v directionsView) text(d *catalog.MasterDirection, day catalog.Date) textView {
	t := textView{Day: day, Chapters: []chapterView{}}
	titles := map[string]string{}
	for _, c := range d.Chapters {
		titles[c.ID] = c.Title
	}
	for _, s := range d.At(day) {
		ch := string(s.Chapter)
		if n := len(t.Chapters); n == 0 || t.Chapters[n-1].ID != ch {
			t.Chapters = append(t.Chapters, chapterView{ID: ch, Title: titles[ch], Anchor: "chapter-" + ch})
		}
		p := provisionView{ID: s.ID, Anchor: catalog.ProvisionAnchor(s.ID), Heading: string(s.Heading), Text: s.Text,
			Digest: s.Wording == "digest", Since: s.From, By: []linkView{}}
		if s.Version >= 0 {
			ver := &d.Versions[s.Version]
			p.By = v.amendedBy(ver.Circulars, ver.Amending)
			p.Compare = catalog.DirectionComparePath(d.Slug, d.TextBefore(s.Version), ver.Date) + "/#" + p.Anchor
		}
		t.Chapters[len(t.Chapters)-1].Provisions = append(t.Chapters[len(t.Chapters)-1].Provisions, p)
		t.Provisions++
		if p.Digest {
			t.Digests++
		}
	}
	return t
}

// amendedBy names a version's amending circulars as links: the catalog's
// (circulars) and the one it lacks (amending).
func (v directionsView) amendedBy(circulars catalog.TextList, amending *catalog.AmendingCircular) []linkView {
	out := []linkView{}
	for _, s := range circulars {
		out = append(out, v.circularLink(s))
	}
	if a := amending; a != nil {
		title := a.Title
		if a.Number != "" {
			title += " (" + string(a.Number) + ")"
		}
		out = append(out, linkView{Title: title, URL: string(a.URL)})
	}
	return out
}

// versionView is one entry of a direction's timeline.
type versionView struct {
	Date         catalog.Date `json:"date"`
	Issued       bool         `json:"issued"` // the text as issued
	Future       bool         `json:"future"` // in force after the build's day
	By           []linkView   `json:"by"`
	NoteHTML     string       `json:"noteHTML"`
	ChangesKnown bool         `json:"changesKnown"`
	Verification string       `json:"verification"`
	Changes      []changeView `json:"changes"`
	AsOf         string       `json:"asOf"`
	Compare      string       `json:"compare"`       // against the text before
	CompareLast  string       `json:"compareLatest"` // against the latest version
}

// changeView is one changed provision, as the timeline lists it and a
// comparison shows it.
type changeView struct {
	Provision      string            `json:"provision"`
	Was            string            `json:"was"`
	Anchor         string            `json:"anchor"`
	Kind           string            `json:"kind"`
	Label          string            `json:"label"`
	Key            string            `json:"key"` // the label's in the catalogue (pages show T .key)
	Heading        string            `json:"heading"`
	Redline        []redline.Segment `json:"redline"`
	HeadingRedline []redline.Segment `json:"headingRedline"`
	By             []amendmentView   `json:"by"`
	Touches        []entityTypeView  `json:"touches"`
	Digest         bool              `json:"digest"`
}

type amendmentView struct {
	Date catalog.Date `json:"date"`
	By   []linkView   `json:"by"`
}

// changeLabels are the kinds of change's labels (directions.KindLabels)
// in every language: the DirectionDates island's, in its page's front
// matter (translatePages gives each language's copy its own).
func changeLabels() map[string]localText {
	out := map[string]localText{}
	for k := range directions.KindLabels {
		out[k] = labelOf("change.%s", k)
	}
	return out
}

// changeKey is the catalogue's key of ch's label (directions.Label).
func changeKey(ch directions.Change) string {
	if ch.Kind == directions.Changed && ch.Was != "" {
		return "change.renumberedAndChanged"
	}
	return labelKey("change.%s", ch.Kind)
}

func (v directionsView) changes(c directions.Comparison) []changeView {
	out := []changeView{}
	for _, ch := range c.Changes {
		cv := changeView{Provision: ch.Provision, Was: ch.Was, Anchor: ch.Anchor, Kind: ch.Kind, Label: directions.Label(ch), Key: changeKey(ch),
			Redline: ch.Redline, HeadingRedline: ch.HeadingRedline, Touches: entityTypeViews(ch.Touches)}
		p := ch.After
		if p == nil {
			p = ch.Before
		}
		cv.Heading, cv.Digest = string(p.Heading), p.Wording == "digest"
		for _, a := range ch.By {
			cv.By = append(cv.By, amendmentView{Date: a.Date, By: v.amendedBy(a.Circulars, a.Amending)})
		}
		out = append(out, cv)
	}
	return out
}

func (v directionsView) timeline(d *catalog.MasterDirection) ([]versionView, error) {
	vs := published(d.Versions)
	latest := d.IssuedDate
	if len(vs) > 0 {
		latest = vs[len(vs)-1].Date
	}
	out := []versionView{{Date: d.IssuedDate, Issued: true, ChangesKnown: true, Verification: string(d.Verification),
		By: []linkView{}, Changes: []changeView{}, AsOf: catalog.DirectionAsOfPath(d.Slug, d.IssuedDate)}}
	if len(vs) > 0 {
		out[0].CompareLast = catalog.DirectionComparePath(d.Slug, d.IssuedDate, latest)
	}
	for vi := range d.Versions {
		ver := &d.Versions[vi]
		if ver.Draft {
			continue
		}
		vv := versionView{Date: ver.Date, Future: ver.Date.After(v.now.Time), By: v.amendedBy(ver.Circulars, ver.Amending), ChangesKnown: ver.ChangesKnown,
			Verification: string(ver.Verification), AsOf: catalog.DirectionAsOfPath(d.Slug, ver.Date),
			Compare: catalog.DirectionComparePath(d.Slug, d.TextBefore(vi), ver.Date)}
		if ver.Note != "" {
			html, err := markdown.HTML(ver.Note)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ver.Path, err)
			}
			vv.NoteHTML = html
		}
		if ver.Date != latest {
			vv.CompareLast = catalog.DirectionComparePath(d.Slug, ver.Date, latest)
		}
		vv.Changes = v.changes(v.book.VersionChanges(d, vi))
		out = append(out, vv)
	}
	return out, nil
}

// directionPages are the list, and each direction's pages.
func directionPages(book *directions.Book, now time.Time) ([]render.Page, error) {
	v := directionsView{book: book, now: catalog.Date{Time: catalog.Day(now)}}
	items := []directionListItem{}
	for i := range v.book.Directions {
		items = append(items, v.listItem(&v.book.Directions[i]))
	}
	// the list is a section, which only the site's own run renders
	pages := []render.Page{{File: "master-directions/_index.md", Group: render.SiteGroup,
		Front: map[string]any{"title": keyText("title.masterDirections", nil), "layout": "master-directions", "url": catalog.DirectionsPath + "/",
			"directions": items}}}
	for i := range v.book.Directions {
		d := &v.book.Directions[i]
		ps, err := v.pages(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.Path, err)
		}
		pages = append(pages, ps...)
	}
	return pages, nil
}

// directionHead is what every page of one direction shows at its top.
type directionHead struct {
	directionListItem
	Department   string       `json:"department"`
	Reference    string       `json:"departmentReference"`
	OfficialURL  string       `json:"officialUrl"`
	Verification string       `json:"verification"`
	ReviewedOn   catalog.Date `json:"reviewedOn"`
}

func (v directionsView) pages(d *catalog.MasterDirection) ([]render.Page, error) {
	head := directionHead{directionListItem: v.listItem(d), Department: string(d.Department), Reference: string(d.DepartmentReference),
		OfficialURL: string(d.OfficialURL), Verification: string(d.Verification), ReviewedOn: d.ReviewedOn}
	about, err := markdown.HTML(d.About)
	if err != nil {
		return nil, err
	}
	timeline, err := v.timeline(d)
	if err != nil {
		return nil, err
	}
	// today's text, or the last one in force if it is no longer
	day := v.now
	if !d.InForce(day) && d.StatusDate != nil {
		day = catalog.Date{Time: d.StatusDate.AddDate(0, 0, -1)}
	}
	base := func(file string, title localText, layout, url string) render.Page {
		return render.Page{File: file, Group: groupDirection, Front: map[string]any{"title": title, "layout": layout,
			"url": url + "/", "direction": head}}
	}
	p := base("master-directions/"+d.Slug+".md", asWritten(d.Title), "direction", catalog.DirectionPath(d.Slug))
	p.Front["aboutHTML"] = about
	p.Front["text"] = v.text(d, day)
	p.Front["timeline"] = timeline
	// what the island of any date or dates (DirectionDates) starts from
	p.Front["dates"] = map[string]any{"slug": d.Slug, "issued": d.IssuedDate, "today": v.now, "labels": changeLabels()}
	pages := []render.Page{p}
	// the text as of a date lists the versions to move between, not what
	// each changed (the direction's page has that): at 300 provisions and
	// 20 versions a page's view is otherwise twice the size, and a build
	// holds every page's view until Hugo renders it
	brief := make([]versionView, len(timeline))
	for i, t := range timeline {
		t.Changes, t.NoteHTML = []changeView{}, ""
		brief[i] = t
	}
	plan := planDirection(d)
	for _, day := range plan.asOf {
		p := base(fmt.Sprintf("master-directions/%s/as-of/%s.md", d.Slug, day), keyText("title.directionAsOf", map[string]any{"Title": d.Title, "Date": localDate(day.Time)}),
			"direction-as-of", catalog.DirectionAsOfPath(d.Slug, day))
		p.Front["text"] = v.text(d, day)
		p.Front["latest"] = day == plan.latest
		p.Front["future"] = day.After(v.now.Time)
		p.Front["timeline"] = brief
		pages = append(pages, p)
	}
	for _, c := range plan.compare {
		pages = append(pages, v.comparePage(d, head, c[0], c[1], base))
	}
	return pages, nil
}

// directionPlan is which dated pages a direction has: its text as of the
// issue date and each version's date (a version not yet in force
// included, as eCFR shows an amendment before its effective date), and
// each version compared with the one before and with the latest.
type directionPlan struct {
	asOf    []catalog.Date
	compare [][2]catalog.Date
	latest  catalog.Date
}

func planDirection(d *catalog.MasterDirection) directionPlan {
	dates := []catalog.Date{d.IssuedDate}
	for _, v := range published(d.Versions) {
		dates = append(dates, v.Date)
	}
	p := directionPlan{latest: dates[len(dates)-1]}
	seen := map[[2]catalog.Date]bool{}
	add := func(from, to catalog.Date) {
		if k := [2]catalog.Date{from, to}; from != to && !seen[k] {
			seen[k] = true
			p.compare = append(p.compare, k)
		}
	}
	for i, day := range dates {
		p.asOf = append(p.asOf, day)
		if i > 0 {
			add(dates[i-1], day)
		}
		add(day, p.latest)
	}
	return p
}

// directionRoutes are the paths of the directions' pages.
func directionRoutes(cat *catalog.Catalog) []string {
	if len(cat.Directions) == 0 {
		return nil
	}
	out := []string{catalog.DirectionsPath}
	for i := range cat.Directions {
		d := &cat.Directions[i]
		out = append(out, catalog.DirectionPath(d.Slug))
		p := planDirection(d)
		for _, day := range p.asOf {
			out = append(out, catalog.DirectionAsOfPath(d.Slug, day))
		}
		for _, c := range p.compare {
			out = append(out, catalog.DirectionComparePath(d.Slug, c[0], c[1]))
		}
	}
	return out
}

// comparisonView is a comparison page's view.
type comparisonView struct {
	From    catalog.Date    `json:"from"`
	To      catalog.Date    `json:"to"`
	Changes []changeView    `json:"changes"`
	Added   int             `json:"added"`
	Removed int             `json:"removed"`
	Changed int             `json:"changed"`
	Unknown []amendmentView `json:"unknown"`
}

func (v directionsView) comparePage(d *catalog.MasterDirection, head directionHead, from, to catalog.Date,
	base func(file string, title localText, layout, url string) render.Page) render.Page {
	c := v.book.Compare(d, from, to)
	cv := comparisonView{From: c.From, To: c.To, Changes: v.changes(c), Added: c.Added, Removed: c.Removed, Changed: c.Changed,
		Unknown: []amendmentView{}}
	for _, u := range c.Unknown {
		cv.Unknown = append(cv.Unknown, amendmentView{Date: u.Date, By: v.amendedBy(u.Circulars, u.Amending)})
	}
	title := keyText("title.directionCompare", map[string]any{"Label": d.Label(), "From": localDate(from.Time), "To": localDate(to.Time)})
	p := base(fmt.Sprintf("master-directions/%s/compare/%s/%s.md", d.Slug, from, to), title, "direction-compare",
		catalog.DirectionComparePath(d.Slug, from, to))
	p.Front["comparison"] = cv
	return p
}

// directionCitation is what a circular did to a Master Direction, as the
// circular's page says it: issued it, amended it (the provisions it
// changed, each linked to its redline), or replaced or withdrew it.
type directionCitation struct {
	Title        string        `json:"title"`
	URL          string        `json:"url"`
	Role         string        `json:"role"` // issued, amended, replaced, withdrawn
	Date         catalog.Date  `json:"date"`
	Compare      string        `json:"compare,omitempty"`
	ChangesKnown bool          `json:"changesKnown"`
	Changes      []citedChange `json:"changes,omitempty"`
}

type citedChange struct {
	Provision string `json:"provision"`
	Label     string `json:"label"`
	Key       string `json:"key"` // the label's in the catalogue (pages show T .key)
	URL       string `json:"url"`
}

// directionCitations are, by circular slug, the directions each circular
// issued, amended, replaced or withdrew.
func directionCitations(book *directions.Book) map[string][]directionCitation {
	if len(book.Directions) == 0 {
		return nil
	}
	v := directionsView{book: book}
	out := map[string][]directionCitation{}
	for i := range v.book.Directions {
		d := &v.book.Directions[i]
		base := directionCitation{Title: d.Title, URL: catalog.DirectionPath(d.Slug), ChangesKnown: true}
		if d.Circular != "" {
			c := base
			c.Role, c.Date = "issued", d.IssuedDate
			out[string(d.Circular)] = append(out[string(d.Circular)], c)
		}
		if d.StatusCircular != "" && d.StatusDate != nil {
			c := base
			c.Role, c.Date = d.Status, *d.StatusDate
			out[string(d.StatusCircular)] = append(out[string(d.StatusCircular)], c)
		}
		for vi := range d.Versions {
			ver := &d.Versions[vi]
			if ver.Draft {
				continue
			}
			c := base
			c.Role, c.Date, c.ChangesKnown = "amended", ver.Date, ver.ChangesKnown
			c.Compare = catalog.DirectionComparePath(d.Slug, d.TextBefore(vi), ver.Date) + "/"
			for _, ch := range v.book.VersionChanges(d, vi).Changes {
				c.Changes = append(c.Changes, citedChange{Provision: ch.Provision, Label: directions.KindLabels[ch.Kind], Key: labelKey("change.%s", ch.Kind), URL: c.Compare + "#" + ch.Anchor})
			}
			for _, s := range ver.Circulars {
				out[s] = append(out[s], c)
			}
		}
	}
	return out
}

// DirectionFeedPath is a direction's Atom feed: one entry per version,
// newest first, with the provisions it changed as redlines.
func DirectionFeedPath(slug string) string { return "master-directions/" + slug + "/feed.xml" }

// writeDirectionFeeds publishes every direction's feed.
func writeDirectionFeeds(pub *render.Output, book *directions.Book, baseURL string) error {
	if len(book.Directions) == 0 {
		return nil
	}
	v := directionsView{book: book}
	for i := range v.book.Directions {
		d := &v.book.Directions[i]
		feed, err := v.feed(d, baseURL)
		if err != nil {
			return fmt.Errorf("%s: %w", d.Path, err)
		}
		if err := pub.Publish(DirectionFeedPath(d.Slug), feed); err != nil {
			return err
		}
	}
	return nil
}

func (v directionsView) feed(d *catalog.MasterDirection, baseURL string) ([]byte, error) {
	f := atom.Feed{
		Title:    "RegPulse: " + d.Label() + ", its versions",
		Subtitle: "Each version of " + d.Title + " with the provisions it changed.",
		ID:       absURL(baseURL, "/"+DirectionFeedPath(d.Slug)),
		Updated:  atom.Date(d.IssuedDate.Time),
		Links: []atom.Link{
			{Rel: "self", Type: "application/atom+xml", Href: absURL(baseURL, "/"+DirectionFeedPath(d.Slug))},
			{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, catalog.DirectionPath(d.Slug))},
		},
		Author: atom.Person{Name: "RegPulse"},
	}
	for vi := len(d.Versions) - 1; vi >= 0; vi-- {
		ver := &d.Versions[vi]
		if ver.Draft {
			continue
		}
		if len(f.Entries) == 0 {
			f.Updated = atom.Date(ver.Date.Time)
		}
		var body strings.Builder
		note, err := markdown.HTML(ver.Note)
		if err != nil {
			return nil, err
		}
		body.WriteString(note)
		if !ver.ChangesKnown {
			body.WriteString("<p><em>What this version changed is not recorded provision by provision.</em></p>")
		}
		for _, ch := range v.changes(v.book.VersionChanges(d, vi)) {
			fmt.Fprintf(&body, "<h3>%s %s</h3><p>%s</p>", html.EscapeString(ch.Label), html.EscapeString(ch.Provision), redline.HTML(ch.Redline))
		}
		var by []string
		for _, l := range v.amendedBy(ver.Circulars, ver.Amending) {
			by = append(by, l.Title)
		}
		title := "Version of " + ver.Date.Time.Format("2 January 2006")
		if len(by) > 0 {
			title += ": " + strings.Join(by, "; ")
		}
		compare := catalog.DirectionComparePath(d.Slug, d.TextBefore(vi), ver.Date) + "/"
		f.Entries = append(f.Entries, atom.Entry{
			Title: title, ID: absURL(baseURL, compare),
			Links:     []atom.Link{{Rel: "alternate", Type: "text/html", Href: absURL(baseURL, compare)}},
			Published: atom.Date(ver.Date.Time), Updated: atom.Date(ver.Date.Time),
			Author:  atom.Person{Name: d.Source},
			Content: &atom.Text{Type: "html", Body: body.String()},
		})
	}
	return atom.Marshal(f)
}
