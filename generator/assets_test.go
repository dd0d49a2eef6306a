package generator

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadAssets(t *testing.T) {
	a, err := LoadAssets("testdata/assets")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"css", a.CSS, []string{"/assets/styles-test.css"}},
		{"fonts", a.Fonts, []string{"/assets/noto-sans-devanagari-test.woff2"}},
	} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.what, diff)
		}
	}
}
