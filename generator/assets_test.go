package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each language's pages get the files of its own build (its manifest);
// what every build shares (the CSS, the font, React) is one file.
func TestLoadAssets(t *testing.T) {
	a, err := LoadAssets("testdata/assets")
	if err != nil {
		t.Fatal(err)
	}
	en, hi := a.Langs["en"], a.Langs["hi"]
	if en == nil || hi == nil {
		t.Fatalf("languages: %v, want en and hi", a.Langs)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"en css", en.CSS, []string{"/assets/styles-test.css"}},
		{"en fonts", en.Fonts, []string{"/assets/noto-sans-devanagari-test.woff2"}},
		{"en loader", []string{en.Loader}, []string{"/assets/loader-test.js"}},
		{"en Demo", en.Islands["Demo"], []string{"/assets/Demo-test.js", "/assets/react-test.js"}},
		{"hi css", hi.CSS, []string{"/assets/styles-test.css"}},
		{"hi fonts", hi.Fonts, []string{"/assets/noto-sans-devanagari-test.woff2"}},
		{"hi loader", []string{hi.Loader}, []string{"/assets/loader-hi-test.js"}},
		{"hi userMenu", []string{hi.UserMenu}, []string{"/assets/userMenu-hi-test.js"}},
		{"hi Demo", hi.Islands["Demo"], []string{"/assets/Demo-hi-test.js", "/assets/react-test.js"}},
	} {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.what, diff)
		}
	}
}

// A language without its build's manifest fails the build: its pages
// would otherwise name another language's files.
func TestLoadAssets_MissingLanguage(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/assets")); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, ".vite", "manifest.hi.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadAssets(dir); err == nil || !strings.Contains(err.Error(), "manifest.hi.json") {
		t.Errorf("LoadAssets without the Hindi manifest: %v, want an error naming it", err)
	}
}
