package generator

import (
	"bytes"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"regpulse/generator/render"

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
		if res.Pages < len(Routes(res.Catalog, fixtureNow)) {
			t.Errorf("Pages = %d for %d routes", res.Pages, len(Routes(res.Catalog, fixtureNow)))
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
		appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA new paragraph.\n")
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
	// the related ranking's cache lost, the texts' kept: the texts taken
	// from their cache are given to the ranking by their leads' hashes,
	// which it cannot tokenise, and are rendered again for it
	t.Run("RelatedCacheLost", func(t *testing.T) {
		opts, out := setup(t)
		if err := os.Remove(cachePath(out, relatedCacheName)); err != nil {
			t.Fatal(err)
		}
		appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA new paragraph.\n")
		rebuild(t, opts, false)
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
	// serve's rebuilds: each into a new folder, from the one served
	t.Run("NewFolder", func(t *testing.T) {
		opts, out := setup(t)
		next := opts
		next.OutDir, next.LastBuild = out+".1", out
		rebuild(t, next, true) // inputs unchanged: every file linked
		if !os.SameFile(stat(t, filepath.Join(out, page)), stat(t, filepath.Join(next.OutDir, page))) {
			t.Error("an unchanged page was written again, not linked from the last build")
		}
		if diff := cmp.Diff(outputListing(t, out), outputListing(t, next.OutDir)); diff != "" {
			t.Errorf("the new folder differs from the last build (-last +new):\n%s", diff)
		}

		appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA new paragraph.\n")
		third := opts
		third.OutDir, third.LastBuild = out+".2", next.OutDir
		rebuild(t, third, false)
		if os.SameFile(stat(t, filepath.Join(next.OutDir, page)), stat(t, filepath.Join(third.OutDir, page))) {
			t.Error("the changed circular's page was linked, not rendered")
		}
		if !os.SameFile(stat(t, filepath.Join(next.OutDir, untouched)), stat(t, filepath.Join(third.OutDir, untouched))) {
			t.Errorf("%s, whose bytes did not change, was written again", untouched)
		}
		if diff := cmp.Diff(fresh(t, third), outputListing(t, third.OutDir)); diff != "" {
			t.Errorf("rebuilt folder differs from a fresh build (-fresh +rebuilt):\n%s", diff)
		}
		// the last build, untouched
		if got, err := os.ReadFile(filepath.Join(next.OutDir, page)); err != nil || strings.Contains(string(got), "A new paragraph") {
			t.Errorf("the last build's page changed under it (%v)", err)
		}

		// serve removes a replaced folder; the next build drops its manifest
		if err := os.RemoveAll(next.OutDir); err != nil {
			t.Fatal(err)
		}
		fourth := opts
		fourth.OutDir, fourth.LastBuild = out+".3", third.OutDir
		rebuild(t, fourth, true)
		if _, err := os.Stat(render.ManifestPath(next.OutDir)); err == nil {
			t.Error("the manifest of a removed folder was left behind")
		}
		if _, err := os.Stat(render.ManifestPath(third.OutDir)); err != nil {
			t.Errorf("the manifest of a folder still there was removed: %v", err)
		}
		for _, name := range cacheNames {
			if _, err := os.Stat(cachePath(next.OutDir, name)); err == nil {
				t.Errorf("the %s cache of a removed folder was left behind", name)
			}
			if _, err := os.Stat(cachePath(fourth.OutDir, name)); err != nil {
				t.Errorf("the %s cache was not linked into the new folder: %v", name, err)
			}
		}
	})
	// serve's rebuilds alternate between two folders: the second's first
	// build links from the first; after that each builds in place over
	// the build before last, whatever LastBuild says, writing only what
	// changed since that build
	t.Run("TwoFolders", func(t *testing.T) {
		opts, out := setup(t)
		twin := opts
		twin.OutDir, twin.LastBuild = out+".b", out
		rebuild(t, twin, true)
		if !os.SameFile(stat(t, filepath.Join(out, page)), stat(t, filepath.Join(twin.OutDir, page))) {
			t.Error("the second folder's first build wrote an unchanged page, not linked from the first")
		}

		appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA new paragraph.\n")
		back := opts
		back.LastBuild = twin.OutDir // the one served; out holds the build before it
		keep, served := stat(t, filepath.Join(out, untouched)), stat(t, filepath.Join(twin.OutDir, page))
		rebuild(t, back, false)
		if !os.SameFile(keep, stat(t, filepath.Join(out, untouched))) {
			t.Errorf("%s, whose bytes did not change, was written again: the folder was not rebuilt in place", untouched)
		}
		if diff := cmp.Diff(fresh(t, back), outputListing(t, out)); diff != "" {
			t.Errorf("the folder rebuilt in place differs from a fresh build (-fresh +rebuilt):\n%s", diff)
		}
		// the one served, untouched: its page is the same file, without the edit
		if !os.SameFile(served, stat(t, filepath.Join(twin.OutDir, page))) {
			t.Error("the folder being served had a page replaced")
		}
		if got, err := os.ReadFile(filepath.Join(twin.OutDir, page)); err != nil || strings.Contains(string(got), "A new paragraph") {
			t.Errorf("the folder being served changed (%v)", err)
		}

		// and the second folder, one build behind, catches up in place
		twin.LastBuild = out
		keep = stat(t, filepath.Join(twin.OutDir, untouched))
		rebuild(t, twin, false)
		if !os.SameFile(keep, stat(t, filepath.Join(twin.OutDir, untouched))) {
			t.Errorf("%s was written again in the second folder", untouched)
		}
		if diff := cmp.Diff(outputListing(t, out), outputListing(t, twin.OutDir)); diff != "" {
			t.Errorf("the two folders differ after each was built from the same inputs (-first +second):\n%s", diff)
		}
	})
	// serve's rebuilds keep the last Result: with no input changed (the
	// record knowing every content file) its catalog is taken as it is,
	// and an edit of the same size is seen
	t.Run("KeptCatalog", func(t *testing.T) {
		opts, out := setup(t)
		// the record trusts a file changed 2 s or more before the build
		// stat'ed it: the next build records the content, the one after
		// takes it from the record
		time.Sleep(2100 * time.Millisecond)
		last, err := Build(t.Context(), opts)
		if err != nil {
			t.Fatal(err)
		}
		next := opts
		next.OutDir, next.LastBuild, next.LastResult = out+".1", out, last
		res, err := Build(t.Context(), next)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Unchanged || res.Catalog != last.Catalog {
			t.Errorf("unchanged inputs: Unchanged %t, the last catalog kept %t; want both", res.Unchanged, res.Catalog == last.Catalog)
		}
		file := filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.LastIndexAny(string(data), "abcdefghijklmnopqrstuvwxyz") // in the text, at the end
		if i < 0 {
			t.Fatal("no letter to change")
		}
		data[i] -= 'a' - 'A' // same size
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		third := opts
		third.OutDir, third.LastBuild, third.LastResult = out+".2", next.OutDir, res
		if res, err = Build(t.Context(), third); err != nil {
			t.Fatal(err)
		}
		if res.Unchanged || res.Catalog == last.Catalog {
			t.Error("a circular edited at the same size: the build took the last catalog")
		}
		if diff := cmp.Diff(fresh(t, third), outputListing(t, third.OutDir)); diff != "" {
			t.Errorf("rebuilt folder differs from a fresh build (-fresh +rebuilt):\n%s", diff)
		}
	})
	// a rebuild after an edit takes the other circulars from the decoded
	// cache, whether the catalog keeps the texts (serve) or not (build),
	// and writes what a fresh build does
	for _, release := range []bool{true, false} {
		t.Run(fmt.Sprintf("DecodedCache/release=%t", release), func(t *testing.T) {
			t.Parallel() // (its waits for the record overlap the other's)
			build := func(t *testing.T, opts Options) {
				t.Helper()
				if res, err := Build(t.Context(), opts); err != nil || res.Unchanged {
					t.Fatalf("%v, unchanged %t", err, err == nil && res.Unchanged)
				}
			}
			var log bytes.Buffer
			opts, out := setup(t)
			opts.ReleaseContent = release
			opts.Log = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
			// the record trusts a file changed 2 s or more before the
			// build stat'ed it: this build records the content (the
			// first was too soon after the copy), the next takes it from
			// the record
			time.Sleep(2100 * time.Millisecond)
			appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA first new paragraph.\n")
			build(t, opts)
			filesRead := func() (n int) {
				t.Helper()
				m := regexp.MustCompile(`step=load .*"files read"=(\d+)`).FindAllStringSubmatch(log.String(), -1)
				if len(m) == 0 {
					t.Fatalf("no load step in the log:\n%s", log.String())
				}
				n, _ = strconv.Atoi(m[len(m)-1][1])
				return n
			}
			// every content file (a load that keeps the texts reads them
			// all; this one read fewer when the setup's build, slower than
			// the record's 2 s, recorded the content and kept its circulars)
			all := 0
			err := filepath.WalkDir(opts.ContentDir, func(_ string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					all++
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := filesRead(); got > all {
				t.Fatalf("the build read %d content files, of %d", got, all)
			}
			kept, _ := readDecodedCache(out)
			if len(kept) == 0 {
				t.Fatal("no decoded cache beside the output")
			}
			time.Sleep(2100 * time.Millisecond)
			appendTo(t, filepath.Join(opts.ContentDir, "circulars", "rbi-2021-09-07-tokenisation.md"), "\n\nA second new paragraph.\n")
			// one edit writes deltas over the caches' bases, which stay
			// (render.BesideMap): the same files before and after
			// (and the record of the inputs' files)
			paths := map[string]string{textCacheName: cachePath(out, textCacheName), "record": render.RecordPath(out)}
			if release {
				paths[decodedCacheName] = cachePath(out, decodedCacheName)
			}
			bases := map[string]os.FileInfo{}
			for name, path := range paths {
				st, err := os.Stat(path)
				if err != nil {
					t.Fatalf("no %s beside the output: %v", name, err)
				}
				bases[name] = st
			}
			build(t, opts)
			for name, st := range bases {
				if now, err := os.Stat(paths[name]); err != nil || !os.SameFile(st, now) {
					t.Errorf("after one edit the %s cache's base was written again (%v), not a delta over it", name, err)
				}
			}
			want := all - len(kept) + 1 // the edited circular
			if release {
				if got := filesRead(); got != want {
					t.Errorf("the rebuild read %d content files; want %d: %d of %d, less the %d circulars kept but the edited one", got, want, got, all, len(kept))
				}
			} else if got := filesRead(); got != all {
				t.Errorf("keeping the texts, the rebuild read %d content files; want all %d", got, all)
			}
			if diff := cmp.Diff(fresh(t, opts), outputListing(t, out)); diff != "" {
				t.Errorf("rebuilt output differs from a fresh build (-fresh +rebuilt):\n%s", diff)
			}
		})
	}
	t.Run("NextDay", func(t *testing.T) {
		opts, _ := setup(t)
		opts.Now = func() time.Time { return fixtureNow.AddDate(0, 0, 1) }
		rebuild(t, opts, false)
	})
}

// appendTo adds text at the end of file (an edit of a content file).
func appendTo(t testing.TB, file, text string) {
	t.Helper()
	f, err := os.OpenFile(file, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
