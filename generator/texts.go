package generator

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
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
	// LeadSum is the hash of Plain's lead (related.LeadSum). A text taken
	// from the cache (startOnly) keeps only the start of Plain that
	// previews read (catalog.PreviewStart): the ranking reads its
	// LeadSum, and renders the text again only when it needs the words
	// (related.NeedText).
	LeadSum   [sha256.Size]byte
	startOnly bool
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
	// it go, with the hash of the file's bytes it read; what reads it
	// later reads the texts. Nil: none is read.
	read func(catalog.Circular) (string, [sha256.Size]byte, error)
	// full are the circulars whose whole plain text is kept (Full).
	full map[string]bool
	// cache (with pack) holds the last build's results by what they were
	// made from (textCache); sum is the hash of a circular's file as the
	// catalog loaded it (false: unknown, the circular is rendered and
	// not cached). A circular found there is not rendered: its page's
	// text is not in the pack until fillTexts renders it. The HTML of
	// the circulars of keepHTML is cached with them (some thousands: the
	// feeds'); the circulars of full are rendered always (their Full is
	// not cached).
	cache *textCache
	sum   func(catalog.Circular) ([sha256.Size]byte, bool)
}

// text is c's text, the catalog's or read (textsOpts.read), and the
// hash of the file's bytes it is (known: the file was hashed).
func (o textsOpts) text(c catalog.Circular) (text string, sum [sha256.Size]byte, known bool, err error) {
	if c.Content == "" && o.read != nil {
		text, sum, err = o.read(c)
		return text, sum, err == nil, err
	}
	sum, known = o.loaded(c)
	return c.Content, sum, known, nil
}

// loaded is the hash of c's file as the catalog loaded it (textsOpts.sum).
func (o textsOpts) loaded(c catalog.Circular) ([sha256.Size]byte, bool) {
	if o.sum == nil {
		return [sha256.Size]byte{}, false
	}
	return o.sum(c)
}

// renderText renders c's text: its HTML, its plain lead, its obligations
// and its text with their sentences marked.
func renderText(c catalog.Circular, text string) (circularText, error) {
	body, plain, err := markdown.Render(text, related.LeadWords)
	if err != nil {
		return circularText{}, fmt.Errorf("%s: %w", c.Path, err)
	}
	obs, marked := obligationViews(c, body)
	// of the plain text, related circulars and previews read the
	// start only
	lead := related.Lead(plain)
	return circularText{HTML: body, Plain: lead, LeadSum: related.LeadSum(lead), Marked: marked, Obligations: obs,
		MarkedSum: sha256.Sum256([]byte(marked))}, nil
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
			caching := o.cache != nil && o.pack != nil && o.sum != nil
			if sum, ok := o.loaded(c); caching && ok && !o.full[c.Slug] {
				key, err := textKey(sum, c)
				if err != nil {
					return err
				}
				// (a circular whose HTML is kept, cached when it was not:
				// rendered for it)
				if hit, ok := o.cache.get(key); ok && (!o.keepHTML[c.Slug] || hit.HTML != "") {
					out[i] = circularText{Plain: hit.Start, LeadSum: hit.LeadSum, startOnly: true, Obligations: hit.Obligations,
						MarkedSum: hit.MarkedSum, HTML: hit.HTML}
					return nil
				}
			}
			text, sum, known, err := o.text(c)
			if err != nil {
				return err
			}
			t, err := renderText(c, text)
			if err != nil {
				return err
			}
			if caching && known {
				// keyed by the bytes rendered, which are the loaded ones
				// unless the file changed since
				key, err := textKey(sum, c)
				if err != nil {
					return err
				}
				o.cache.put(key, t, o.keepHTML[c.Slug])
			}
			if o.full[c.Slug] {
				t.Full = strings.Join(markdown.Blocks(text), "\n\n")
			}
			if o.pack != nil {
				if err := o.pack.Add(textName(c.Slug), []byte(t.Marked)); err != nil {
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

// fillTexts writes into the pack the page texts of the circulars of cs
// that renderTexts took from its cache (textsOpts.cache) and whose pages
// are rendered (render), on every core. A text whose marked text is not
// the cached hash (the page's key hashes it) fails the build and removes
// the cache beside outDir: the cache was stale, which its keys should
// make impossible.
func fillTexts(ctx context.Context, cs []catalog.Circular, txt texts, o textsOpts, render func(slug string) bool, outDir string) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, c := range cs {
		if !render(c.Slug) || o.pack.Has(textName(c.Slug)) {
			continue
		}
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			text, _, _, err := o.text(c)
			if err != nil {
				return err
			}
			t, err := renderText(c, text)
			if err != nil {
				return err
			}
			if t.MarkedSum != txt[c.Slug].MarkedSum {
				_ = os.Remove(cachePath(outDir, textCacheName))
				return fmt.Errorf("%s: its text is not the one the text cache held (removed %s: build again)", c.Path, cachePath(outDir, textCacheName))
			}
			return o.pack.Add(textName(c.Slug), []byte(t.Marked))
		})
	}
	return g.Wait()
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
	it := impactTrackerLists(cat, now, noPreview)
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

// lead is c's text as plain text, rendered once, and its LeadSum; for
// a text taken from the cache, its LeadSum alone (related.Docs).
func (t texts) lead(c catalog.Circular) (string, [sha256.Size]byte) {
	r, ok := t[c.Slug]
	switch {
	case ok && r.startOnly:
		return "", r.LeadSum
	case ok && r.Plain != "":
		return r.Plain, r.LeadSum
	}
	return markdown.PlainText(c.Content), [sha256.Size]byte{}
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
