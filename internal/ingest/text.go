package ingest

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
	"golang.org/x/text/unicode/norm"

	"regpulse/internal/words"
)

// blockTags end a line in plain text: the regulators' descriptions are
// HTML tables and paragraphs.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Br: true, atom.Div: true, atom.Tr: true, atom.Li: true, atom.Table: true,
	atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true, atom.H6: true,
	atom.Ul: true, atom.Ol: true, atom.Blockquote: true, atom.Hr: true,
}

// plainText turns an HTML fragment (or text with entities) into plain
// text: tags dropped, entities decoded, spaces collapsed, one blank line
// between blocks. Script and style contents are dropped.
func plainText(s string) string {
	// Feeds double-escape: "&amp;amp;" reaches us as "&amp;", and markup
	// escaped in the XML reaches us as tags. Decoding the text tokens once
	// handles both.
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return tidyLines(b.String())
		case html.TextToken:
			if skip == 0 {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken, html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if a == atom.Script || a == atom.Style {
				if z.Token().Type == html.StartTagToken {
					skip++
				} else if skip > 0 {
					skip--
				}
				continue
			}
			if blockTags[a] {
				b.WriteString("\n\n")
			} else if a == atom.Td || a == atom.Th {
				b.WriteString(" ")
			}
		}
	}
}

// tidyLines collapses runs of spaces within lines and of blank lines.
func tidyLines(s string) string {
	var paras []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			paras = append(paras, p)
		}
	}
	return strings.Join(paras, "\n\n")
}

// cleanTitle is a feed title as one line of plain text.
func cleanTitle(s string) string {
	return strings.Join(strings.Fields(plainText(s)), " ")
}

// stopWords are left out of slugs, which keep a title's telling words.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "the": true, "of": true, "on": true, "for": true,
	"to": true, "in": true, "by": true, "with": true, "from": true, "at": true, "or": true,
}

// slugWords is up to max lower-case ASCII words of s, joined by '-'.
// Words are internal/words' (letters, digits and marks, in any script);
// Devanagari is transliterated first (translit.go), accents are dropped
// (NFKD splits é into e and a mark), and what is left outside ASCII is
// dropped from its word.
func slugWords(s string, max int) string {
	var out []string
	word := func(w string) {
		if w != "" && !stopWords[w] && len(out) < max {
			out = append(out, w)
		}
	}
	var cur strings.Builder
	for _, r := range transliterate(norm.NFKD.String(strings.ToLower(s))) {
		switch {
		case r < unicode.MaxASCII && words.IsPart(r):
			cur.WriteRune(r)
		case words.IsPart(r) || words.IsJoiner(r):
			// accents split off by NFKD, letters no slug can hold
		case r == '\'' || r == '’':
			// "RBI's" stays one word
		default:
			word(cur.String())
			cur.Reset()
		}
	}
	word(cur.String())
	return strings.Join(out, "-")
}
