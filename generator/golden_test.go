package generator

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/catalog"
)

// update rewrites testdata/build.golden: `go test ./generator -run TestBuild_Golden -update`.
var update = flag.Bool("update", false, "rewrite testdata/build.golden from this build")

const goldenFile = "testdata/build.golden"

// outputListing lists every file under out with the sha256 of its bytes,
// one "hash  path" line each, sorted by path.
func outputListing(t testing.TB, out string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBuild_Golden proves that a build's output is byte for byte what it
// was: the fixture, as of the tests' date, against a committed listing of
// every file's hash. A change that alters pages on purpose regenerates it
// with -update, and the diff of the listing names the pages it changed.
func TestBuild_Golden(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	got := outputListing(t, out)
	if *update {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (create it with -update)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("built files differ from %s (-want +got); if on purpose, rerun with -update:\n%s", goldenFile, diff)
	}
}

// TestBuild_Framed: every circular's page the build rendered was set in
// its frame (render/frames.go), which TestBuild_Golden proves gives the
// same bytes as rendering it whole; and no frame is in the output.
func TestBuild_Framed(t *testing.T) {
	out, res := buildSite(t, fixtureContent, templatesDir)
	files, err := filepath.Glob(filepath.Join(fixtureContent, "circulars", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	circulars := 0
	for _, f := range files {
		page := circularPagePath(strings.TrimSuffix(filepath.Base(f), ".md"))
		for _, p := range []string{page, "hi/" + page} {
			if slices.Contains(res.RenderedPaths, p) {
				circulars++
			}
		}
	}
	if circulars == 0 || res.Framed != circulars {
		t.Errorf("Framed = %d, want every circular's page rendered: %d", res.Framed, circulars)
	}
	if listing := outputListing(t, out); strings.Contains(listing, "regpulse_frame") {
		t.Error("a frame was published")
	}
	// the lists' pages of the lists' own runs (a regulator's, a
	// category's) had their items set in, and none kept a mark
	lists := 0
	for _, p := range res.RenderedPaths {
		route := "/" + strings.TrimSuffix(strings.TrimPrefix(p, "hi/"), "/index.html")
		if strings.HasPrefix(route, "/circulars/category/") || slices.ContainsFunc(catalog.Sources, func(s string) bool { return route == SourceListRoute(s) }) {
			lists++
			if page := readOut(t, out, p); strings.Contains(page, "<!--regpulse:") || !strings.Contains(page, "data-fields=") {
				t.Errorf("%s: a list page with a mark of the build's, or no item", p)
			}
		}
	}
	if lists == 0 || res.WithItems != lists {
		t.Errorf("WithItems = %d, want every list page of the lists' runs: %d", res.WithItems, lists)
	}
}
