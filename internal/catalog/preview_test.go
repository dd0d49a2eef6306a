package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCircular_PreviewText(t *testing.T) {
	long := strings.Repeat("word ", 100)
	for _, tc := range []struct {
		name, content string
		n             int
		want          string
	}{
		{"Short", "A **short** text.", CardPreviewLen, "A short text."},
		{"MarkdownStripped", "# Heading\n\nSee [the page](https://rbi.org.in).", CardPreviewLen, "Heading See the page."},
		{"Cut", long, ImpactPreviewLen, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Circular{Content: tc.content}.PreviewText(tc.n)
			if tc.want != "" && got != tc.want {
				t.Errorf("PreviewText = %q, want %q", got, tc.want)
			}
			if n := len([]rune(strings.TrimSuffix(got, "..."))); n > tc.n || (tc.want == "" && !strings.HasSuffix(got, "...")) {
				t.Errorf("PreviewText = %q (%d characters), want at most %d, cut with an ellipsis", got, n, tc.n)
			}
		})
	}
	cs := WithPreviews([]Circular{{Content: "One."}, {Content: "Two."}})
	if cs[0].Preview != "One." || cs[1].Preview != "Two." {
		t.Errorf("WithPreviews = %q, %q", cs[0].Preview, cs[1].Preview)
	}
}

// FuzzPreviewStart: every preview of a text's start (up to a card's) is
// the text's own, and the start is the text's first characters.
func FuzzPreviewStart(f *testing.F) {
	for _, s := range []string{"", "short", strings.Repeat("word ", 60), strings.Repeat("é", 201), strings.Repeat("x", 200) + " ", "\xff\xfe" + strings.Repeat("a", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := PreviewStart(s)
		if !strings.HasPrefix(s, start) || utf8.RuneCountInString(start) > CardPreviewLen+1 {
			t.Fatalf("PreviewStart(%q) = %q: not a start of at most %d characters", s, start, CardPreviewLen+1)
		}
		for _, n := range []int{0, 1, ImpactPreviewLen, CardPreviewLen - 1, CardPreviewLen} {
			if got, want := PreviewOf(start, n), PreviewOf(s, n); got != want {
				t.Fatalf("PreviewOf(PreviewStart(%q), %d) = %q, want %q", s, n, got, want)
			}
		}
	})
}
