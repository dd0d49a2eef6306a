package render

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/spf13/afero"
)

// RunPages is how many pages of a group one Hugo run renders at most.
// Hugo holds every page of a run, parsed, and the run's data until the
// run ends; in runs of a bounded size, with only the data their pages
// read and only the views they show, a build's memory does not grow with
// the site (100,000 circulars are some 30 runs). Renderer.RunPages
// overrides it (tests: a few pages, so that every boundary is crossed).
const RunPages = 4000

// Site is what Render renders: the pages, the templates' data and the
// views the pages show.
type Site struct {
	Pages []Page
	// Data are the templates' data (hugo.Data.site) but the views, which
	// each run has as its pages show them (Views).
	Data  map[string]any
	Views Views
	// GroupData are, by group, the keys of Data its pages read; CardData
	// those the cards read. The site's own run has every key.
	GroupData map[Group][]string
	CardData  []string
	// GroupRunPages are, by group, smaller runs than RunPages for pages
	// whose views are large (a Master Direction's whole text): Hugo holds
	// a run's pages, parsed, until the run ends.
	GroupRunPages map[Group]int
	// SiteShows are the views the site's own pages show beyond their
	// pages' Shows (the dashboard's first screen).
	SiteShows []string
}

// Run is one run of Hugo: a temporary site of its own, in memory, with
// its pages, the keys of the data they read and the views they show.
type Run struct {
	Lang  string // the pages' language (Page.Lang)
	Pages []Page
	Data  []string // the keys of Site.Data the run has; nil: every key (the site's own run)
	Shows []string // the views it shows beyond its pages' (Page.Shows): the site's run's Site.SiteShows
	Cards bool     // a run of cards (cards.go), published into the workspace's cards
}

// Renderer renders a site with Hugo, in runs.
type Renderer struct {
	Hugo     Hugo
	RunPages int       // 0: RunPages
	Steps    *Steps    // each run logged; nil: none
	Mem      HeapLimit // the runs' room, fitted once the site's own run is done
	// Languages are the Hugo of each language other than Hugo's, by the
	// code pages name in Page.Lang. A language's pages are rendered in
	// runs of their own, after Hugo's, its cards in its own: only Hugo's
	// own run has the home page, sections, 404.html and robots.txt.
	Languages map[string]Hugo
}

// Render renders site's pages with Hugo into out: the site's own pages in
// one run, the cards the other groups' pages show (cards.go), then each
// other group's pages in runs of at most RunPages pages and 2·RunPages
// views shown (partition), one after the other (each run uses every
// core), each opened while the one before it renders; their texts are
// read from the workspace's. Once the runs are planned, the views' JSON
// and the pages' content files wait in the workspace's packs
// (Views.spill, spillPages), each run reading its own.
// Once the site's run is done, the runs after it get their room above
// the heap the build then holds (HeapLimit.FitRunsLater: fitted while the
// next run starts).
func (r Renderer) Render(ctx context.Context, w *Workspace, out *Output, site Site) error {
	byLang := map[string][]Page{}
	for _, p := range site.Pages {
		byLang[p.Lang] = append(byLang[p.Lang], p)
	}
	for lang := range byLang {
		if _, ok := r.Languages[lang]; lang != "" && !ok {
			return fmt.Errorf("render: a page in language %q, which the renderer lacks", lang)
		}
	}
	var runs []Run
	for _, lang := range slices.Sorted(maps.Keys(byLang)) { // "" first
		s := site
		s.Pages = byLang[lang]
		if lang != "" {
			s.SiteShows = nil // the site's own pages' extra views are the default language's
		}
		for _, run := range r.plan(s) {
			run.Lang = lang
			runs = append(runs, run)
		}
	}
	site.Pages, byLang = nil, nil // the runs hold them, each let go once it has run
	// only the views some run shows are spilled: a build that renders a
	// few pages (an edit: some 130 views of 100,000) writes only theirs
	shown := make([]bool, len(site.Views.Keys))
	for _, run := range runs {
		for i := range run.shown(site.Views) {
			shown[i] = true
		}
	}
	var err error
	if site.Views, err = site.Views.spill(w.views, shown); err != nil {
		return err
	}
	if err := spillPages(ctx, w.pages, runs); err != nil {
		return err
	}
	frames := newFramer(w.cards, w.Texts) // each language's, from its site's run on
	// Each run is opened (its site written, its Hugo made, its data being
	// read) while the one before it renders, unless it reads cards a run
	// of cards before it is still rendering (withCards): the opening was
	// some 0.1 s a run on one core, with the other mostly idle.
	var next chan openedRun // the next run, opening
	defer func() {
		if next != nil { // (a run failed: the next is let go)
			if o := <-next; o.hugo != nil {
				o.hugo.close()
			}
		}
	}()
	for i := range runs {
		if err := ctx.Err(); err != nil {
			return err
		}
		var o openedRun
		if next != nil {
			o, next = <-next, nil
		} else {
			o = r.open(ctx, w, out, frames, site, runs[i])
		}
		if o.err != nil {
			return o.err
		}
		if i+1 < len(runs) && !(runs[i].Cards && runs[i+1].readsCards()) {
			next = make(chan openedRun, 1)
			go func(run Run, opened chan<- openedRun) {
				opened <- r.open(ctx, w, out, frames, site, run)
			}(runs[i+1], next)
		}
		runs[i] = Run{} // its pages and shows let go once it has run
		if err := r.build(o); err != nil {
			return err
		}
		if i == 0 {
			r.Mem.FitRunsLater()
		}
	}
	return nil
}

// plan is the runs that render site, in order: the site's own, the
// cards', then each other group's, in the groups' order.
func (r Renderer) plan(site Site) []Run {
	size := cmp.Or(r.RunPages, RunPages)
	index := site.Views.Index()
	groups := map[Group][]Page{}
	for _, p := range site.Pages {
		groups[p.Group] = append(groups[p.Group], p)
	}
	runs := []Run{{Pages: groups[SiteGroup], Shows: site.SiteShows}}
	order := slices.Sorted(maps.Keys(groups))
	order = slices.DeleteFunc(order, func(g Group) bool { return g == SiteGroup })
	// the cards the other groups' pages show, each rendered once before them
	var cards []string
	for _, g := range order {
		for _, p := range groups[g] {
			cards = append(cards, p.Shows...)
		}
	}
	for _, part := range cardRuns(cards, index, size) {
		runs = append(runs, Run{Pages: part, Data: site.CardData, Cards: true})
	}
	for _, g := range order {
		gsize := size
		if n := site.GroupRunPages[g]; n > 0 {
			gsize = min(n, size)
		}
		for _, part := range partition(groups[g], index, gsize) {
			runs = append(runs, Run{Pages: part, Data: site.GroupData[g]})
		}
	}
	return runs
}

// openedRun is a run ready to render (Renderer.open), or why it is not.
type openedRun struct {
	hugo         *hugoRun
	pages, views int
	err          error
}

// open readies one run: its pages and data written into a site of its
// own in memory, its texts/ the workspace's pack, its Hugo made to
// publish into out through frames (frames.go; a run of cards: into the
// workspace's cards).
func (r Renderer) open(ctx context.Context, w *Workspace, out *Output, frames *framer, site Site, run Run) openedRun {
	h, keys, err := r.openRun(ctx, w, out, frames, site, run)
	return openedRun{hugo: h, pages: len(run.Pages), views: len(keys), err: err}
}

// openRun is open's work: the run's Hugo, and the keys of the views its
// data holds.
func (r Renderer) openRun(ctx context.Context, w *Workspace, out *Output, frames *framer, site Site, run Run) (*hugoRun, []string, error) {
	fsys := newSiteFs(w)
	dir := w.siteDir()
	if err := loadPages(w.pages, run.Pages); err != nil {
		return nil, nil, err
	}
	if err := WritePages(ctx, fsys, dir, run.Pages); err != nil {
		return nil, nil, err
	}
	d, keys, err := run.data(site.Data, site.Views)
	if err != nil {
		return nil, nil, err
	}
	if run.readsCards() {
		if err := withCards(d, keys, w.cards, run.Lang); err != nil {
			return nil, nil, err
		}
	}
	if err := WriteData(fsys, dir, d); err != nil {
		return nil, nil, err
	}
	h := r.Hugo
	if run.Lang != "" {
		h = r.Languages[run.Lang]
	}
	for name, b := range h.Tables {
		if err := writeFile(fsys, filepath.Join(dir, filepath.FromSlash(name)), b); err != nil {
			return nil, nil, err
		}
	}
	dst, dstDir := newPublishFs(out, frames.take(out, run.Lang)), out.staging
	if run.Cards {
		dst, dstDir = newCardsFs(w.cards, run.Lang), filepath.Join(w.dir, "cards-public")
	}
	hr, err := h.open(fsys, dir, dst, dstDir, run.Data == nil && run.Lang == "")
	return hr, keys, err
}

// build renders an opened run and lets it go.
func (r Renderer) build(o openedRun) error {
	err := o.hugo.build()
	o.hugo.close()
	dropLargeBuffers()
	if err != nil {
		return err
	}
	r.Steps.Done("hugo run", "pages", o.pages, "views", o.views)
	return nil
}

// readsCards says run's data has its views' cards, from the cards' runs
// before it (withCards): a run of the group's pages that are not framed.
func (run Run) readsCards() bool { return run.Data != nil && !run.Cards && !run.framed() }

// framed says every page of run comes out framed: none reads a view's
// card (some 2 KB each, most of a run's data file, which Hugo parses).
func (run Run) framed() bool {
	for _, p := range run.Pages {
		if !p.framed {
			return false
		}
	}
	return len(run.Pages) > 0
}

// data is the run's data: the keys it has (nil: all), and of the views
// only those it shows, each with those it goes with (Views.With), in the
// site's order, as their JSON; ViewCountData stays the whole site's.
// keys are the views' keys, in their order.
func (run Run) data(all map[string]any, views Views) (d map[string]any, keys []string, err error) {
	out := map[string]any{}
	if run.Data == nil {
		maps.Copy(out, all)
	} else {
		for _, k := range run.Data {
			out[k] = all[k]
		}
	}
	order := slices.Sorted(maps.Keys(run.shown(views)))
	sub := make([]json.RawMessage, 0, len(order))
	keys = make([]string, 0, len(order))
	at := make(map[string]int, len(order))
	for _, i := range order {
		j, err := views.json(i)
		if err != nil {
			return nil, nil, err
		}
		at[views.Keys[i]] = len(sub)
		sub = append(sub, j)
		keys = append(keys, views.Keys[i])
	}
	out[ViewsData], out[ViewIndexData], out[ViewCountData] = sub, at, len(views.Keys)
	return out, keys, nil
}

// shown is the places of the views run shows: those its pages read
// (Page.reads) and its Shows name, each with those it goes with
// (Views.With).
func (run Run) shown(views Views) map[int]bool {
	index := views.Index()
	want := map[int]bool{}
	show := func(shows []string) {
		for _, s := range shows {
			if i, ok := index[s]; ok && !want[i] {
				want[i] = true
				for _, r := range views.With[i] {
					if j, ok := index[r]; ok {
						want[j] = true
					}
				}
			}
		}
	}
	show(run.Shows)
	for _, p := range run.Pages {
		show(p.reads())
	}
	return want
}

// partition splits pages into runs of at most size pages that read at
// most 2·size views between them: a run's data holds the views all its
// pages read (a list page whose items are set in reads none). Pages go
// in the order of the first view each shows, so that the pages of
// different lists showing the same circulars (/circulars/page/7,
// /search/page/7, /circulars/rbi/page/4…) share a run rather than each
// run needing most of the catalog's views.
func partition(pages []Page, index map[string]int, size int) [][]Page {
	first := func(p Page) int {
		at := len(index)
		for _, s := range p.Shows {
			if i, ok := index[s]; ok {
				at = min(at, i)
			}
		}
		return at
	}
	type placed struct {
		Page
		at int
	}
	order := make([]placed, len(pages))
	for i, p := range pages {
		order[i] = placed{p, first(p)}
	}
	slices.SortStableFunc(order, func(a, b placed) int { return a.at - b.at })
	var out [][]Page
	var cur []Page
	shown := map[string]bool{}
	for _, o := range order {
		p := o.Page
		more := 0
		for _, s := range p.reads() {
			if !shown[s] {
				more++
			}
		}
		if len(cur) > 0 && (len(cur) == size || len(shown)+more > 2*size) {
			out = append(out, cur)
			cur, shown = nil, map[string]bool{}
		}
		cur = append(cur, p)
		for _, s := range p.reads() {
			shown[s] = true
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// newSiteFs is a temporary Hugo site in memory, over the OS's files
// (which Hugo reads the templates from): a run's pages and data are never
// written to disk. The site's texts/ folder is read from the workspace's
// pack on disk, so that no run holds the texts in memory. (They cannot
// simply be files under the site's folder on disk: a folder in both layers
// of the union is one Hugo cannot list.)
func newSiteFs(w *Workspace) afero.Fs {
	site := afero.NewCopyOnWriteFs(afero.NewReadOnlyFs(afero.NewOsFs()), afero.NewMemMapFs())
	return packFs{Fs: site, dir: filepath.Join(w.siteDir(), TextsFolder), p: w.Texts}
}

// WriteData writes the templates' data (hugo.Data.site) into the site at dir.
// The circulars' views, already JSON (Views, withCard), are written as
// they are: encoding/json would compact and check each again, a second
// of every 10,000 circulars' build spent on bytes it made itself.
func WriteData(fsys afero.Fs, dir string, data map[string]any) error {
	views, raw := data[ViewsData].([]json.RawMessage)
	if raw {
		data = maps.Clone(data)
		delete(data, ViewsData)
	}
	var site bytes.Buffer
	enc := json.NewEncoder(&site)
	enc.SetEscapeHTML(false) // the cards are HTML: <, > and & as themselves, not \u003c
	if err := enc.Encode(data); err != nil {
		return err
	}
	if raw {
		rest := bytes.TrimSuffix(bytes.TrimSuffix(site.Bytes(), []byte("\n")), []byte("}"))
		n := len(rest) + len(`,"":[]}`) + len(ViewsData) + len(views)
		for _, v := range views {
			n += len(v)
		}
		b := make([]byte, 0, n)
		b = append(b, rest...)
		if len(rest) > 1 { // more than the opening {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), ViewsData...), `":[`...)
		for i, v := range views {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, v...)
		}
		b = append(b, "]}"...)
		return writeFile(fsys, filepath.Join(dir, "data", "site.json"), b)
	}
	return writeFile(fsys, filepath.Join(dir, "data", "site.json"), site.Bytes())
}
