package catalog

import (
	"strings"
	"testing"
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
