// Package generator renders the site: it loads and checks the content,
// writes it as a temporary Hugo site, runs Hugo as a library with the
// layouts of templates/, adds the islands' assets, feeds and data, and
// checks that every route exists.
package generator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
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
	// ActiveUsers is the dashboard's Active Users figure as of the build
	// (the store's count; 0 without one). The page refreshes all four
	// figures from the API when it loads.
	ActiveUsers int
}

// Result describes a successful build.
type Result struct {
	Catalog *catalog.Catalog
	Pages   int
}

// Hugo keeps package-level caches; builds must not overlap.
var buildMu sync.Mutex

// Build renders the whole site into opts.OutDir. It builds into a fresh
// sibling folder and swaps it in only on success, so a failed build leaves
// the previous site untouched and no stale page survives a good one.
func Build(ctx context.Context, opts Options) (*Result, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if err := opts.absolute(); err != nil {
		return nil, err
	}
	cat, err := catalog.LoadFS(os.DirFS(opts.ContentDir), filepath.Base(opts.ContentDir), opts.Now)
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
	assets, err := LoadAssets(opts.AssetsDir)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
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
	siteDir, outDir := filepath.Join(work, "site"), filepath.Join(work, "public")

	if err := writeSite(siteDir, cat, assets, opts); err != nil {
		return nil, err
	}
	if err := runHugo(siteDir, outDir, opts); err != nil {
		return nil, err
	}
	if err := copyAssets(assets.Dir, filepath.Join(outDir, "assets")); err != nil {
		return nil, fmt.Errorf("copy assets: %w", err)
	}
	if err := writeOutputs(outDir, cat, opts); err != nil {
		return nil, err
	}
	n, err := Verify(outDir, Routes(cat))
	if err != nil {
		return nil, err
	}
	if err := swapDir(outDir, opts.OutDir); err != nil {
		return nil, err
	}
	return &Result{Catalog: cat, Pages: n}, nil
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

// writeSite writes the temporary Hugo site: one content file per page and
// the catalog as data for the templates.
func writeSite(dir string, cat *catalog.Catalog, assets *Assets, opts Options) error {
	for _, p := range sitePages(cat) {
		front, err := json.MarshalIndent(p.front, "", "  ")
		if err != nil {
			return err
		}
		body, err := markdown.HTML(p.body)
		if err != nil {
			return fmt.Errorf("%s: %w", p.file, err)
		}
		path := filepath.Join(dir, "content", filepath.FromSlash(p.file))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		// JSON front matter: Hugo reads a leading JSON object as front matter.
		if err := os.WriteFile(path, append(append(front, '\n', '\n'), body...), 0o644); err != nil {
			return err
		}
	}
	site, err := json.Marshal(templateData(cat, assets, opts))
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "data", "site.json"), site, 0o644)
}

func runHugo(siteDir, outDir string, opts Options) error {
	var logbuf bytes.Buffer
	logger := loggers.New(loggers.Options{Level: logg.LevelWarn, StdOut: &logbuf, StdErr: &logbuf, StoreErrors: true})
	cfg := config.New()
	cfg.Set("workingDir", siteDir)
	cfg.Set("contentDir", filepath.Join(siteDir, "content"))
	cfg.Set("dataDir", filepath.Join(siteDir, "data"))
	cfg.Set("layoutDir", opts.TemplatesDir)
	cfg.Set("publishDir", outDir)
	cfg.Set("cacheDir", filepath.Join(siteDir, ".cache"))
	cfg.Set("baseURL", opts.BaseURL)
	cfg.Set("title", "RegPulse")
	cfg.Set("locale", "en-IN")
	cfg.Set("noBuildLock", true)
	cfg.Set("enableRobotsTXT", true)
	cfg.Set("disableKinds", []string{"taxonomy", "term", "rss"})
	// Page bodies come as HTML that internal/markdown rendered (pages.go),
	// which Hugo's security policy refuses unless allowed.
	cfg.Set("security", map[string]any{"allowContent": []string{"^text/html$", "^text/markdown$"}})
	cfg.Set("sitemap", map[string]any{"changeFreq": "daily", "filename": "sitemap.xml"})
	cfg.Set("params", map[string]any{"supportEmail": opts.SupportEmail})

	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Flags: cfg, Fs: hugofs.Os, Logger: logger,
		// A non-empty environment stops HUGO_* variables of the process from
		// overriding the config set here.
		Environ: []string{"REGPULSE=1"},
	})
	if err != nil {
		return fmt.Errorf("hugo config: %w", err)
	}
	fs := hugofs.NewFrom(hugofs.Os, configs.LoadingInfo.BaseConfig)
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

// copyAssets copies the islands' build into dst, without Vite's manifest
// folder (.vite), which only the generator reads.
func copyAssets(src, dst string) error {
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		return err
	}
	return os.RemoveAll(filepath.Join(dst, ".vite"))
}
