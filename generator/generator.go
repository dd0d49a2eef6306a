// Package generator is what the site is: from the checked content it
// makes every page (the dashboard, the directories, the circulars' pages,
// the paged lists), the data the templates read, the circulars' views and
// texts, the feeds, calendars, sitemaps and headers, and what each page's
// key hashes; generator/render renders them with Hugo in bounded runs and
// publishes only what changed. Build runs one build, step by step.
package generator

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"
	"golang.org/x/sync/errgroup"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/i18n"
	"regpulse/internal/impact"
	"regpulse/internal/related"
)

// Options says what to build from and where to.
type Options struct {
	ContentDir   string // editors' content/
	TemplatesDir string // Hugo layouts
	AssetsDir    string // islands/dist
	// MediaDir is the media folder editors upload to (media/ beside the
	// content folder when empty), copied to /media: images and PDFs only.
	MediaDir string
	// DecapDir is Decap CMS's build, copied to /admin (cms/node_modules/
	// decap-cms/dist beside the islands' folder when empty; /admin has
	// only its sign-in gate and config.yml when it is missing).
	DecapDir     string
	OutDir       string // public/, replaced as a whole when the build succeeds
	BaseURL      string // absolute site URL, used in feeds and the sitemap
	SupportEmail string // the sidebar's Contact Us address
	// Now is the build's clock: the impact tracker's scores and "currently
	// active" circulars are as of its date. Nil means time.Now; tests fix it.
	Now func() time.Time
	// IncludeUnpublished builds the circulars marked published: false too,
	// to preview them; the build fails while one lacks a required field.
	IncludeUnpublished bool
	// Summaries are the AI summaries the API stored, by circular id (the
	// store's CircularSummaries): cards and pages show them, labelled as
	// generated. Nil builds without them.
	Summaries map[string]catalog.GeneratedSummary
	// Obligations are the store's extracted obligations (StoredObligations):
	// a circular without written ones shows its stored extracted ones,
	// labelled as such. Nil builds without them.
	Obligations StoredObligations
	// LastResult is a last build's Result (serve keeps its rebuilds'):
	// when this build's inputs are its inputs, its Catalog is this one's
	// and the content is not loaded again.
	LastResult *Result
	// LastBuild is the folder of the last build when OutDir holds none
	// (serve's first rebuild into the second of its two folders): what
	// did not change since is hard-linked from it, not rendered or
	// written again. When OutDir holds a build (its manifest), that
	// build is the last one, however old, and LastBuild is not read: what
	// changed since is written in place, file by file (at 100,000
	// circulars, linking the 230,000 files of a new folder took 10 s of
	// an edit's 20). Empty: the last build is OutDir's.
	LastBuild string
	// RunPages is how many circulars' or list pages one Hugo run renders
	// (generator/render); 0 means render.RunPages.
	RunPages int
	// ActiveUsers is the dashboard's Active Users figure as of the build
	// (the store's count; 0 without one). The page refreshes all four
	// figures from the API when it loads.
	ActiveUsers int
	// SourceFreshness is, per regulator, when ingest last read it
	// successfully, as the store knew it when the build began (its
	// IngestFreshness at Now): the lists, the dashboard and the
	// regulators' pages say "up to date as of" per source and mark a
	// stale one. Nil without a store: they say nothing per source.
	SourceFreshness []catalog.SourceFreshness
	// PublicationLog is the publication log's newest entries, newest
	// first, as the store held them: /publication-log lists them and
	// links to the API for the rest. Nil without a store.
	PublicationLog []catalog.PublicationEntry
	// ReleaseContent says the caller reads nothing of the catalog from the
	// Result: the build loads the catalog without the circulars' texts
	// (catalog.WithoutTexts) and reads each from its file while it renders
	// it (at 100,000 circulars they are over 1 GB), lets the catalog go
	// before Hugo's runs (some 180 MB that each of their collections
	// would scan), and Result.Catalog is nil. A caller that syncs the
	// catalog into a store leaves it false.
	ReleaseContent bool
	// Log takes the build's steps and how long each took, at debug
	// level; nil logs nothing.
	Log *slog.Logger
	// TemplateMetrics, when set, takes each Hugo run's template metrics
	// (render.Hugo.Metrics): a benchmark's view of where the runs' time
	// goes (REGPULSE_BENCH_TEMPLATE_METRICS).
	TemplateMetrics io.Writer
}

// Result describes a successful build.
type Result struct {
	Catalog *catalog.Catalog // nil with Options.ReleaseContent
	Inputs  string           // the hash of the inputs (inputs.go)
	Pages   int
	// Unchanged says the inputs were those of the output's last build and
	// the output was whole, so nothing was rendered.
	Unchanged bool
	// Rendered counts the pages Hugo rendered: every page but the
	// circulars' pages and list pages the output held already, rendered
	// from the same inputs (pagekeys.go: the pages' keys).
	Rendered int
	// RenderedPaths are those pages' files, sorted (circulars/x/index.html).
	RenderedPaths []string
	// Framed counts the rendered pages set in a frame (render/frames.go):
	// every circular's page.
	Framed int
	// WithItems counts the rendered pages whose list items the build set
	// in (render/frames.go): the lists' further pages.
	WithItems int
}

// Hugo keeps package-level caches; builds must not overlap.
var buildMu sync.Mutex

// Build renders the whole site into opts.OutDir. Nothing reaches it until
// the build has succeeded, so a failed build leaves the previous site
// untouched and no stale page survives a good one. Only the files whose
// bytes changed are written into it (a manifest of hashes is kept beside
// it), and a build whose inputs are those of the last one renders nothing.
func Build(ctx context.Context, opts Options) (*Result, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if err := opts.absolute(); err != nil {
		return nil, err
	}
	b := &build{opts: opts, steps: render.NewSteps(opts.Log), mem: render.NewHeapLimit()}
	defer b.mem.Restore()
	if err := b.load(ctx); err != nil {
		return nil, err
	}
	if b.unchanged && b.base == opts.OutDir {
		// (files the last build hashed and found too recent to record
		// may be recorded now)
		if err := b.rec.WriteChanged(opts.OutDir); err != nil {
			return nil, err
		}
		return b.unchangedResult(), nil
	}
	ws, err := render.NewWorkspace(filepath.Dir(opts.OutDir))
	if err != nil {
		return nil, err
	}
	defer ws.Close()
	if b.out, err = render.NewOutput(opts.OutDir, ws.Staging(), b.base, b.last); err != nil {
		return nil, err
	}
	// (a failed build's staged files closed; Commit closes a good one's)
	defer b.out.Close()
	if b.unchanged { // into a new folder: the last build's files, linked
		if err := b.out.ReuseAll(); err != nil {
			return nil, err
		}
		if err := b.out.Commit(b.inputs, b.last.Pages); err != nil {
			return nil, err
		}
		if err := b.rec.Write(opts.OutDir); err != nil {
			return nil, err
		}
		linkCaches(b.base, opts.OutDir)
		pruneCaches(filepath.Dir(opts.OutDir))
		return b.unchangedResult(), nil
	}
	b.ws = ws
	if err := writeDecodedCache(ws.Staging(), b.decoded, b.decodedFiles, b.decodedChanges); err != nil {
		return nil, err
	}
	b.decoded, b.decodedFiles, b.decodedChanges = nil, nil, render.MapChanges[string]{}
	if err := b.renderTexts(ctx); err != nil {
		return nil, err
	}
	if err := b.makeViews(ctx); err != nil {
		return nil, err
	}
	if err := b.keyPages(ctx); err != nil {
		return nil, err
	}
	if err := b.publishOutputs(ctx); err != nil {
		return nil, err
	}
	if err := b.renderPages(ctx); err != nil {
		return nil, err
	}
	return b.commit()
}

// build is one run of Build: what each step makes for the steps after
// it. A step lets go what no later step reads (the catalog with
// ReleaseContent, the texts, the views as structs), so that Hugo's runs,
// most of a build, hold little the collector has to scan.
type build struct {
	opts  Options
	steps *render.Steps
	mem   render.HeapLimit

	// load
	cat     *catalog.Catalog
	book    *directions.Book // the catalog's directions, one per build: its comparisons are shared
	assets  *Assets
	scripts []string // the templates' inline scripts' CSP hashes
	inputs  string   // the inputs' hash
	// extracted is the stamps of the store's extracted obligations, read
	// first: the inputs' hash and the texts' keys hash them
	extracted extractedObligations
	base      string // the folder of the last build
	last      *render.Manifest
	rec       *render.Record // the inputs' files' stamps and hashes: the last build's, then this one's
	// decoded is what the load made of each circular's file, for the
	// next build's (catalog.WithDecoded), until the workspace keeps it
	decoded catalog.Decoded
	// decodedFiles is where the last build's was read, and
	// decodedChanges what decoded changed from it: what the write writes
	decodedFiles   *render.BesideMap[string, *catalog.DecodedFile]
	decodedChanges render.MapChanges[string]
	// unchanged says the inputs are the last build's and its output is whole
	unchanged bool
	// textCache is the last build's texts' cache, read beside the end of
	// the load, for renderTexts
	textCache func() *textCache

	ws  *render.Workspace
	out *render.Output

	// renderTexts
	txt       texts
	textsOpts textsOpts       // how they were rendered: fillTexts renders the rest so
	keepPlain map[string]bool // the circulars whose plain texts outlive the views

	// makeViews
	data    map[string]any
	views   render.Views
	index   []byte // the fallback search index; nil: none
	entries []byte // the impact tracker's entries; nil: none
	shown   map[string][]string
	cards   map[string][sha256.Size]byte
	// each network's recent circulars, which its page's data and its
	// page's key read
	networksRecent [][]string

	// keyPages
	pages []render.Page
	keys  map[string]string

	// publishOutputs
	routes []string
	result *catalog.Catalog // what the Result returns: nil with ReleaseContent
}

// load loads and checks the content (hashing each file the record does
// not know as it is read), the assets and the templates' inline scripts,
// and compares the inputs' hash with the last build's. When the last
// build's record knows most content files (render.Record) and the caller
// needs no new catalog, the hash is compared before the content is
// loaded, reading only the files the record does not know: an unchanged
// build reads no content file the last build recorded.
func (b *build) load(ctx context.Context) error {
	var err error
	if b.scripts, err = templateScriptHashes(b.opts.TemplatesDir); err != nil {
		return err
	}
	if b.extracted, err = readExtracted(ctx, b.opts); err != nil {
		return fmt.Errorf("the store's extracted obligations: %w", err)
	}
	// (a folder holding a build of its own is rebuilt in place, from it)
	b.base = b.opts.OutDir
	if b.opts.LastBuild != "" && !render.HasBuild(b.opts.OutDir) {
		b.base = b.opts.LastBuild
	}
	// the manifest (at 100,000 circulars some 40 MB of JSON) is read
	// while the record is read and the content folder stat'ed
	last := later(func() *render.Manifest { return render.ReadManifest(b.base) })
	b.rec = render.ReadRecord(b.base)
	files, unknown, err := b.rec.Scan(b.opts.ContentDir)
	b.last = last()
	if err != nil {
		return err
	}
	b.mem.RaiseFloor(int64(files) * render.FloorPerFile)
	// The decoded cache (95 MB) is read while the inputs are hashed when
	// a content file changed, since the content will then be loaded; a
	// build whose content files are all as recorded reads it only once
	// its inputs are found changed, so an unchanged build never does.
	readDecoded := func() decodedCache {
		last, files := readDecodedCache(b.base)
		return decodedCache{last, files}
	}
	if unknown > 0 {
		readDecoded = later(readDecoded)
	}
	if b.assets, err = LoadAssets(b.opts.AssetsDir); err != nil {
		return err
	}
	lastCat := b.opts.LastResult != nil && b.opts.LastResult.Catalog != nil
	// (with many files unknown, as after a first build of new content,
	// those would be read twice: to hash them here and to load them)
	if unknown <= files/8 && b.last != nil && (b.opts.ReleaseContent || lastCat) {
		if b.inputs, err = inputsHash(b.opts, b.extracted.stamps, b.rec); err != nil {
			return err
		}
		if b.last.Inputs == b.inputs && (b.opts.ReleaseContent || b.opts.LastResult.Inputs == b.inputs) && b.last.Complete(b.base) {
			b.unchanged = true
			if !b.opts.ReleaseContent {
				b.result = b.opts.LastResult.Catalog
			}
			b.steps.Done("load", "unchanged", true, "files read", unknown)
			return nil
		}
	}
	dc := readDecoded()
	readDecoded = nil // (it holds what it read)
	readTexts := func() { b.textCache = later(func() *textCache { return readTextCache(b.base) }) }
	textsEarly := b.inputs != ""
	if textsEarly {
		// An edit (the inputs hashed): the texts' cache is read while the
		// circulars are loaded, on the core the load leaves idle, the
		// limit raised by what it will hold (twice its file) so that the
		// collector does not run without pause under the process's limit.
		if st, err := os.Stat(render.BesidePath(b.base, textCacheName+".gob")); err == nil {
			b.mem.Raise(2 * st.Size())
		}
		readTexts()
	}
	decoded, decodedFiles := dc.last, dc.files
	b.decoded = make(catalog.Decoded, len(decoded))
	var read atomic.Int64 // content files read (the others taken from the decoded cache)
	hash := b.rec.Reader(b.opts.ContentDir)
	if b.cat, err = loadCatalog(b.opts, catalog.WithRead(func(p string, data []byte) { read.Add(1); hash(p, data) }),
		catalog.WithLangs(b.recordedLang), catalog.WithDecoded(decoded, b.contentSum, b.decoded)); err != nil {
		return err
	}
	b.decodedFiles, b.decodedChanges = decodedFiles, decodedChanges(decodedFiles, decoded, b.decoded)
	decoded = nil // (before Fit: at 100,000 circulars some 200 MB)
	// (the notes set while the heap limit is fitted: its collection
	// waits, the notes' 100,000 paths are 0.14 s at 100,000 circulars)
	var noting sync.WaitGroup
	noting.Go(func() {
		for _, cs := range [][]catalog.Circular{b.cat.Circulars, b.cat.Unpublished} {
			for _, c := range cs {
				b.rec.SetNote(b.contentPath(c), c.Lang)
			}
		}
	})
	b.mem.Fit()
	noting.Wait()
	// else the texts' cache (some 300 MB at 100,000 circulars) is read
	// while the inputs are hashed, once the limit is fitted to the load's
	// heap: under the process's first limit the two would make the
	// collector run without pause
	if !textsEarly {
		readTexts()
	}
	// (hashed before the load when the record knew most files: from the
	// same record, the same hash. A file changed since its stat is known
	// by its new stamp to the next build, which builds again.)
	if b.inputs == "" {
		if b.inputs, err = inputsHash(b.opts, b.extracted.stamps, b.rec); err != nil {
			return err
		}
	}
	b.steps.Done("load", "circulars", len(b.cat.Circulars), "files unknown", unknown, "files read", read.Load())
	b.unchanged = b.last != nil && b.last.Inputs == b.inputs && b.last.Complete(b.base)
	b.result = b.cat
	if b.opts.ReleaseContent {
		b.result = nil
	}
	return nil
}

// recordedLang is the language of the circular at rel (under the
// content folder) as the last build found it in the same bytes: the
// record's note of the file (catalog.WithLangs).
func (b *build) recordedLang(rel string) (string, bool) {
	return b.rec.Note(filepath.Join(b.opts.ContentDir, filepath.FromSlash(rel)))
}

// contentSum is the hash of the file at rel (under the content folder)
// as the record knows it, if it does (catalog.WithDecoded).
func (b *build) contentSum(rel string) ([sha256.Size]byte, bool) {
	return b.rec.Sum(filepath.Join(b.opts.ContentDir, filepath.FromSlash(rel)))
}

// circularSum is the hash of c's file as the catalog loaded it, if the
// record has it (textsOpts.sum).
func (b *build) circularSum(c catalog.Circular) ([sha256.Size]byte, bool) {
	return b.rec.Sum(b.contentPath(c))
}

// contentPath is c's file's path, as the record knows it.
func (b *build) contentPath(c catalog.Circular) string {
	// (the path under the content folder: the loader's label, then rel)
	_, rel, _ := strings.Cut(c.Path, "/")
	return filepath.Join(b.opts.ContentDir, filepath.FromSlash(rel))
}

func (b *build) unchangedResult() *Result {
	return &Result{Catalog: b.result, Inputs: b.inputs, Pages: b.last.PageCount(), Unchanged: true}
}

// renderTexts renders every circular's text once, into the workspace's
// texts, keeping what the feeds and previews read later.
func (b *build) renderTexts(ctx context.Context) error {
	keep := textsKept(b.cat, b.opts.Now())
	cache := b.textCache()
	b.textCache = nil
	to := textsOpts{pack: b.ws.Texts, keepHTML: keep.html, full: draftPairs(b.cat), cache: cache, sum: b.circularSum, extracted: b.extracted}
	if b.opts.ReleaseContent {
		content, label := os.DirFS(b.opts.ContentDir), filepath.Base(b.opts.ContentDir)
		to.read = func(c catalog.Circular) (string, [sha256.Size]byte, error) {
			return catalog.ReadText(content, label, c.Entry)
		}
	}
	var err error
	if b.txt, err = renderTexts(ctx, b.cat.Circulars, to); err != nil {
		return err
	}
	// (written now, and let go: at 100,000 circulars the leads it holds
	// are some 250 MB, which Hugo's runs would hold too)
	if err := cache.write(b.ws.Staging()); err != nil {
		return err
	}
	to.cache = nil
	b.textsOpts = to
	if b.opts.ReleaseContent {
		b.mem.Fit()
	}
	b.steps.Done("texts")
	b.keepPlain = keep.plain
	return ctx.Err()
}

// makeViews makes the circulars' views (related circulars ranked), the
// templates' data, the fallback search index and the impact tracker's
// entries, and what the pages' keys hash of the views; from here on the
// views are JSON (render.Views): the structs are let go.
func (b *build) makeViews(ctx context.Context) error {
	rc := readRelatedCache(b.base)
	views, err := circularViews(b.cat, b.directions(), b.txt, b.opts.Now(), func(docs []related.Doc, k int) ([][]int, error) {
		return rc.rank(ctx, docs, k, b.leadOf)
	})
	if err != nil {
		return err
	}
	b.txt.dropPlain(b.keepPlain)
	cites := map[string][]directionCitation{}
	for _, v := range views {
		cites[v.Slug] = v.Directions
	}
	b.txt.linkDrafts(b.cat, cites)
	// What follows only reads the catalog, the texts and the views: each
	// on a goroutine of its own (one after another, a second at 100,000
	// circulars with a core idle).
	var g errgroup.Group
	// (written now, not with the output: it is some 200 MB at 100,000
	// circulars, and holds whatever the output is, as the texts' cache)
	g.Go(func() error {
		err := rc.write(b.ws.Staging())
		rc = nil // (its state, let go before the views are encoded)
		return err
	})
	g.Go(func() (err error) {
		b.index, err = fallbackIndex(b.cat)
		return err
	})
	g.Go(func() (err error) {
		b.entries, err = impactEntries(impactTrackerLists(b.cat, b.opts.Now(), b.txt.preview))
		return err
	})
	g.Go(func() error {
		b.shown = allShows(views)
		return nil
	})
	b.networksRecent = networksRecent(b.cat, b.opts.Now())
	b.data = templateData(b.cat, b.assets, b.opts, views, b.txt.preview, b.networksRecent)
	if err := g.Wait(); err != nil {
		return err
	}
	b.steps.Done("views")
	if b.index != nil {
		b.data["fallbackIndex"] = "/" + FallbackIndexPath
	}
	if b.entries != nil {
		byLang := b.data["impactTracker"].(map[string]impactPageView)
		for code, it := range byLang {
			it.Entries = "/" + ImpactEntriesPath
			byLang[code] = it
		}
	}
	if b.views, err = encodeViews(ctx, views); err != nil {
		return err
	}
	if b.cards, err = cardSums(ctx, b.views); err != nil {
		return err
	}
	delete(b.data, render.ViewsData) // each run's data has its own
	return nil
}

// keyPages makes the pages and their keys, and leaves out the circulars'
// pages and list pages the output holds, rendered from the same inputs:
// Hugo links them (lists and the sitemap name them) but does not render
// them again.
func (b *build) keyPages(ctx context.Context) error {
	var err error
	if b.keys, err = circularPageKeys(ctx, b.opts, b.data, b.views, b.cards, b.txt, b.shown); err != nil {
		return err
	}
	b.steps.Done("circular keys")
	// a circular's page is kept when the output has it in every language;
	// on every core, as each looks for its file (at 100,000 circulars,
	// 200,000 stats one after another were 0.7 s)
	keptAt := make([]bool, len(b.cat.Circulars))
	err = render.InBatches(ctx, len(b.cat.Circulars), 1024, func(i int) error {
		keptAt[i] = true
		for _, lang := range i18n.Languages {
			path := circularPagePath(b.cat.Circulars[i].Slug)
			if lang != i18n.English {
				path = lang.Code + "/" + path
			}
			keptAt[i] = keptAt[i] && b.out.Unchanged(path, b.keys[path])
		}
		return nil
	})
	if err != nil {
		return err
	}
	kept := make(map[string]bool, len(b.cat.Circulars))
	for i, c := range b.cat.Circulars {
		kept[c.Slug] = keptAt[i]
	}
	// the texts of the pages rendered again that the text cache had
	if err := fillTexts(ctx, b.cat.Circulars, b.txt, b.textsOpts, func(slug string) bool { return !kept[slug] }, b.base); err != nil {
		return err
	}
	b.pages = sitePages(b.cat, b.opts.Now(), b.txt, kept, b.shown, b.networksRecent)
	b.shown = nil
	mds, err := directionPages(b.directions(), b.opts.Now())
	if err != nil {
		return err
	}
	b.pages = append(b.pages, mds...)
	if b.pages, err = translatePages(b.pages); err != nil {
		return err
	}
	if err := render.EncodePages(ctx, b.pages); err != nil {
		return err
	}
	listKeys, err := listPageKeys(ctx, b.opts, b.data, b.views, b.cards, b.pages)
	if err != nil {
		return err
	}
	b.cards = nil
	maps.Copy(b.keys, listKeys)
	b.steps.Done("list keys")
	// (each looks for its file: on every core)
	keptList := make([]bool, len(b.pages))
	err = render.InBatches(ctx, len(b.pages), 512, func(i int) error {
		p := b.pages[i]
		keptList[i] = keyedByContent(p) && b.out.Unchanged(listPagePath(p), b.keys[listPagePath(p)])
		return nil
	})
	if err != nil {
		return err
	}
	rest := b.pages[:0]
	for i, p := range b.pages {
		if !keptList[i] {
			rest = append(rest, p)
		}
	}
	clear(b.pages[len(rest):]) // (the kept pages' contents let go)
	b.pages = rest
	return nil
}

// leadOf is the plain lead and LeadSum of the i-th circular's text,
// rendered again: the ranking's for a text taken from the cache whose
// counts the last ranking lacks (relatedCache.rank).
func (b *build) leadOf(i int) (string, [sha256.Size]byte, error) {
	c := b.cat.Circulars[i]
	text, _, _, err := b.textsOpts.text(c)
	if err != nil {
		return "", [sha256.Size]byte{}, err
	}
	t, err := renderText(c, nil, text) // (the lead is the same whatever is marked)
	return t.Plain, t.LeadSum, err
}

// directions is the build's Book of the catalog's directions.
func (b *build) directions() *directions.Book {
	if b.book == nil {
		b.book = directions.New(b.cat)
	}
	return b.book
}

// publishOutputs publishes what Hugo does not render (the feeds, the
// calendars, the sitemaps, the headers, the indexes, the islands'
// assets) before Hugo's runs, so that the rendered texts are garbage by
// the time Hugo holds every page; the catalog is let go after it.
func (b *build) publishOutputs(ctx context.Context) error {
	for _, f := range []struct {
		path string
		data []byte
	}{{FallbackIndexPath, b.index}, {ImpactEntriesPath, b.entries}} {
		if f.data != nil {
			if err := b.out.Publish(f.path, f.data); err != nil {
				return err
			}
		}
	}
	b.index, b.entries = nil, nil
	from, _ := impact.Window(b.opts.Now())
	dated, err := b.extracted.dated(ctx, catalog.Date{Time: from})
	if err != nil {
		return err
	}
	if err := writeOutputs(b.out, b.cat, dated, b.directions(), b.opts, b.txt, b.scripts); err != nil {
		return err
	}
	// the islands' build, without Vite's manifest folder, which only the generator reads
	if err := b.out.PublishDir(b.assets.Dir, "assets", ".vite"); err != nil {
		return fmt.Errorf("copy assets: %w", err)
	}
	if err := b.publishAdmin(); err != nil {
		return fmt.Errorf("admin: %w", err)
	}
	if err := b.publishMedia(); err != nil {
		return err
	}
	b.routes = languageRoutes(Routes(b.cat, b.opts.Now()))
	// not read after this; the book points into the catalog's circulars
	b.cat, b.book, b.txt, b.textsOpts = nil, nil, nil, textsOpts{}
	b.steps.Done("outputs")
	return nil
}

// renderPages renders the pages with Hugo, in runs (generator/render).
func (b *build) renderPages(ctx context.Context) error {
	site := render.Site{
		Pages: b.pages,
		Data:  b.data,
		Views: b.views,
		GroupData: map[render.Group][]string{
			groupCircular:  circularPageData,
			groupList:      listRunData(),
			groupDirection: circularPageData,
		},
		// a direction's pages hold its whole text: a few hundred at a time
		GroupRunPages: map[render.Group]int{groupDirection: directionRunPages},
		// a card reads what a circular's page reads (TestPageReads)
		CardData:  circularPageData,
		SiteShows: siteShows(b.data),
	}
	b.pages, b.views = nil, render.Views{} // the runs let each page go once rendered; the views are spilled to disk
	r := render.Renderer{Hugo: hugoSite(b.opts), RunPages: b.opts.RunPages, Steps: b.steps, Mem: b.mem,
		Languages: map[string]render.Hugo{}}
	for _, lang := range i18n.Languages[1:] {
		r.Languages[lang.Code] = hugoLanguage(b.opts, lang)
	}
	return r.Render(ctx, b.ws, b.out, site)
}

// commit checks that every route was built and puts the output in place
// with the manifest.
func (b *build) commit() (*Result, error) {
	n, err := verify(b.out, b.routes)
	if err != nil {
		return nil, err
	}
	if err := b.out.Commit(b.inputs, b.keys); err != nil {
		return nil, err
	}
	if err := b.rec.Write(b.opts.OutDir); err != nil {
		return nil, err
	}
	if err := commitCaches(b.ws.Staging(), b.opts.OutDir); err != nil {
		return nil, err
	}
	pruneCaches(filepath.Dir(b.opts.OutDir))
	b.steps.Done("verify and commit", "pages", n, "framed", b.out.Framed(), "items set in", b.out.WithItems())
	rendered := b.out.Rendered()
	return &Result{Catalog: b.result, Inputs: b.inputs, Pages: n, Rendered: len(rendered), RenderedPaths: rendered, Framed: b.out.Framed(), WithItems: b.out.WithItems()}, nil
}

// hugoSite is how Hugo renders the site.
func hugoSite(opts Options) render.Hugo {
	return hugoLanguage(opts, i18n.English)
}

// hugoLanguage is how Hugo renders the site's pages in lang: T reads
// the catalogue's table of lang (internal/i18n), the dates' month names
// are lang's, and the templates read the language from site.Params:
// lang (its code), langTag (en-IN), root (its pages' prefix: "" or
// "/hi", written before every link to a page) and languages (the
// switcher's).
func hugoLanguage(opts Options, lang i18n.Language) render.Hugo {
	var langs []map[string]any
	for _, l := range i18n.Languages {
		langs = append(langs, map[string]any{"code": l.Code, "tag": l.Tag, "name": l.Name, "short": l.Short, "root": l.Root})
	}
	return render.Hugo{TemplatesDir: opts.TemplatesDir, BaseURL: opts.BaseURL, Title: "RegPulse", Locale: lang.Tag,
		Language: lang.Code, Tables: i18n.Default().HugoTables(),
		Params: map[string]any{"supportEmail": opts.SupportEmail, "lang": lang.Code, "langTag": lang.Tag,
			"root": lang.Root, "languages": langs},
		Metrics: opts.TemplateMetrics}
}

// loadCatalog loads and checks the content, with the stored AI summaries.
func loadCatalog(opts Options, more ...catalog.LoadOption) (*catalog.Catalog, error) {
	lean := slices.Clone(more)
	if opts.ReleaseContent {
		// the texts are read again one by one as they are rendered
		lean = append(lean, catalog.WithoutTexts())
	}
	cat, err := catalog.LoadFS(os.DirFS(opts.ContentDir), filepath.Base(opts.ContentDir), opts.Now, lean...)
	if err != nil {
		return nil, err
	}
	if opts.IncludeUnpublished {
		if err := cat.IncludeUnpublished(); err != nil {
			return nil, err
		}
	}
	if err := checkSite(cat, opts.ContentDir); err != nil {
		return nil, err
	}
	for i, c := range cat.Circulars {
		if s, ok := opts.Summaries[c.ID]; ok {
			cat.Circulars[i].AISummary = &s
		}
	}
	return cat, nil
}

func (o *Options) absolute() error {
	for _, p := range []*string{&o.ContentDir, &o.TemplatesDir, &o.AssetsDir, &o.OutDir} {
		if *p == "" {
			return errors.New("generator: ContentDir, TemplatesDir, AssetsDir and OutDir are required")
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		*p = abs
	}
	for _, d := range []string{o.ContentDir, o.TemplatesDir} {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return fmt.Errorf("generator: %s is not a directory", d)
		}
	}
	if o.MediaDir == "" {
		o.MediaDir = filepath.Join(filepath.Dir(o.ContentDir), repoMediaDir)
	}
	if o.DecapDir == "" {
		o.DecapDir = filepath.Join(filepath.Dir(filepath.Dir(o.AssetsDir)), "cms", "node_modules", "decap-cms", "dist")
	}
	for _, p := range []*string{&o.MediaDir, &o.DecapDir} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		*p = abs
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.BaseURL == "" {
		o.BaseURL = "http://localhost:8080/"
	}
	if !strings.HasSuffix(o.BaseURL, "/") {
		o.BaseURL += "/"
	}
	return nil
}

// writeSite writes the whole temporary Hugo site into dir on fsys, as one
// run (the build benchmark gives it to the Hugo CLI): every page and
// every key of the data.
func writeSite(ctx context.Context, fsys afero.Fs, dir string, cat *catalog.Catalog, now time.Time, data map[string]any, txt texts) error {
	if err := render.WritePages(ctx, fsys, dir, sitePages(cat, now, txt, nil, allShows(data[render.ViewsData].([]circularView)), networksRecent(cat, now))); err != nil {
		return err
	}
	return render.WriteData(fsys, dir, data)
}

// later runs f on a goroutine of its own and returns what waits for its
// result (once; each call after returns the same).
func later[T any](f func() T) func() T {
	done := make(chan T, 1)
	go func() { done <- f() }()
	return sync.OnceValue(func() T { return <-done })
}
