// Package generator renders the site: it loads and checks the content,
// writes it as a temporary Hugo site, runs Hugo as a library with the
// layouts of templates/, adds the islands' assets, feeds and data, and
// checks that every route exists.
package generator

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/common/loggers"
	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/config/allconfig"
	"github.com/gohugoio/hugo/deps"
	"github.com/gohugoio/hugo/hugofs"
	"github.com/gohugoio/hugo/hugolib"
	"github.com/spf13/afero"

	"regpulse/internal/catalog"
)

// Options says what to build from and where to.
type Options struct {
	ContentDir   string // editors' content/
	TemplatesDir string // Hugo layouts
	AssetsDir    string // islands/dist
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
	// Obligations are the obligations the store shows, by circular id
	// (the store's AllObligations): a circular without written ones shows
	// its stored extracted ones, labelled as such. Nil builds without them.
	Obligations map[string][]catalog.Obligation
	// LastBuild is the folder of the last build when OutDir is a new one
	// (serve's rebuilds, each into a new folder): what did not change since
	// is hard-linked from it, not rendered or written again. Empty: the
	// last build is OutDir itself.
	LastBuild string
	// ChunkPages is how many circulars' or list pages one Hugo run renders
	// (chunks.go); 0 means ChunkPages.
	ChunkPages int
	// ActiveUsers is the dashboard's Active Users figure as of the build
	// (the store's count; 0 without one). The page refreshes all four
	// figures from the API when it loads.
	ActiveUsers int
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
}

// Result describes a successful build.
type Result struct {
	Catalog *catalog.Catalog // nil with Options.ReleaseContent
	Pages   int
	// Unchanged says the inputs were those of the output's last build and
	// the output was whole, so nothing was rendered.
	Unchanged bool
	// Rendered counts the pages Hugo rendered: every page but the
	// circulars' pages and list pages the output held already, rendered
	// from the same inputs (pagekeys.go).
	Rendered int
	// RenderedPaths are those pages' files, sorted (circulars/x/index.html).
	RenderedPaths []string
}

// MemoryLimitMiB is the soft memory limit `regpulse build` sets by
// default (debug.SetMemoryLimit) and the build benchmark runs under: the
// least the build is kept to. Build raises it as it needs (heapLimit):
// at 10,000 circulars the process peaks near 1.0 GB, at 100,000 near
// 1.3 GB.
const MemoryLimitMiB = 800

// heapLimit keeps the process's soft memory limit, when one is set
// (`regpulse build` sets MemoryLimitMiB), above the heap the build holds:
// before Hugo, at least one and a half times that heap plus 512 MiB
// (fit); for Hugo's runs, that heap plus runsHeadroomMiB (fitRuns).
// Under a limit below the live heap the collector runs without pause,
// taking half the CPU: at 100,000 circulars the build holds some 500 MB
// once the texts are rendered. (Twice the heap let the process reach
// 1.5 GB there, its budget.)
//
// Under a limit the build also turns GOGC's proportional collection off:
// the limit, fitted as the heap grows, is what keeps the process small,
// and collecting each time the heap doubled from a small one cost the
// loading of 100,000 circulars a fifth of its CPU (17.4 s against 14.5 s,
// RSS 742 against 858 MB, under the same 800 MiB limit).
type heapLimit struct {
	set int64 // the limit the process had
	gc  int   // the GOGC percentage it had, while a limit is set
}

func newHeapLimit() heapLimit {
	h := heapLimit{set: debug.SetMemoryLimit(-1)}
	if h.set != math.MaxInt64 {
		h.gc = debug.SetGCPercent(-1)
	}
	return h
}

// fit sets the limit from the heap live now: raised while the build holds
// more than the process's limit allows, lowered again (never below it)
// once the build holds less, so the collector keeps the process small.
func (h heapLimit) fit() {
	h.fitTo(func(live int64) int64 { return live*3/2 + 512<<20 })
}

// runsHeadroomMiB is what Hugo's runs are given above the heap the build
// holds when they start: a run holds some 300 MB of its own (ChunkPages
// pages, their data), and the rest is room to allocate between two
// collections. Each collection marks the whole live heap, so with the
// build's own heap held as bytes (runViews, page.encode) and a fixed room
// above it, Hugo's runs at 100,000 circulars collect less often and each
// collection costs less.
const runsHeadroomMiB = 896

// fitRuns sets the limit for Hugo's runs: the heap live now plus
// runsHeadroomMiB (never below the process's limit).
func (h heapLimit) fitRuns() {
	h.fitTo(func(live int64) int64 { return live + runsHeadroomMiB<<20 })
}

func (h heapLimit) fitTo(limit func(live int64) int64) {
	if h.set == math.MaxInt64 {
		return
	}
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	debug.SetMemoryLimit(max(h.set, limit(int64(live[0].Value.Uint64()))))
}

// restore gives the process its limit and GOGC back.
func (h heapLimit) restore() {
	debug.SetMemoryLimit(h.set)
	if h.set != math.MaxInt64 {
		debug.SetGCPercent(h.gc)
	}
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
	step := newPhases(opts.Log)
	scripts, err := templateScriptHashes(opts.TemplatesDir)
	if err != nil {
		return nil, err
	}
	mem := newHeapLimit()
	defer mem.restore()
	// what the Result returns: nothing with ReleaseContent, so that the
	// catalog is garbage once the runs' pages and data are made
	result := func(cat *catalog.Catalog) *catalog.Catalog {
		if opts.ReleaseContent {
			return nil
		}
		return cat
	}
	// The content is hashed as the catalog loads it, each file read once.
	read := newFileSums()
	cat, err := loadCatalog(opts, catalog.WithRead(read.add))
	if err != nil {
		return nil, err
	}
	mem.fit()
	assets, err := LoadAssets(opts.AssetsDir)
	if err != nil {
		return nil, err
	}
	inputs, err := inputsHash(opts, read)
	if err != nil {
		return nil, err
	}
	step.done("load", "circulars", len(cat.Circulars))
	base := cmp.Or(opts.LastBuild, opts.OutDir)
	last := readManifest(base)
	unchanged := last != nil && last.Inputs == inputs && last.complete(base)
	if unchanged && base == opts.OutDir {
		return &Result{Catalog: result(cat), Pages: last.pages(), Unchanged: true}, nil
	}

	parent := filepath.Dir(opts.OutDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp(parent, ".regpulse-build-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	pub, err := newPublisher(opts.OutDir, filepath.Join(work, "public"), base)
	if err != nil {
		return nil, err
	}
	if unchanged { // into a new folder: the last build's files, linked
		if err := pub.reuseAll(); err != nil {
			return nil, err
		}
		if err := pub.commit(inputs, last.Pages); err != nil {
			return nil, err
		}
		return &Result{Catalog: result(cat), Pages: last.pages(), Unchanged: true}, nil
	}
	keep := textsKept(cat, opts.Now())
	textPack, err := createPack(filepath.Join(work, "texts.pack"))
	if err != nil {
		return nil, err
	}
	defer textPack.Close()
	cardPack, err := createPack(filepath.Join(work, "cards.pack"))
	if err != nil {
		return nil, err
	}
	defer cardPack.Close()
	to := textsOpts{pack: textPack, keepHTML: keep.html}
	if opts.ReleaseContent {
		content, label := os.DirFS(opts.ContentDir), filepath.Base(opts.ContentDir)
		to.read = func(c catalog.Circular) (string, error) { return catalog.ReadText(content, label, c.Entry) }
	}
	txt, err := renderTexts(ctx, cat.Circulars, to)
	if err != nil {
		return nil, err
	}
	if opts.ReleaseContent {
		mem.fit()
	}
	step.done("texts")
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	views := circularViews(cat, txt)
	txt.dropPlain(keep.plain)
	data := templateData(cat, assets, opts, views, txt.preview)
	step.done("views")
	index, err := fallbackIndex(cat)
	if err != nil {
		return nil, err
	}
	if index != nil {
		data["fallbackIndex"] = "/" + FallbackIndexPath
	}
	entries, err := impactEntries(impactTracker(cat, opts.Now(), txt.preview))
	if err != nil {
		return nil, err
	}
	if entries != nil {
		it := data["impactTracker"].(impactPageView)
		it.Entries = "/" + ImpactEntriesPath
		data["impactTracker"] = it
	}
	shown := allShows(views)
	cards, err := cardSums(ctx, views)
	if err != nil {
		return nil, err
	}
	// From here on the views are JSON (runViews): the structs are let go.
	enc, err := encodeViews(ctx, views)
	if err != nil {
		return nil, err
	}
	delete(data, "circulars") // each run's data has its own (chunkData)
	keys, err := circularPageKeys(ctx, opts, data, enc, cards, txt, shown)
	if err != nil {
		return nil, err
	}
	step.done("circular keys")
	// Circulars whose pages the output holds, rendered from the same
	// inputs: Hugo links them (lists and the sitemap name them) but does
	// not render them again.
	kept := map[string]bool{}
	for _, c := range cat.Circulars {
		if path := circularPagePath(c.Slug); pub.old != nil && pub.old.Pages[path] == keys[path] && pub.keep(path) {
			kept[c.Slug] = true
		}
	}
	pages := sitePages(cat, opts.Now(), txt, kept, shown)
	if err := encodePages(ctx, pages); err != nil {
		return nil, err
	}
	listKeys, err := listPageKeys(opts, data, enc, cards, pages)
	if err != nil {
		return nil, err
	}
	maps.Copy(keys, listKeys)
	step.done("list keys")
	// List pages the output holds, rendered from the same inputs, are kept
	// as they are: they are not given to Hugo at all.
	pages = slices.DeleteFunc(pages, func(p page) bool {
		if p.group != groupList || pub.old == nil {
			return false
		}
		path := listPagePath(p)
		return pub.old.Pages[path] == keys[path] && pub.keep(path)
	})
	// The feeds before Hugo, so that the rendered texts are garbage by the
	// time Hugo holds every page.
	if index != nil {
		if err := pub.publish(FallbackIndexPath, index); err != nil {
			return nil, err
		}
	}
	if entries != nil {
		if err := pub.publish(ImpactEntriesPath, entries); err != nil {
			return nil, err
		}
	}
	if err := writeOutputs(pub, cat, opts, txt, scripts); err != nil {
		return nil, err
	}
	// the islands' build, without Vite's manifest folder, which only the generator reads
	if err := pub.publishDir(assets.Dir, "assets", ".vite"); err != nil {
		return nil, fmt.Errorf("copy assets: %w", err)
	}
	routes, returned := Routes(cat, opts.Now()), result(cat) // cat is not read after this
	step.done("outputs")
	if err := renderPages(ctx, work, textPack, cardPack, pages, data, enc, siteShows(data), pub, opts, mem, step); err != nil {
		return nil, err
	}
	n, err := verify(pub.files, routes)
	if err != nil {
		return nil, err
	}
	if err := pub.commit(inputs, keys); err != nil {
		return nil, err
	}
	step.done("verify and commit", "pages", n)
	slices.Sort(pub.rendered)
	return &Result{Catalog: returned, Pages: n, Rendered: len(pub.rendered), RenderedPaths: pub.rendered}, nil
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
		if len(c.Obligations) == 0 {
			for _, o := range opts.Obligations[c.ID] {
				if o.Origin == catalog.OriginExtracted { // what editors wrote is the content's
					cat.Circulars[i].Obligations = append(cat.Circulars[i].Obligations, o)
				}
			}
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
	if err := writePages(ctx, fsys, dir, sitePages(cat, now, txt, nil, allShows(data["circulars"].([]circularView)))); err != nil {
		return err
	}
	return writeData(fsys, dir, data)
}

// writeFile writes data to path on fsys, making its folder.
func writeFile(fsys afero.Fs, path string, data []byte) error {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return afero.WriteFile(fsys, path, data, 0o644)
}

// runHugo renders the temporary site at siteDir on site into out (at
// outDir: the publisher's staging folder, or a run of cards' own); whole
// says it is the run of the site's own pages, the only one with the home
// page, sections, 404.html and robots.txt.
func runHugo(site afero.Fs, siteDir string, out publishFs, outDir string, opts Options, whole bool) error {
	var logbuf bytes.Buffer
	logger := loggers.New(loggers.Options{Level: logg.LevelWarn, StdOut: &logbuf, StdErr: &logbuf, StoreErrors: true})
	cfg := config.New()
	for k, v := range hugoConfig(siteDir, outDir, opts) {
		cfg.Set(k, v)
	}
	if !whole {
		cfg.Set("disableKinds", []string{"taxonomy", "term", "rss", "sitemap", "home", "section", "404", "robotstxt"})
		cfg.Set("enableRobotsTXT", false)
	}
	cfg.Set("noBuildLock", true)

	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Flags: cfg, Fs: site, Logger: logger,
		// A non-empty environment stops HUGO_* variables of the process from
		// overriding the config set here.
		Environ: []string{"REGPULSE=1"},
	})
	if err != nil {
		return fmt.Errorf("hugo config: %w", err)
	}
	fs := hugofs.NewFrom(site, configs.LoadingInfo.BaseConfig)
	fs.PublishDir, fs.PublishDirServer, fs.PublishDirStatic = out, out, out
	sites, err := hugolib.NewHugoSites(deps.DepsCfg{Configs: configs, Fs: fs, TestLogger: logger,
		StdOut: &logbuf, StdErr: &logbuf})
	if err != nil {
		return hugoError(err, &logbuf, siteDir, opts)
	}
	defer sites.Close()
	if err := sites.Build(hugolib.BuildCfg{}); err != nil {
		return hugoError(err, &logbuf, siteDir, opts)
	}
	if n := logger.LoggCount(logg.LevelWarn) + logger.LoggCount(logg.LevelError); n > 0 {
		return hugoError(fmt.Errorf("%d warning(s) or error(s)", n), &logbuf, siteDir, opts)
	}
	return nil
}

// hugoConfig is the configuration Hugo builds the temporary site with
// (the build benchmark gives the Hugo CLI the same).
func hugoConfig(siteDir, outDir string, opts Options) map[string]any {
	return map[string]any{
		"workingDir":      siteDir,
		"contentDir":      filepath.Join(siteDir, "content"),
		"dataDir":         filepath.Join(siteDir, "data"),
		"layoutDir":       opts.TemplatesDir,
		"publishDir":      outDir,
		"cacheDir":        filepath.Join(siteDir, ".cache"),
		"baseURL":         opts.BaseURL,
		"title":           "RegPulse",
		"locale":          "en-IN",
		"enableRobotsTXT": true,
		// the sitemaps are the generator's (sitemap.go): Hugo's is one file,
		// which a site of more than 50,000 pages outgrows
		"disableKinds": []string{"taxonomy", "term", "rss", "sitemap"},
		// Page bodies come as HTML that internal/markdown rendered (pages.go),
		// which Hugo's security policy refuses unless allowed.
		"security": map[string]any{"allowContent": []string{"^text/html$", "^text/markdown$"}},
		"params":   map[string]any{"supportEmail": opts.SupportEmail},
	}
}

// hugoError makes Hugo's message name the project's own files: template
// paths are already absolute; generated content paths are mapped back to
// the temporary site only, since their source is validated before.
func hugoError(err error, log *bytes.Buffer, siteDir string, opts Options) error {
	msg := strings.TrimSpace(err.Error())
	if l := strings.TrimSpace(log.String()); l != "" && !strings.Contains(msg, l) {
		msg += "\n" + l
	}
	msg = strings.ReplaceAll(msg, opts.TemplatesDir+string(filepath.Separator), "templates/")
	msg = strings.ReplaceAll(msg, siteDir+string(filepath.Separator), "(generated site) ")
	return fmt.Errorf("hugo: %s", msg)
}

// swapDir replaces dst with src: dst is moved aside, src renamed into
// place, and the old copy removed.
func swapDir(src, dst string) error {
	old := dst + ".old"
	_ = os.RemoveAll(old)
	if err := os.Rename(dst, old); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		_ = os.Rename(old, dst)
		return err
	}
	return os.RemoveAll(old)
}
