package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/spf13/afero"
	"golang.org/x/sync/errgroup"
)

// ChunkPages is how many circulars' pages, or list pages, one Hugo run
// renders at most. Hugo holds every page of a run, parsed, and the run's
// data until the run ends; in runs of a bounded size, with only the data
// their pages read and only the views of the circulars they show, a
// build's memory does not grow with the archive (100,000 circulars are
// some 30 runs). Options.ChunkPages overrides it (tests: a few pages, so
// that every boundary is crossed).
const ChunkPages = 4000

// pageGroup says which run renders a page, and with which data.
type pageGroup int

const (
	// groupSite: the dashboard, the directories, the first pages of the
	// lists (the static routes): one run with every key of the data.
	groupSite pageGroup = iota
	// groupCircular: circulars' pages, with circularPageData only.
	groupCircular
	// groupList: the lists' further pages, with listPageData only.
	groupList
)

// listPageData are, by layout, the keys of the templates' data the lists'
// further pages read (circulars.html, search.html, news.html,
// payment-body.html past page 1, with the shell), besides the views of the
// circulars they show. TestPageReads holds the templates to them; the
// pages' keys (pagekeys.go) hash a layout's keys only, so that an edit
// elsewhere (a news item, for the circulars' lists) renders none again.
var listPageData = map[string][]string{
	"circulars":    {"assets", "bodyEntries", "calendar", "circularLists", "documentTypes", "enums", "events", "feeds", "freshness", "listPageSize", "newsletterTopics", "supportEmail", "verifications"},
	"search":       {"assets", "bodyEntries", "calendar", "documentTypes", "enums", "events", "fallbackIndex", "feeds", "freshness", "listPageSize", "news", "newsletterTopics", "search", "supportEmail", "verifications"},
	"news":         {"assets", "bodyEntries", "calendar", "enums", "events", "feeds", "freshness", "listPageSize", "news", "newsletterTopics", "supportEmail"},
	"impact-list":  {"assets", "bodyEntries", "calendar", "documentTypes", "events", "feeds", "freshness", "impactRule", "newsletterTopics", "supportEmail", "verifications"},
	"payment-body": {"assets", "bodies", "bodyEntries", "calendar", "documentTypes", "enums", "events", "feeds", "freshness", "listPageSize", "newsletterTopics", "supportEmail", "verifications"},
}

// listRunData are the keys a run of list pages has: every layout's.
func listRunData() []string {
	var out []string
	for _, keys := range listPageData {
		out = append(out, keys...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// renderPages renders pages with Hugo into pub: the site's own pages in
// one run, the cards of the other pages into cards (cards.go), then
// circulars' pages and list pages in runs of at most chunk pages and
// 2·chunk circulars shown (partition), one after the other (each run uses
// every core); their texts are read from texts. siteShows are the
// circulars the site's pages show beyond their pages' own shows (the
// dashboard's first screen). Once the site's run is done, the runs after
// it get their room above the heap the build then holds (mem.fitRuns).
func renderPages(ctx context.Context, work string, texts, cards *pack, pages []page, data map[string]any, views runViews, siteShows []string, pub *publisher, opts Options, mem heapLimit, step *phases) error {
	chunk := opts.ChunkPages
	if chunk <= 0 {
		chunk = ChunkPages
	}
	index := data["circularIndex"].(map[string]int)
	type run struct {
		pages []page
		keys  []string // nil: every key
		shows []string
		cards bool // a run of cards (cards.go), published into the cards' pack
	}
	var runs []run
	site := run{shows: slices.Clone(siteShows)}
	var groups [3][]page
	for _, p := range pages {
		groups[p.group] = append(groups[p.group], p)
	}
	site.pages = groups[groupSite]
	for _, p := range site.pages {
		site.shows = append(site.shows, p.shows...)
	}
	runs = append(runs, site)
	// the cards the circulars' and lists' pages show, each rendered once
	// before them (their card's data is circularPageData's: TestPageReads)
	var cardShows []string
	for _, p := range slices.Concat(groups[groupCircular], groups[groupList]) {
		cardShows = append(cardShows, p.shows...)
	}
	for _, part := range cardRuns(cardShows, index, chunk) {
		r := run{pages: part, keys: circularPageData, cards: true}
		for _, p := range part {
			r.shows = append(r.shows, p.shows...)
		}
		runs = append(runs, r)
	}
	for _, g := range []struct {
		group pageGroup
		keys  []string
	}{{groupCircular, circularPageData}, {groupList, listRunData()}} {
		for _, part := range partition(groups[g.group], index, chunk) {
			r := run{pages: part, keys: g.keys}
			for _, p := range part {
				r.shows = append(r.shows, p.shows...)
			}
			runs = append(runs, r)
		}
	}
	for i, r := range runs {
		runs[i] = run{} // its pages and shows let go once it has run
		if err := ctx.Err(); err != nil {
			return err
		}
		// each run a site of its own in memory, its texts/ the pack
		// renderTexts wrote
		fsys := newSiteFs(work, texts)
		dir := siteDir(work)
		if err := writePages(ctx, fsys, dir, r.pages); err != nil {
			return err
		}
		d, slugs := chunkData(data, r.keys, views, index, r.shows)
		if r.keys != nil && !r.cards {
			if err := withCards(d, slugs, cards); err != nil {
				return err
			}
		}
		if err := writeData(fsys, dir, d); err != nil {
			return err
		}
		out, outDir := newPublishFs(pub), pub.staging
		if r.cards {
			out, outDir = newCardsFs(cards), filepath.Join(work, "cards-public")
		}
		if err := runHugo(fsys, dir, out, outDir, opts, r.keys == nil); err != nil {
			return err
		}
		step.done("hugo run", "pages", len(r.pages), "views", len(slugs))
		if i == 0 {
			mem.fitRuns()
		}
	}
	return nil
}

// partition splits pages into runs of at most chunk pages that show at
// most 2·chunk circulars between them: a run's data holds the views of
// all its pages show. Pages go in the order of the first circular each
// shows, so that the pages of different lists showing the same circulars
// (/circulars/page/7, /search/page/7, /circulars/rbi/page/4…) share a run
// rather than each run needing most of the catalog's views.
func partition(pages []page, index map[string]int, chunk int) [][]page {
	first := func(p page) int {
		at := len(index)
		for _, s := range p.shows {
			if i, ok := index[s]; ok {
				at = min(at, i)
			}
		}
		return at
	}
	type placed struct {
		page
		at int
	}
	order := make([]placed, len(pages))
	for i, p := range pages {
		order[i] = placed{p, first(p)}
	}
	slices.SortStableFunc(order, func(a, b placed) int { return a.at - b.at })
	var out [][]page
	var cur []page
	shown := map[string]bool{}
	for _, o := range order {
		p := o.page
		more := 0
		for _, s := range p.shows {
			if !shown[s] {
				more++
			}
		}
		if len(cur) > 0 && (len(cur) == chunk || len(shown)+more > 2*chunk) {
			out = append(out, cur)
			cur, shown = nil, map[string]bool{}
		}
		cur = append(cur, p)
		for _, s := range p.shows {
			shown[s] = true
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// siteDir is the temporary Hugo site's folder under the build's work
// folder; it is in memory only (newSiteFs).
func siteDir(work string) string { return filepath.Join(work, "site") }

// newSiteFs is a temporary Hugo site in memory, over the OS's files
// (which Hugo reads the templates from): a run's pages and data are never
// written to disk. With texts, the site's texts/ folder is read from that
// pack on disk, so that no run holds the texts in memory. (They cannot
// simply be files under the site's folder on disk: a folder in both layers
// of the union is one Hugo cannot list.)
func newSiteFs(work string, texts *pack) afero.Fs {
	site := afero.NewCopyOnWriteFs(afero.NewReadOnlyFs(afero.NewOsFs()), afero.NewMemMapFs())
	if texts == nil {
		return site
	}
	return packFs{Fs: site, dir: filepath.Join(siteDir(work), textsFolder), p: texts}
}

// chunkData is the data of one run: the keys given (nil: all), and of the
// circulars only those shown, each with those that replace it (cards and
// pages name them: superseded-note.html), in the catalog's order, as
// their JSON; circularCount stays the whole catalog's. slugs are the
// circulars of its views, in their order.
func chunkData(data map[string]any, keys []string, views runViews, index map[string]int, shows []string) (d map[string]any, slugs []string) {
	out := map[string]any{}
	if keys == nil {
		for k, v := range data {
			out[k] = v
		}
	} else {
		for _, k := range keys {
			out[k] = data[k]
		}
	}
	want := map[int]bool{}
	for _, s := range shows {
		if i, ok := index[s]; ok && !want[i] {
			want[i] = true
			for _, r := range views.replacedBy[i] {
				if j, ok := index[r]; ok {
					want[j] = true
				}
			}
		}
	}
	order := make([]int, 0, len(want))
	for i := range want {
		order = append(order, i)
	}
	slices.Sort(order)
	sub := make([]json.RawMessage, 0, len(order))
	slugs = make([]string, 0, len(order))
	at := make(map[string]int, len(order))
	for _, i := range order {
		at[views.slugs[i]] = len(sub)
		sub = append(sub, views.json[i])
		slugs = append(slugs, views.slugs[i])
	}
	out["circulars"], out["circularIndex"], out["circularCount"] = sub, at, len(views.json)
	return out, slugs
}

// writePages writes pages into the temporary Hugo site at dir on fsys,
// on every core: each its content file (encoded here if it was not), and
// a circular's text beside it.
func writePages(ctx context.Context, fsys afero.Fs, dir string, pages []page) error {
	if err := encodePages(ctx, pages); err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range pages {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if p.textFile != "" && p.text != "" { // else renderTexts wrote it
				if err := writeFile(fsys, filepath.Join(dir, filepath.FromSlash(p.textFile)), []byte(p.text)); err != nil {
					return err
				}
			}
			return writeFile(fsys, filepath.Join(dir, "content", filepath.FromSlash(p.file)), p.content)
		})
	}
	return g.Wait()
}

// writeData writes the templates' data (hugo.Data.site) into the site at dir.
// The circulars' views, already JSON (runViews, withCard), are written as
// they are: encoding/json would compact and check each again, a second
// of every 10,000 circulars' build spent on bytes it made itself.
func writeData(fsys afero.Fs, dir string, data map[string]any) error {
	views, raw := data["circulars"].([]json.RawMessage)
	if raw {
		data = maps.Clone(data)
		delete(data, "circulars")
	}
	var site bytes.Buffer
	enc := json.NewEncoder(&site)
	enc.SetEscapeHTML(false) // the cards are HTML: <, > and & as themselves, not \u003c
	if err := enc.Encode(data); err != nil {
		return err
	}
	if raw {
		rest := bytes.TrimSuffix(bytes.TrimSuffix(site.Bytes(), []byte("\n")), []byte("}"))
		n := len(rest) + len(`,"circulars":[]}`) + len(views)
		for _, v := range views {
			n += len(v)
		}
		b := make([]byte, 0, n)
		b = append(b, rest...)
		if len(rest) > 1 { // more than the opening {
			b = append(b, ',')
		}
		b = append(b, `"circulars":[`...)
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

// siteShows are the circulars the site's own pages show beyond their
// lists' items: the dashboard's first screen. (The impact tracker's
// cards carry their entries whole.)
func siteShows(data map[string]any) []string {
	return slices.Clone(data["dashboard"].(dashboardView).Circulars)
}
