package generator

import (
	"crypto/sha256"
	"encoding/base64"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// inlineScriptHashes returns the CSP hash of every distinct inline script
// of the built pages under outDir, as a browser finds them.
func inlineScriptHashes(outDir string) ([]string, error) {
	set := map[string]bool{}
	err := filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		z := html.NewTokenizer(f)
		inScript := false
		for {
			switch z.Next() {
			case html.ErrorToken:
				return nil
			case html.StartTagToken:
				name, hasAttr := z.TagName()
				inScript = string(name) == "script" && !hasSrc(z, hasAttr)
			case html.TextToken:
				if inScript {
					sum := sha256.Sum256(z.Text())
					set["sha256-"+base64.StdEncoding.EncodeToString(sum[:])] = true
				}
			case html.EndTagToken:
				inScript = false
			}
		}
	})
	out := make([]string, 0, len(set))
	for h := range set {
		out = append(out, h)
	}
	sort.Strings(out)
	return out, err
}

// TestTemplateScriptHashes: the hashes read from the templates at build
// start are those of the inline scripts the built pages hold.
func TestTemplateScriptHashes(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	built, err := inlineScriptHashes(out)
	if err != nil {
		t.Fatal(err)
	}
	fromTemplates, err := templateScriptHashes(templatesDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(built) == 0 {
		t.Fatal("the fixture's pages hold no inline script (the theme script)")
	}
	if diff := cmp.Diff(built, fromTemplates); diff != "" {
		t.Errorf("hashes (-built pages +templates):\n%s", diff)
	}
	t.Run("ErrTemplateAction", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "templates")
		if err := os.MkdirAll(filepath.Join(dir, "_partials"), 0o755); err != nil {
			t.Fatal(err)
		}
		page := "{{ define \"main\" }}\n<p>x</p>\n<script>var x = {{ .Title }};</script>\n{{ end }}\n"
		if err := os.WriteFile(filepath.Join(dir, "_partials", "bad.html"), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := templateScriptHashes(dir)
		if err == nil || !strings.Contains(err.Error(), "templates/_partials/bad.html:3: an inline script holds a template action") {
			t.Errorf("err = %v, want it to name templates/_partials/bad.html:3", err)
		}
	})
}
