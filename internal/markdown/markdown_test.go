package markdown

import "testing"

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
	} {
		if got := Preview(tc.s, tc.n); got != tc.want {
			t.Errorf("Preview(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
