// Package markdown renders the editors' Markdown one way for every place it
// shows: the pages' bodies, the feeds' HTML, and the plain-text previews.
package markdown

import (
	"bytes"
	"html"
	"strings"
	"unicode"
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

// unlinked is markdown without GFM's autolinks, for a text that has
// nothing one could match: the autolink parser is tried at every space
// of a text (it looks for an address at each word), and takes almost half
// of a plain circular's rendering (42 against 23 ms for a hundred texts).
// TestEngine holds the two to the same output.
var unlinked = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList,
		extension.DefinitionList, extension.Footnote, extension.Typographer),
	goldmark.WithParserOptions(parser.WithAutoHeadingID(), parser.WithAttribute()),
)

// engine is markdown, or unlinked when src holds none of what an autolink
// needs: a protocol's "://", a "www." or an e-mail address's "@".
func engine(src []byte) goldmark.Markdown {
	if bytes.Contains(src, []byte("://")) || bytes.Contains(src, []byte("www.")) || bytes.IndexByte(src, '@') >= 0 {
		return markdown
	}
	return unlinked
}

// HTML renders md as HTML.
func HTML(md string) (string, error) {
	var b bytes.Buffer
	src := []byte(md)
	err := engine(src).Convert(src, &b)
	return b.String(), err
}

// Render renders md as HTML and as PlainText from one parse, for the
// generator, which needs both of every circular. With words > 0, plain is
// only PlainText's start: its blocks up to the first that takes it past
// words words, so that it holds more than words words whenever the whole
// does, and a cut at words words (related.Lead) gives the same. A long
// circular's plain text is not made past what is read of it.
func Render(md string, words int) (body, plain string, err error) {
	src := []byte(md)
	e := engine(src)
	doc := parse(e, src)
	var b bytes.Buffer
	if err := e.Renderer().Render(&b, src, doc); err != nil {
		return "", "", err
	}
	return b.String(), strings.Join(blocks(doc, src, words), " "), nil
}

// PlainText is Markdown reduced to its words, paragraphs joined by a
// space: for previews, feeds' summaries and search.
func PlainText(md string) string {
	return strings.Join(Blocks(md), " ")
}

// Head is md's start up to its first blank line at or after n bytes: its
// PlainText is a start of md's, word for word, so that a long text's
// opening is read without parsing it all. No block reaches back across a
// blank line to change the words before it (a block running on across
// one, such as fenced code, only ends sooner), but for definitions: a
// link reference's gives a link earlier in the text its words, and a
// footnote's words go to the end of the text, wherever it ends. ok is
// false when md has a "]:" (which any definition has), or no blank line
// after n.
func Head(md string, n int) (head string, ok bool) {
	if n >= len(md) {
		return "", false
	}
	cut := strings.Index(md[n:], "\n\n")
	if cut < 0 || strings.Contains(md, "]:") {
		return "", false
	}
	return md[:n+cut], true
}

// Blocks is Markdown reduced to the words of each block (paragraph,
// heading, list item, table cell, code block), in order, blank ones left
// out: a block boundary ends a sentence even without a full stop, which
// the summariser needs.
func Blocks(md string) []string {
	src := []byte(md)
	return blocks(parse(engine(src), src), src, 0)
}

func parse(e goldmark.Markdown, src []byte) ast.Node { return e.Parser().Parse(text.NewReader(src)) }

// blocks are doc's blocks' words; with words > 0, only up to the block
// that takes them past words words. A block's text is gathered in one
// buffer, reused from block to block, and its words written one space
// apart (appendWords): a builder, a field slice and a join a block cost
// the texts of 10,000 circulars 0.5 GB of allocations.
func blocks(doc ast.Node, src []byte, words int) []string {
	var blocks []string
	var raw, out []byte
	seen := 0
	flush := func() {
		text := raw
		if bytes.IndexByte(raw, '&') >= 0 { // (UnescapeString would give the same string back)
			text = []byte(html.UnescapeString(string(raw)))
		}
		var n int
		if out, n = appendWords(out[:0], text); n > 0 {
			blocks = append(blocks, string(out))
			seen += n
		}
		raw = raw[:0]
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			if n.Type() == ast.TypeBlock {
				flush()
				if words > 0 && seen > words {
					return ast.WalkStop, nil
				}
			}
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			raw = append(raw, t.Segment.Value(src)...)
			if t.SoftLineBreak() || t.HardLineBreak() {
				raw = append(raw, ' ')
			}
		case *ast.String:
			raw = append(raw, t.Value...)
		case *ast.CodeSpan:
			for c := t.FirstChild(); c != nil; c = c.NextSibling() {
				if s, ok := c.(*ast.Text); ok {
					raw = append(raw, s.Segment.Value(src)...)
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				seg := lines.At(i)
				raw = append(raw, seg.Value(src)...)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	flush()
	return blocks
}

// appendWords appends the words of s (as strings.Fields splits them: at
// Unicode white space) to dst, one space apart, and says how many:
// strings.Join(strings.Fields(s), " ") without a slice or a string of
// each word.
func appendWords(dst, s []byte) ([]byte, int) {
	n := 0
	for {
		start := spaces(s, 0, true)
		if start == len(s) {
			return dst, n
		}
		end := spaces(s, start, false)
		if n > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, s[start:end]...)
		n++
		s = s[end:]
	}
}

// spaces is where the run of runes of s from i that are white space
// (space) or not (!space) ends. (Decoded here, ASCII first: through
// bytes.IndexFunc appendWords took 30% longer.)
func spaces(s []byte, i int, space bool) int {
	for i < len(s) {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(s[i:])
		}
		if unicode.IsSpace(r) != space {
			break
		}
		i += size
	}
	return i
}

// Preview is the first n characters of s with an ellipsis when cut
// (200 characters on cards, 150 on the impact tracker).
func Preview(s string, n int) string {
	start := Start(s, n)
	if len(start) == len(s) {
		return s
	}
	return strings.TrimRight(start, " ") + "..."
}

// Start is the first n characters of s (s when it has no more), found
// by their offset rather than by converting all of s: s may be a whole
// circular and the start its first 200 characters.
func Start(s string, n int) string {
	i := 0
	for range n {
		if i >= len(s) {
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}
