package render

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/spf13/afero"
	"golang.org/x/sync/errgroup"

	"regpulse/internal/markdown"
)

// Group says which runs render a page, with which of the site's data
// (Site.GroupData): the site's own pages (SiteGroup) in one run with
// every key; each other group in runs of its own, of at most RunPages
// pages, with its keys only, one group after another in their order.
type Group int

// SiteGroup is the group of the site's own pages: the home page, the
// sections, the directories, the first pages of the lists.
const SiteGroup Group = 0

// Page is one content file of the temporary Hugo site: front matter the
// site chose, layout from the templates. A body is Markdown rendered by
// internal/markdown, as the feeds are, and Hugo takes it as HTML (a file
// ending in .html), so every page renders Markdown the same way.
type Page struct {
	File  string         // path under the site's content/ folder
	Front map[string]any // Hugo front matter, until encoded
	Body  string         // Markdown, until encoded
	// Content is the content file once encoded (Encode): the front
	// matter as JSON, then the body as HTML; Layout and URL are the
	// front's, kept for the pages' keys.
	Content     []byte
	Layout, URL string
	// spilled is where Content is in the workspace's pack of pages
	// through Hugo's runs (spillPages); n is 0 until then.
	spilled span
	// Text is a text the page's template reads as it renders (readFile)
	// rather than its body, at TextFile in the site: Hugo would otherwise
	// hold every text, parsed and rendered, until the build ends. Empty
	// when the text is in the workspace's pack (Workspace.Texts) already.
	Text, TextFile string
	// Group is the runs that render the page; Shows are the views it reads
	// (its own, its list's items).
	Group Group
	Shows []string
	// Lang is the language the page renders in: "" the Renderer's Hugo,
	// else the Hugo of Renderer.Languages[Lang].
	Lang string
	// framed says the page comes out framed (FrameIn), its cards set in
	// by the build: it reads no view's card, and a run of framed pages
	// only has its views without them (withCards).
	framed bool
	// itemsSetIn says the page is a list's whose items the build sets in
	// (SetItemsIn): it reads no view, and its run holds none for it.
	itemsSetIn bool
}

// Encode turns p's front matter and body into its content file. At
// 100,000 circulars the pages' front matter is some 1.5 million maps,
// slices and strings, which the collector would scan through every one of
// Hugo's runs; their files are bytes it never scans.
func (p *Page) Encode() error {
	if p.Content != nil || p.spilled.n > 0 {
		return nil
	}
	front, err := json.Marshal(p.Front)
	if err != nil {
		return fmt.Errorf("%s: %w", p.File, err)
	}
	var body string
	if p.Body != "" {
		if body, err = markdown.HTML(p.Body); err != nil {
			return fmt.Errorf("%s: %w", p.File, err)
		}
	}
	// JSON front matter: Hugo reads a leading JSON object as front matter.
	p.Content = append(append(front, '\n', '\n'), body...)
	p.Layout, _ = p.Front["layout"].(string)
	p.URL, _ = p.Front["url"].(string)
	p.Front, p.Body = nil, ""
	return nil
}

// EncodePages encodes pages on every core.
func EncodePages(ctx context.Context, pages []Page) error {
	return InBatches(ctx, len(pages), 512, func(i int) error { return pages[i].Encode() })
}

// spillPages encodes the pages of runs and moves their content files
// into p, each run's one after the other, so that a run reads its pages'
// in one read (loadPages). At 100,000 circulars in two languages the
// files are some 70 MB that every one of Hugo's runs would otherwise hold
// beneath its own heap.
func spillPages(ctx context.Context, p *Pack, runs []Run) error {
	for _, run := range runs {
		if err := EncodePages(ctx, run.Pages); err != nil {
			return err
		}
		data := make([][]byte, len(run.Pages))
		for i := range run.Pages {
			data[i] = run.Pages[i].Content
		}
		spans, err := p.appendAll(data)
		if err != nil {
			return err
		}
		for i := range run.Pages {
			run.Pages[i].Content, run.Pages[i].spilled = nil, spans[i]
		}
	}
	return nil
}

// loadPages reads back the content files spillPages moved into p, in one
// read over the span that holds them all.
func loadPages(p *Pack, pages []Page) error {
	all := span{off: -1}
	for _, pg := range pages {
		if pg.spilled.n == 0 {
			continue
		}
		if all.off < 0 {
			all = pg.spilled
		}
		end := max(all.off+all.n, pg.spilled.off+pg.spilled.n)
		all.off = min(all.off, pg.spilled.off)
		all.n = end - all.off
	}
	if all.off < 0 {
		return nil
	}
	data, err := p.readSpan(all)
	if err != nil {
		return err
	}
	for i := range pages {
		if s := pages[i].spilled; s.n > 0 {
			at := s.off - all.off
			pages[i].Content, pages[i].spilled = data[at:at+s.n:at+s.n], span{}
		}
	}
	return nil
}

// WritePages writes pages into the temporary Hugo site at dir on fsys, on
// every core: each its content file (encoded here if it was not), and its
// text beside it.
func WritePages(ctx context.Context, fsys afero.Fs, dir string, pages []Page) error {
	if err := EncodePages(ctx, pages); err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range pages {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if p.TextFile != "" && p.Text != "" { // else it is in the texts' pack
				if err := writeFile(fsys, filepath.Join(dir, filepath.FromSlash(p.TextFile)), []byte(p.Text)); err != nil {
					return err
				}
			}
			return writeFile(fsys, filepath.Join(dir, "content", filepath.FromSlash(p.File)), p.Content)
		})
	}
	return g.Wait()
}

// writeFile writes data to path on fsys, making its folder.
func writeFile(fsys afero.Fs, path string, data []byte) error {
	if err := fsys.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return afero.WriteFile(fsys, path, data, 0o644)
}
