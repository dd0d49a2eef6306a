package generator

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuild_Rebuild: a rebuild over the output writes only the files whose
// bytes changed, renders nothing when the inputs did not change, and always
// leaves the output a fresh build of the same inputs would give.
func TestBuild_Rebuild(t *testing.T) {
	const page = "circulars/rbi-2021-09-07-tokenisation/index.html"
	const untouched = "learning-videos/index.html"
	setup := func(t *testing.T) (Options, string) {
		content := copyTree(t, fixtureContent)
		out := filepath.Join(t.TempDir(), "public")
		opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
			BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow }}
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		return opts, out
	}
	// fresh is what a build of opts into an empty folder holds.
	fresh := func(t *testing.T, opts Options) string {
		opts.OutDir = filepath.Join(t.TempDir(), "public")
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		return outputListing(t, opts.OutDir)
	}
	stat := func(t *testing.T, p string) os.FileInfo {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	rebuild := func(t *testing.T, opts Options, wantUnchanged bool) {
		t.Helper()
		res, err := Build(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Unchanged != wantUnchanged {
			t.Errorf("Unchanged = %t, want %t", res.Unchanged, wantUnchanged)
		}
		if res.Pages < len(Routes(res.Catalog)) {
			t.Errorf("Pages = %d for %d routes", res.Pages, len(Routes(res.Catalog)))
		}
	}

	t.Run("Unchanged", func(t *testing.T) {
		opts, out := setup(t)
		before := stat(t, filepath.Join(out, page))
		rebuild(t, opts, true)
		if !os.SameFile(before, stat(t, filepath.Join(out, page))) {
			t.Error("an unchanged build rewrote a page")
		}
	})
	t.Run("OneCircularChanged", func(t *testing.T) {
		opts, out := setup(t)
		keep, old := stat(t, filepath.Join(out, untouched)), stat(t, filepath.Join(out, page))
		f := filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, append(src, "\n\nA new paragraph.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		rebuild(t, opts, false)
		if os.SameFile(old, stat(t, filepath.Join(out, page))) {
			t.Error("the changed circular's page was not rewritten")
		}
		if !os.SameFile(keep, stat(t, filepath.Join(out, untouched))) {
			t.Errorf("%s, whose bytes did not change, was rewritten", untouched)
		}
		if diff := cmp.Diff(fresh(t, opts), outputListing(t, out)); diff != "" {
			t.Errorf("rebuilt output differs from a fresh build (-fresh +rebuilt):\n%s", diff)
		}
	})
	t.Run("OutputIncomplete", func(t *testing.T) {
		opts, out := setup(t)
		if err := os.Remove(filepath.Join(out, untouched)); err != nil {
			t.Fatal(err)
		}
		rebuild(t, opts, false)
		stat(t, filepath.Join(out, untouched))
	})
	t.Run("OptionsChanged", func(t *testing.T) {
		opts, out := setup(t)
		opts.SupportEmail = "help@regpulse.test"
		rebuild(t, opts, false)
		if diff := cmp.Diff(fresh(t, opts), outputListing(t, out)); diff != "" {
			t.Errorf("rebuilt output differs from a fresh build (-fresh +rebuilt):\n%s", diff)
		}
	})
	t.Run("NoManifest", func(t *testing.T) {
		opts, _ := setup(t)
		opts.OutDir = filepath.Join(t.TempDir(), "public.1")
		opts.NoManifest = true
		rebuild(t, opts, false)
		rebuild(t, opts, false)
		if _, err := os.Stat(manifestPath(opts.OutDir)); err == nil {
			t.Error("a build with NoManifest left a manifest beside its output")
		}
	})
	t.Run("NextDay", func(t *testing.T) {
		opts, _ := setup(t)
		opts.Now = func() time.Time { return fixtureNow.AddDate(0, 0, 1) }
		rebuild(t, opts, false)
	})
}
