package generator

import (
	"context"
	"fmt"
	"runtime"

	"golang.org/x/sync/errgroup"

	"regpulse/internal/catalog"
	"regpulse/internal/markdown"
)

// circularText is a circular's Markdown rendered once per build: its
// page's body and the feeds' HTML, and the plain text its previews cut.
type circularText struct {
	HTML, Plain string
	// Marked is HTML with the obligations' source sentences marked: the
	// page's text. Obligations are the page's Obligations section.
	Marked      string
	Obligations []obligationView
}

// texts are the circulars' rendered texts, by slug.
type texts map[string]circularText

// renderTexts renders every circular's text once, on every core.
func renderTexts(ctx context.Context, cs []catalog.Circular) (texts, error) {
	out := make([]circularText, len(cs))
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
			out[i] = circularText{HTML: body, Plain: plain, Marked: marked, Obligations: obs}
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
	if r, ok := t[c.Slug]; ok {
		return r.HTML, nil
	}
	return markdown.HTML(c.Content)
}

// preview is c's plain-text start, n characters long (circularPreview).
// plain is c's text as plain text, rendered once.
func (t texts) plain(c catalog.Circular) string {
	if r, ok := t[c.Slug]; ok {
		return r.Plain
	}
	return markdown.PlainText(c.Content)
}

func (t texts) preview(c catalog.Circular, n int) string {
	if r, ok := t[c.Slug]; ok {
		return markdown.Preview(r.Plain, n)
	}
	return circularPreview(c, n)
}
