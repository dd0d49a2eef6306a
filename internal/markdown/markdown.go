// Package markdown renders the editors' Markdown one way for every place it
// shows: the pages' bodies, the feeds' HTML, and the plain-text previews.
package markdown

import (
	"bytes"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// markdown is goldmark as Hugo sets it up by default (GitHub's tables,
// strikethrough, autolinks and task lists, definition lists, footnotes,
// typographic quotes and dashes, heading ids), with raw HTML left out:
// content is text, never markup an editor could inject.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.DefinitionList, extension.Footnote, extension.Typographer),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
)

// HTML renders md as HTML.
func HTML(md string) (string, error) {
	var b bytes.Buffer
	err := markdown.Convert([]byte(md), &b)
	return b.String(), err
}

// Render renders md as HTML and as PlainText from one parse, for the
// generator, which needs both of every circular.
func Render(md string) (body, plain string, err error) {
	src := []byte(md)
	doc := parse(src)
	var b bytes.Buffer
	if err := markdown.Renderer().Render(&b, src, doc); err != nil {
		return "", "", err
	}
	return b.String(), strings.Join(blocks(doc, src), " "), nil
}

// PlainText is Markdown reduced to its words, paragraphs joined by a
// space: for previews, feeds' summaries and search.
func PlainText(md string) string {
	return strings.Join(Blocks(md), " ")
}

// Blocks is Markdown reduced to the words of each block (paragraph,
// heading, list item, table cell, code block), in order, blank ones left
// out: a block boundary ends a sentence even without a full stop, which
// the summariser needs.
func Blocks(md string) []string {
	src := []byte(md)
	return blocks(parse(src), src)
}

func parse(src []byte) ast.Node { return markdown.Parser().Parse(text.NewReader(src)) }

func blocks(doc ast.Node, src []byte) []string {
	var blocks []string
	var b strings.Builder
	flush := func() {
		if s := strings.Join(strings.Fields(html.UnescapeString(b.String())), " "); s != "" {
			blocks = append(blocks, s)
		}
		b.Reset()
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				flush()
			}
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if s, ok := c.(*ast.Text); ok {
					b.Write(s.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				b.Write(seg.Value(src))
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	flush()
	return blocks
}

// Preview is the first n characters of s with an ellipsis when cut
// (200 characters on cards, 150 on the impact tracker).
func Preview(s string, n int) string {
	// Find the n-th rune's offset rather than converting all of s: s may
	// be a whole circular and the preview its first 200 characters.
	i := 0
	for range n {
		if i >= len(s) {
			return s
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i >= len(s) {
		return s
	}
	return strings.TrimRight(s[:i], " ") + "..."
}
