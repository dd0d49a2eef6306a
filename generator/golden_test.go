package generator

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
