package generator

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"golang.org/x/sync/errgroup"

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
	// texts are written to files as they are rendered (renderTexts with a
	// folder), HTML and Marked are not kept.
	MarkedSum [sha256.Size]byte
}

// texts are the circulars' rendered texts, by slug.
type texts map[string]circularText

// textFile is where a circular's page text is, in the temporary site.
func textFile(slug string) string { return "texts/" + slug + ".html" }

// renderTexts renders every circular's text once, on every core. With a
// folder (textsDir, the site's texts/: newSiteFs), each page's text is
// written there and not kept: at 100,000 circulars the texts are
// gigabytes.
func renderTexts(ctx context.Context, cs []catalog.Circular, dir string) (texts, error) {
	out := make([]circularText, len(cs))
	if dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, c := range cs {
		g.Go(func() error {
			if err := ctx.Err(); err != nil {
				return err
			}
			body, plain, err := markdown.Render(c.Content)
			if err != nil {
				return fmt.Errorf("%s: %w", c.Path, err)
			}
			obs, marked := obligationViews(c, body)
			// of the plain text, related circulars and previews read the
			// start only
			t := circularText{HTML: body, Plain: related.Lead(plain), Marked: marked, Obligations: obs, MarkedSum: sha256.Sum256([]byte(marked))}
			if dir != "" {
				if err := os.WriteFile(filepath.Join(dir, c.Slug+".html"), []byte(marked), 0o644); err != nil {
					return err
				}
				t.HTML, t.Marked = "", ""
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

// dropPlain lets the plain texts go once the related circulars and the
// previews are made (at 100,000 circulars they are about as large as the
// content); preview and plain render again what they then need.
func (t texts) dropPlain() {
	for slug, r := range t {
		r.Plain = ""
		t[slug] = r
	}
}
