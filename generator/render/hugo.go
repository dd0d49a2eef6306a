package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/bep/logg"
	"github.com/gohugoio/hugo/common/loggers"
	"github.com/gohugoio/hugo/config"
	"github.com/gohugoio/hugo/config/allconfig"
	"github.com/gohugoio/hugo/deps"
	"github.com/gohugoio/hugo/hugofs"
	"github.com/gohugoio/hugo/hugolib"
	"github.com/spf13/afero"
)

// Hugo is what Hugo renders a site's runs with: its layouts, its address
// and the site's settings.
type Hugo struct {
	TemplatesDir string // the layouts (absolute)
	BaseURL      string
	Title        string
	Locale       string
	Params       map[string]any // the templates' .Site.Params
	// Language is the code of the language the runs render in (Hugo's
	// defaultContentLanguage: T's table, the dates' month names);
	// Tables are the i18n tables written into every run's site
	// (i18n/{code}.json: their contents).
	Language string
	Tables   map[string][]byte
	// Metrics, when set, takes each run's template metrics (Hugo's
	// templateMetrics: each template's total, mean and longest time and
	// its count) once the run is done, in one write: where the runs' time
	// goes.
	Metrics io.Writer
}

// Config is the configuration Hugo builds the temporary site at siteDir
// with, into outDir (the build benchmark gives the Hugo CLI the same).
func (h Hugo) Config(siteDir, outDir string) map[string]any {
	c := map[string]any{
		"workingDir":      siteDir,
		"contentDir":      filepath.Join(siteDir, "content"),
		"dataDir":         filepath.Join(siteDir, "data"),
		"layoutDir":       h.TemplatesDir,
		"publishDir":      outDir,
		"cacheDir":        filepath.Join(siteDir, ".cache"),
		"baseURL":         h.BaseURL,
		"title":           h.Title,
		"locale":          h.Locale,
		"enableRobotsTXT": true,
		// the sitemaps are the site's own: Hugo's is one file, which a
		// site of more than 50,000 pages outgrows
		"disableKinds": []string{"taxonomy", "term", "rss", "sitemap"},
		// Page bodies come as HTML that internal/markdown rendered
		// (Page.Encode), which Hugo's security policy refuses unless allowed.
		"security": map[string]any{"allowContent": []string{"^text/html$", "^text/markdown$"}},
		"params":   h.Params,
	}
	if h.Language != "" {
		c["defaultContentLanguage"] = h.Language
	}
	return c
}

// hugoRun is one run's Hugo sites, made (open) before they build: the
// render loop opens a run's while the one before it renders (Render).
type hugoRun struct {
	h       Hugo
	sites   *hugolib.HugoSites
	logger  loggers.Logger
	logbuf  *bytes.Buffer
	siteDir string
	loaded  chan struct{} // closed once the run's data is read
}

// open makes the Hugo sites that render the temporary site at siteDir on
// site into out (at outDir: the output's staging folder, or a run of
// cards' own); whole says it is the run of the site's own pages, the only
// one with the home page, sections, 404.html and robots.txt. It starts
// reading the run's data (hugo.Data, which Hugo reads on one core when a
// template first asks: some 7 MB of views' JSON in a run of 4,000
// circulars) while the run's content is walked and assembled.
func (h Hugo) open(site afero.Fs, siteDir string, out publishFs, outDir string, whole bool) (*hugoRun, error) {
	logbuf := new(bytes.Buffer)
	logger := loggers.New(loggers.Options{Level: logg.LevelWarn, StdOut: logbuf, StdErr: logbuf, StoreErrors: true})
	cfg := config.New()
	c := h.Config(siteDir, outDir)
	// the circulars' pages come out framed (frames.go); the Hugo CLI,
	// given Config alone, renders them whole
	params := map[string]any{"framing": true}
	maps.Copy(params, h.Params)
	c["params"] = params
	for k, v := range c {
		cfg.Set(k, v)
	}
	if !whole {
		cfg.Set("disableKinds", []string{"taxonomy", "term", "rss", "sitemap", "home", "section", "404", "robotstxt"})
		cfg.Set("enableRobotsTXT", false)
	}
	cfg.Set("noBuildLock", true)
	cfg.Set("templateMetrics", h.Metrics != nil)

	configs, err := allconfig.LoadConfig(allconfig.ConfigSourceDescriptor{
		Flags: cfg, Fs: site, Logger: logger,
		// A non-empty environment stops HUGO_* variables of the process from
		// overriding the config set here.
		Environ: []string{"REGPULSE=1"},
	})
	if err != nil {
		return nil, fmt.Errorf("hugo config: %w", err)
	}
	fs := hugofs.NewFrom(site, configs.LoadingInfo.BaseConfig)
	fs.PublishDir, fs.PublishDirServer, fs.PublishDirStatic = out, out, out
	sites, err := hugolib.NewHugoSites(deps.DepsCfg{Configs: configs, Fs: fs, TestLogger: logger,
		StdOut: logbuf, StdErr: logbuf})
	if err != nil {
		return nil, h.error(err, logbuf, siteDir)
	}
	r := &hugoRun{h: h, sites: sites, logger: logger, logbuf: logbuf, siteDir: siteDir, loaded: make(chan struct{})}
	go func() {
		defer close(r.loaded)
		sites.Data() // (an error is the build's: Hugo reports it when a template asks)
	}()
	return r, nil
}

// build renders the run.
func (r *hugoRun) build() error {
	err := r.sites.Build(hugolib.BuildCfg{})
	<-r.loaded // (its log is written no more)
	if err != nil {
		return r.h.error(err, r.logbuf, r.siteDir)
	}
	// A Hugo warning fails the build like an error: a missing template is
	// only a warning in Hugo.
	if n := r.logger.LoggCount(logg.LevelWarn) + r.logger.LoggCount(logg.LevelError); n > 0 {
		return r.h.error(fmt.Errorf("%d warning(s) or error(s)", n), r.logbuf, r.siteDir)
	}
	if r.h.Metrics != nil && r.sites.Metrics != nil {
		var b bytes.Buffer
		r.sites.Metrics.WriteMetrics(&b)
		if _, err := r.h.Metrics.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// close lets go of the run's sites, once its data is read (build or not).
func (r *hugoRun) close() {
	<-r.loaded
	r.sites.Close()
}

// error makes Hugo's message name the project's own files: template
// paths are already absolute; generated content paths are mapped back to
// the temporary site only, since their source is validated before.
func (h Hugo) error(err error, log *bytes.Buffer, siteDir string) error {
	msg := strings.TrimSpace(err.Error())
	if l := strings.TrimSpace(log.String()); l != "" && !strings.Contains(msg, l) {
		msg += "\n" + l
	}
	msg = strings.ReplaceAll(msg, h.TemplatesDir+string(filepath.Separator), "templates/")
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
