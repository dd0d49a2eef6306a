package generator

import (
	"context"
	"crypto/sha256"
	"fmt"
	"runtime"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
	"regpulse/internal/related"
)

// circularText is a circular's Markdown rendered once per build: its
// page's body and the feeds' HTML, and the start of its plain text, which
// its previews cut and the related circulars' ranking reads
// (related.Lead: 400 words, far more than a 200-character preview).
type circularText struct {
	HTML, Plain string
	// Marked is HTML with the obligations' source sentences marked: the
	// page's text. Obligations are the page's Obligations section.
	Marked      string
	Obligations []obligationView
	// MarkedSum is Marked's hash (the page's key hashes it): when the
	// texts are written to a pack as they are rendered (textsOpts.pack),
	// Marked is not kept, nor HTML but for the circulars of keepHTML.
	MarkedSum [sha256.Size]byte
	// Full is the whole text as plain text, its blocks a blank line
	// apart, kept only for the drafts and finals of textsOpts.full until
	// their redline is made (linkDrafts); FromDraft is a final
	// instrument's redline from its draft (its page's "What changed from
	// the draft").
	Full      string
	FromDraft *fromDraftView
}

// texts are the circulars' rendered texts, by slug.
type texts map[string]circularText

// textFile is where a circular's page text is, in the temporary site: its
// textName in the site's texts/ folder.
func textFile(slug string) string { return render.TextsFolder + "/" + textName(slug) }

func textName(slug string) string { return slug + ".html" }

// textsOpts says what renderTexts keeps and lets go.
type textsOpts struct {
	// pack (the workspace's texts: the temporary site's texts/) is where each page's text is
	// written and then not kept (at 100,000 circulars the texts are
	// gigabytes), nor its HTML but for the circulars of keepHTML; nil
	// keeps all.
	pack     *render.Pack
	keepHTML map[string]bool
	// read reads a text the catalog does not hold (loaded
	// catalog.WithoutTexts: Options.ReleaseContent), to render it and let
	// it go; what reads it later reads the texts. Nil: none is read.
	read func(catalog.Circular) (string, error)
	// full are the circulars whose whole plain text is kept (Full).
	full map[string]bool
}

// renderTexts renders every circular's text once, on every core.
func renderTexts(ctx context.Context, cs []catalog.Circular, o textsOpts) (texts, error) {
	out := make([]circularText, len(cs))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, c := range cs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			text := c.Content
			if text == "" && o.read != nil {
				var err error
				if text, err = o.read(c); err != nil {
					return err
				}
			}
			body, plain, err := markdown.Render(text, related.LeadWords)
			if err != nil {
				return fmt.Errorf("%s: %w", c.Path, err)
			}
			obs, marked := obligationViews(c, body)
			// of the plain text, related circulars and previews read the
			// start only
			t := circularText{HTML: body, Plain: related.Lead(plain), Marked: marked, Obligations: obs, MarkedSum: sha256.Sum256([]byte(marked))}
			if o.full[c.Slug] {
				t.Full = strings.Join(markdown.Blocks(text), "\n\n")
			}
			if o.pack != nil {
				if err := o.pack.Add(textName(c.Slug), []byte(marked)); err != nil {
					return err
				}
				t.Marked = "" // the page reads it from the pack
				if !o.keepHTML[c.Slug] {
					t.HTML = ""
				}
			}
			out[i] = t
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	t := make(texts, len(cs))
	for i, c := range cs {
		t[c.Slug] = out[i]
	}
	return t, nil
}

// keptTexts are the circulars whose texts the build reads after their
// pages' texts are written (renderTexts, dropPlain): the feeds' entries,
// whose HTML and previews the feeds show (html and plain), and the impact
// tracker's, whose previews it shows (plain only: at 100,000 circulars
// the tracker's are some 10,000, and their HTML over 100 MB).
type keptTexts struct{ html, plain map[string]bool }

func textsKept(cat *catalog.Catalog, now time.Time) keptTexts {
	keep := keptTexts{html: map[string]bool{}, plain: map[string]bool{}}
	for _, f := range Feeds() {
		for _, c := range f.circulars(cat) {
			keep.html[c.Slug], keep.plain[c.Slug] = true, true
		}
	}
	it := impactTracker(cat, now, noPreview)
	for _, l := range [][]circularView{it.High, it.Medium, it.Open} {
		for _, v := range l {
			keep.plain[v.Slug] = true
		}
	}
	return keep
}

// html is c's body as HTML, rendered now if c was not rendered before.
func (t texts) html(c catalog.Circular) (string, error) {
	if r, ok := t[c.Slug]; ok && r.HTML != "" {
		return r.HTML, nil
	}
	return markdown.HTML(c.Content)
}

// plain is c's text as plain text, rendered once.
func (t texts) plain(c catalog.Circular) string {
	if r, ok := t[c.Slug]; ok && r.Plain != "" {
		return r.Plain
	}
	return markdown.PlainText(c.Content)
}

// preview is c's card preview (catalog.Circular.PreviewText), from its
// text made plain once.
func (t texts) preview(c catalog.Circular, n int) string {
	if r, ok := t[c.Slug]; ok && r.Plain != "" {
		return catalog.PreviewOf(r.Plain, n)
	}
	return c.PreviewText(n)
}

// dropPlain lets the plain texts go, but those of keep, once the related
// circulars and the previews are made (at 100,000 circulars they are
// about as large as the content); preview and plain render again what
// they then need, from the content if it was kept.
func (t texts) dropPlain(keep map[string]bool) {
	for slug, r := range t {
		if !keep[slug] {
			r.Plain = ""
			t[slug] = r
		}
	}
}
