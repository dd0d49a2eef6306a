package markdown

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlainText(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"Paragraphs", "First para\nwraps.\n\nSecond **bold** and _em_.", "First para wraps. Second bold and em."},
		{"LinksAndCode", "See [the circular](https://rbi.org.in) and `name@valid`.", "See the circular and name@valid."},
		{"List", "- one\n- two", "one two"},
		{"Entities", "A &amp; B ₹5,000", "A & B ₹5,000"},
		{"Empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := PlainText(tc.md); got != tc.want {
				t.Errorf("PlainText(%q) = %q, want %q", tc.md, got, tc.want)
			}
		})
	}
}

func TestPreview(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"a longer sentence here", 9, "a longer..."},
		{"₹₹₹₹₹", 3, "₹₹₹..."},
		{"₹₹₹", 3, "₹₹₹"},
		{"", 5, ""},
		{"abc", 0, "..."},
	} {
		if got := Preview(tc.s, tc.n); got != tc.want {
			t.Errorf("Preview(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestHTML(t *testing.T) {
	for _, tc := range []struct{ name, md, want string }{
		{"Paragraph", "Banks **must** act.", "<p>Banks <strong>must</strong> act.</p>\n"},
		// Content is text: raw HTML an editor writes is never passed through.
		{"RawHTMLOmitted", "Hello <script>alert(1)</script> there.", "<p>Hello <!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --> there.</p>\n"},
		{"EscapesText", "A < B & C", "<p>A &lt; B &amp; C</p>\n"},
		{"Typography", `The "regulator's" rules -- in full...`, "<p>The &ldquo;regulator&rsquo;s&rdquo; rules &ndash; in full&hellip;</p>\n"},
		{"Table", "| a | b |\n|---|---|\n| 1 | 2 |", "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n"},
		{"Autolink", "See https://rbi.org.in.", `<p>See <a href="https://rbi.org.in">https://rbi.org.in</a>.</p>` + "\n"},
		{"HeadingID", "## Who must comply", `<h2 id="who-must-comply">Who must comply</h2>` + "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := HTML(tc.md)
			if err != nil || got != tc.want {
				t.Errorf("HTML(%q) = %q, %v\nwant %q", tc.md, got, err, tc.want)
			}
		})
	}
}

// TestPlainText_SameParser: previews read Markdown as pages render it
// (typographic quotes included), so a preview shows the page's words.
func TestPlainText_SameParser(t *testing.T) {
	if got, want := PlainText(`The "regulator's" rules -- in full`), "The “regulator’s” rules – in full"; got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}

func TestBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		want     []string
	}{
		{"HeadingAndParagraphs", "## Who must comply\n\nBanks shall\nreport.\n\nBy 1 April.", []string{"Who must comply", "Banks shall report.", "By 1 April."}},
		{"ListItems", "Entities must:\n\n- register\n- report **monthly**", []string{"Entities must:", "register", "report monthly"}},
		{"Table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"a", "b", "1", "2"}},
		{"Empty", "  \n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Blocks(tc.md)); diff != "" {
				t.Errorf("Blocks(%q) (-want +got):\n%s", tc.md, diff)
			}
		})
	}
}

// TestRender: one parse gives what HTML and PlainText give separately.
func TestRender(t *testing.T) {
	for _, md := range []string{
		"", "Banks **must** act.\n\nSecond para, [a link](https://rbi.org.in).",
		"## Who must comply\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |",
		`The "regulator's" rules -- in full... A < B & C[^1]` + "\n\n[^1]: A note.",
		"Hello <script>alert(1)</script> there.\n\n```\ncode\n```",
	} {
		body, plain, err := Render(md, 0)
		if err != nil {
			t.Fatalf("Render(%q): %v", md, err)
		}
		want, _ := HTML(md)
		if diff := cmp.Diff(want, body); diff != "" {
			t.Errorf("Render(%q) body (-HTML +Render):\n%s", md, diff)
		}
		if diff := cmp.Diff(PlainText(md), plain); diff != "" {
			t.Errorf("Render(%q) plain (-PlainText +Render):\n%s", md, diff)
		}
	}
}

// TestRender_Words: with a count of words, the plain text is the whole's
// start, cut at a block's end once past that count, or the whole.
func TestRender_Words(t *testing.T) {
	md := "# Title of it\n\nOne two three four.\n\n- five six\n- seven\n\n| eight | nine |\n|---|---|\n| ten | eleven |\n\nTwelve thirteen."
	full := PlainText(md)
	for words, want := range map[int]string{
		1:  "Title of it",
		3:  "Title of it One two three four.",
		6:  "Title of it One two three four.",
		7:  "Title of it One two three four. five six",
		12: "Title of it One two three four. five six seven eight nine ten",
		13: "Title of it One two three four. five six seven eight nine ten eleven",
		14: full,
		50: full,
	} {
		_, plain, err := Render(md, words)
		if err != nil {
			t.Fatal(err)
		}
		if plain != want {
			t.Errorf("Render(md, %d) plain = %q, want %q", words, plain, want)
		}
		if !strings.HasPrefix(full, plain) || plain != full && len(strings.Fields(plain)) <= words {
			t.Errorf("Render(md, %d) plain = %q: not the whole's start past %d words", words, plain, words)
		}
	}
}

// TestEngine holds the renderer without autolinks (unlinked) to GFM's for
// every text engine gives it: the editors' circulars and texts that try
// the autolink parser's every trigger without an address in them.
func TestEngine(t *testing.T) {
	texts := []string{
		"Plain words, *emphasis*, _under_, ~~struck~~ and (brackets) at every trigger.",
		"A line head\n(a) clause\n* a list\n_b_ and ~c~",
		"http: and ftp: without slashes; ww.example and example.com, name at host",
		"| a | b |\n|---|---|\n| (1) | *2* |\n\nTerm\n: its definition[^1]\n\n[^1]: A note.",
		"- [ ] a task\n- [x] done\n\n## Heading {#custom}\n\n\"Quotes\" -- and... dashes",
		"[a link](/circulars/x) and <https:not-an-autolink>",
	}
	content, err := filepath.Glob("../../content/circulars/*.md")
	if err != nil || len(content) == 0 {
		t.Fatalf("no circulars in ../../content/circulars: %v", err)
	}
	for _, f := range content {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// the body, after the front matter
		parts := strings.SplitN(string(b), "\n---\n", 2)
		texts = append(texts, parts[len(parts)-1])
	}
	fast := 0
	for i, md := range texts {
		src := []byte(md)
		if engine(src) == markdown {
			continue
		}
		fast++
		var want, got bytes.Buffer
		if err := markdown.Convert(src, &want); err != nil {
			t.Fatal(err)
		}
		if err := unlinked.Convert(src, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), got.String()); diff != "" {
			t.Errorf("text %d: without autolinks (-GFM +unlinked):\n%s", i, diff)
		}
	}
	if fast < len(texts)/2 {
		t.Errorf("%d of %d texts rendered without autolinks; want most (engine)", fast, len(texts))
	}
	for _, md := range []string{"see https://rbi.org.in", "see www.rbi.org.in", "mail cgm@rbi.org.in", "FTP://X.ORG"} {
		if engine([]byte(md)) != markdown {
			t.Errorf("engine(%q) leaves autolinks out", md)
		}
	}
}

// BenchmarkRender renders a plain circular's text (no address in it, so
// without autolinks) and one with an address.
func BenchmarkRender(b *testing.B) {
	para := "The regulated entities shall (i) report every *material* outsourcing arrangement to the board, " +
		"(ii) keep the customer's data within India and (iii) review the vendor's controls each year under section 4_b.\n\n"
	for _, tc := range []struct{ name, md string }{
		{"Plain", strings.Repeat(para, 12)},
		{"Address", strings.Repeat(para, 12) + "See https://rbi.org.in."},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Render(tc.md, 400); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestHead: a start is cut at the first blank line at or after n bytes,
// and never where a definition could change its words.
func TestHead(t *testing.T) {
	for _, c := range []struct {
		md   string
		n    int
		want string
		ok   bool
	}{
		{"one\n\ntwo\n\nthree", 3, "one", true},
		{"one\n\ntwo\n\nthree", 4, "one\n\ntwo", true},
		{"one\n\ntwo", 5, "", false},                      // no blank line after n
		{"one\ntwo", 0, "", false},                        // none at all
		{"one\n\ntwo", 9, "", false},                      // n past the text
		{"see [a][r]\n\ntwo\n\n[r]: /x", 0, "", false},    // a reference's definition after
		{"note[^1]\n\n[^1]: foot\n\nmain", 12, "", false}, // a footnote's before
	} {
		got, ok := Head(c.md, c.n)
		if got != c.want || ok != c.ok {
			t.Errorf("Head(%q, %d) = %q, %v; want %q, %v", c.md, c.n, got, ok, c.want, c.ok)
		}
	}
}

// FuzzAppendWords: appendWords writes what strings.Fields and a join with
// single spaces make of s, after what dst held, and counts the words:
// white space of every kind (Unicode's included), invalid UTF-8 and none.
func FuzzAppendWords(f *testing.F) {
	for _, s := range []string{"", " ", "one", "  two  words ", "tab\tand\nnew\r\nline", "no\u00a0break\u2003em\u0085next",
		"\xffbad\x85 bytes\xe2\x80", "ünïcödé wörds", "\v\f", "a\u3000b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fields := strings.Fields(s)
		got, n := appendWords([]byte("x|"), []byte(s))
		if want := "x|" + strings.Join(fields, " "); string(got) != want || n != len(fields) {
			t.Errorf("appendWords(%q) = %q, %d; want %q, %d", s, got, n, want, len(fields))
		}
	})
}
