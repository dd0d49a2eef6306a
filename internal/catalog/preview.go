package catalog

import (
	"strings"

	"regpulse/internal/markdown"
)

// The previews of a circular's text: 200 characters on cards, 150 on the
// impact tracker's shorter entries.
const (
	CardPreviewLen   = 200
	ImpactPreviewLen = 150
)

// PreviewText is the plain-text start of the circular's text, n
// characters long: what cards show (Preview). The site's cards and the
// API's lists share it, so a card the islands draw from the API reads as
// the pre-rendered one does.
func (c Circular) PreviewText(n int) string {
	return PreviewOf(markdown.PlainText(c.Content), n)
}

// PreviewOf is the preview of a text already made plain.
func PreviewOf(plain string, n int) string { return markdown.Preview(plain, n) }

// PreviewStart is as much of a plain text as its previews read
// (PreviewOf, of up to CardPreviewLen characters): its first
// CardPreviewLen+1, as a string of its own, so that a caller keeping
// many previews to make later need not keep the texts.
func PreviewStart(plain string) string {
	return strings.Clone(markdown.Start(plain, CardPreviewLen+1))
}

// WithPreviews sets the card preview of each circular of a list, and its
// Lang (a store keeps neither).
func WithPreviews(cs []Circular) []Circular {
	for i := range cs {
		// One plain text for both (PreviewText, TextLang): making it
		// parses the whole Markdown, a fifth of a search's time under load.
		plain := markdown.PlainText(cs[i].Content)
		cs[i].Preview = PreviewOf(plain, CardPreviewLen)
		cs[i].Lang = TextLang(cs[i].Title, plain)
	}
	return cs
}

// ReplacingSlugs are the slugs of the circulars replacing those of cs
// (their SupersededBy), for a store to name (WithReplacements).
func ReplacingSlugs(cs []Circular) []string {
	var slugs []string
	for _, c := range cs {
		slugs = append(slugs, c.SupersededBy...)
	}
	return slugs
}

// WithReplacements sets each circular's Replacements from refs (by slug),
// in its SupersededBy's order; a slug refs lacks is left out, as the
// site's note names only published circulars.
func WithReplacements(cs []Circular, refs map[string]CircularRef) []Circular {
	for i := range cs {
		cs[i].Replacements = nil
		for _, slug := range cs[i].SupersededBy {
			if ref, ok := refs[slug]; ok {
				cs[i].Replacements = append(cs[i].Replacements, ref)
			}
		}
	}
	return cs
}
