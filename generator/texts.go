package generator

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
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
	// page's text. Obligations are the page's Obligations section, and
	// ObligationsSum their hash (the page's key hashes it): a text taken
	// from the cache has the sum only, until fillTexts renders it again
	// for its page.
	Marked         string
	Obligations    []obligationView
	ObligationsSum [sha256.Size]byte
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
	// extracted are the store's extracted obligations, which the circulars
	// without written ones show: the texts rendered read theirs, a batch
	// at a time (extractedBatch).
	extracted extractedObligations
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

// renderText renders c's text: its HTML, its plain lead, the views of
// obs (the obligations it shows) and its text with their sentences
// marked.
func renderText(c catalog.Circular, obs []catalog.Obligation, text string) (circularText, error) {
	body, plain, err := markdown.Render(text, related.LeadWords)
	if err != nil {
		return circularText{}, fmt.Errorf("%s: %w", c.Path, err)
	}
	views, marked := obligationViews(obs, body)
	sum, err := obligationsSum(views)
	if err != nil {
		return circularText{}, fmt.Errorf("%s: %w", c.Path, err)
	}
	// of the plain text, related circulars and previews read the
	// start only
	lead := related.Lead(plain)
	return circularText{HTML: body, Plain: lead, LeadSum: related.LeadSum(lead), Marked: marked, Obligations: views,
		ObligationsSum: sum, MarkedSum: sha256.Sum256([]byte(marked))}, nil
}

// obligationsSum is the hash of a page's obligations' views (zero for
// none).
func obligationsSum(views []obligationView) ([sha256.Size]byte, error) {
	if len(views) == 0 {
		return [sha256.Size]byte{}, nil
	}
	j, err := json.Marshal(views)
	return sha256.Sum256(j), err
}

// renderTexts renders every circular's text once, on every core: those
// the cache has are taken from it, and the others rendered a batch at a
// time, each batch's extracted obligations read in one query while the
// batch before is rendered.
func renderTexts(ctx context.Context, cs []catalog.Circular, o textsOpts) (texts, error) {
	out := make([]circularText, len(cs))
	missed := make([]bool, len(cs))
	caching := o.cache != nil && o.pack != nil && o.sum != nil
	err := render.InBatches(ctx, len(cs), 1024, func(i int) error {
		c := cs[i]
		missed[i] = true
		if sum, ok := o.loaded(c); caching && ok && !o.full[c.Slug] {
			key, err := textKey(sum, c, o.extracted.stamp(c))
			if err != nil {
				return err
			}
			// (a circular whose HTML is kept, cached when it was not:
			// rendered for it)
			if hit, ok := o.cache.get(key); ok && (!o.keepHTML[c.Slug] || hit.HTML != "") {
				out[i] = circularText{Plain: hit.Start, LeadSum: hit.LeadSum, startOnly: true, ObligationsSum: hit.ObligationsSum,
					MarkedSum: hit.MarkedSum, HTML: hit.HTML}
				missed[i] = false
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var todo []int
	for i, m := range missed {
		if m {
			todo = append(todo, i)
		}
	}
	err = inExtractedBatches(ctx, cs, todo, o.extracted, func(i int, obs []catalog.Obligation) error {
		c := cs[i]
		text, sum, known, err := o.text(c)
		if err != nil {
			return err
		}
		t, err := renderText(c, obs, text)
		if err != nil {
			return err
		}
		if caching && known {
			// keyed by the bytes rendered, which are the loaded ones
			// unless the file changed since
			key, err := textKey(sum, c, o.extracted.stamp(c))
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
	if err != nil {
		return nil, err
	}
	t := make(texts, len(cs))
	for i, c := range cs {
		t[c.Slug] = out[i]
	}
	return t, nil
}

// inExtractedBatches calls fn, on every core, with each circular of cs
// at the indexes at and the obligations it shows (shownObligations), a
// batch of extractedBatch at a time: a batch's extracted obligations
// are read while the batch before is rendered, and let go after it.
func inExtractedBatches(ctx context.Context, cs []catalog.Circular, at []int, ex extractedObligations, fn func(i int, obs []catalog.Obligation) error) error {
	type read struct {
		obs map[string][]catalog.Obligation
		err error
	}
	readBatch := func(part []int) func() read {
		batch := make([]catalog.Circular, len(part))
		for j, i := range part {
			batch[j] = cs[i]
		}
		return later(func() read { obs, err := ex.read(ctx, batch); return read{obs, err} })
	}
	parts := slices.Collect(slices.Chunk(at, extractedBatch))
	var next func() read
	if len(parts) > 0 {
		next = readBatch(parts[0])
	}
	for k, part := range parts {
		r := next()
		if r.err != nil {
			return fmt.Errorf("the store's extracted obligations: %w", r.err)
		}
		if k+1 < len(parts) {
			next = readBatch(parts[k+1])
		}
		g, ctx := errgroup.WithContext(ctx)
		g.SetLimit(runtime.GOMAXPROCS(0))
		for _, i := range part {
			g.Go(func() error {
				if err := ctx.Err(); err != nil {
					return err
				}
				return fn(i, shownObligations(cs[i], r.obs))
			})
		}
		if err := g.Wait(); err != nil {
			if k+1 < len(parts) {
				next() // (its query ends before the store may close)
			}
			return err
		}
	}
	return nil
}

// fillTexts writes into the pack the page texts of the circulars of cs
// that renderTexts took from its cache (textsOpts.cache) and whose pages
// are rendered (render), and sets their obligations' views in txt, on
// every core. A text whose marked text is not the cached hash (the
// page's key hashes it) while its obligations are fails the build and
// removes the cache beside outDir: the cache was stale, which its keys
// should make impossible.
func fillTexts(ctx context.Context, cs []catalog.Circular, txt texts, o textsOpts, render func(slug string) bool, outDir string) error {
	var at []int
	for i, c := range cs {
		if render(c.Slug) && !o.pack.Has(textName(c.Slug)) {
			at = append(at, i)
		}
	}
	views := make([][]obligationView, len(cs))
	err := inExtractedBatches(ctx, cs, at, o.extracted, func(i int, obs []catalog.Obligation) error {
		c := cs[i]
		text, _, _, err := o.text(c)
		if err != nil {
			return err
		}
		t, err := renderText(c, obs, text)
		if err != nil {
			return err
		}
		// (its extracted obligations written since the build read their
		// stamps: the page shows them, and the next build's keys do)
		if t.ObligationsSum == txt[c.Slug].ObligationsSum && t.MarkedSum != txt[c.Slug].MarkedSum {
			_ = os.Remove(cachePath(outDir, textCacheName))
			return fmt.Errorf("%s: its text is not the one the text cache held (removed %s: build again)", c.Path, cachePath(outDir, textCacheName))
		}
		views[i] = t.Obligations
		return o.pack.Add(textName(c.Slug), []byte(t.Marked))
	})
	if err != nil {
		return err
	}
	for _, i := range at {
		t := txt[cs[i].Slug]
		t.Obligations = views[i]
		txt[cs[i].Slug] = t
	}
	return nil
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
