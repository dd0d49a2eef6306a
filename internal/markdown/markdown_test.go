package markdown

import (
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
		body, plain, err := Render(md)
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
