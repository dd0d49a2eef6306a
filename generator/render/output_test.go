package render

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOutput: a first build's files are renamed in whole; a build over
// it in place stages and writes only the files whose bytes changed,
// removes those it no longer has (with the folders they leave empty) and
// keeps a page whose key is unchanged without its bytes; a build into a
// new folder links the last one's unchanged files; nothing reaches the
// output before Commit.
func TestOutput(t *testing.T) {
	parent := t.TempDir()
	outDir := filepath.Join(parent, "public")
	stat := func(t *testing.T, name string) os.FileInfo {
		t.Helper()
		st, err := os.Stat(filepath.Join(outDir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	lastBuild := func(base, outDir string) string {
		if base == "" {
			return outDir
		}
		return base
	}
	output := func(t *testing.T, outDir, base string) *Output {
		t.Helper()
		w, err := NewWorkspace(parent)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
		o, err := NewOutput(outDir, w.Staging(), base, ReadManifest(lastBuild(base, outDir)))
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	publish := func(t *testing.T, o *Output, files map[string]string) {
		t.Helper()
		for name, data := range files {
			if err := o.Publish(name, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
	}

	first := output(t, outDir, "")
	publish(t, first, map[string]string{"index.html": "home", "a/index.html": "a", "old/deep/index.html": "old", "feed.xml": "feed"})
	if _, err := os.Stat(outDir); !os.IsNotExist(err) {
		t.Fatalf("the output exists before Commit: %v", err)
	}
	if err := first.Commit("one", map[string]string{"a/index.html": "key-a"}); err != nil {
		t.Fatal(err)
	}
	if got := first.Pages(); got != 3 {
		t.Errorf("Pages() = %d, want 3", got)
	}
	home, a := stat(t, "index.html"), stat(t, "a/index.html")

	second := output(t, outDir, "")
	if m := second.Last(); m == nil || m.Inputs != "one" || !m.Complete(outDir) {
		t.Fatalf("the last build's manifest: %+v", m)
	}
	if !second.Unchanged("a/index.html", "key-a") || second.Unchanged("a/index.html", "key-b") || second.Unchanged("index.html", "") {
		t.Error("Unchanged: want true for a's page and key only")
	}
	publish(t, second, map[string]string{"index.html": "home", "feed.xml": "feed, changed", "b/index.html": "b"})
	if err := second.Commit("two", nil); err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(home, stat(t, "index.html")) || !os.SameFile(a, stat(t, "a/index.html")) {
		t.Error("a file of the same bytes, or kept, was written again")
	}
	got := map[string]string{}
	err := filepath.WalkDir(outDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(outDir, p)
		got[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"index.html": "home", "a/index.html": "a", "b/index.html": "b", "feed.xml": "feed, changed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(outDir, "old")); !os.IsNotExist(err) {
		t.Errorf("the folders of a removed file are left: %v", err)
	}
	if !second.Has("feed.xml") || second.Has("old/deep/index.html") {
		t.Error("Has: want the build's files only")
	}

	t.Run("NewFolder", func(t *testing.T) {
		next := filepath.Join(parent, "public.2")
		o := output(t, next, outDir)
		if err := o.ReuseAll(); err != nil {
			t.Fatal(err)
		}
		if err := o.Commit("two", nil); err != nil {
			t.Fatal(err)
		}
		linked, err := os.Stat(filepath.Join(next, "index.html"))
		if err != nil || !os.SameFile(linked, stat(t, "index.html")) {
			t.Errorf("the new folder's page is not the last build's file, linked (%v)", err)
		}
	})
}

// TestManifestEncode holds the manifest's own encoding to json.Marshal's,
// byte for byte, escapes and empty pages included, and to what
// ReadManifest reads back.
func TestManifestEncode(t *testing.T) {
	for name, m := range map[string]Manifest{
		"empty": {Inputs: "", Files: map[string]fileSum{}},
		"site": {Inputs: "5a96", Files: map[string]fileSum{
			"index.html":                      {Hash: "ab01", Size: 1234},
			"circulars/rbi-2024-1/index.html": {Hash: "cd02", Size: 0},
			"hi/circulars/a/index.html":       {Hash: "ef03", Size: 1 << 40},
		}, Pages: map[string]string{"circulars/rbi-2024-1/index.html": "k1", "hi/circulars/a/index.html": "k2"}},
		"escapes": {Inputs: `"quoted" \ <tag> & more`, Files: map[string]fileSum{
			"media/naïve file.pdf":    {Hash: "00", Size: 7},
			"media/line\nbreak\t.txt": {Hash: "01", Size: 8},
			"media/\u2028sep\x7f.txt": {Hash: "02", Size: 9},
			`media/"q"&<a>\b.txt`:     {Hash: "04", Size: 11},
			"hi/परिपत्र/index.html":   {Hash: "05", Size: 12},
			"media/lt<.txt":           {Hash: "06", Size: 1}, "media/gt>.txt": {Hash: "07", Size: 1},
			"media/amp&.txt": {Hash: "08", Size: 1}, `media/back\slash`: {Hash: "09", Size: 1},
			`media/quote".txt`: {Hash: "10", Size: 1}, "media/tab\t": {Hash: "11", Size: 1},
		}, Pages: map[string]string{"hi/परिपत्र/index.html": "\x00key"}},
		// (read back with U+FFFD for the bad byte, as json.Unmarshal does)
		"invalid UTF-8": {Inputs: "i", Files: map[string]fileSum{"media/bad\xffutf8.txt": {Hash: "03", Size: 10}}},
	} {
		t.Run(name, func(t *testing.T) {
			want, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			got := m.encode()
			if string(got) != string(want) {
				t.Errorf("encode:\n%s\nwant json.Marshal's:\n%s", got, want)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "public")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ManifestPath(out), got, 0o644); err != nil {
				t.Fatal(err)
			}
			back := ReadManifest(out)
			if back == nil {
				t.Fatal("ReadManifest: none")
			}
			if back.Pages == nil {
				back.Pages = map[string]string{}
			}
			if m.Pages == nil {
				m.Pages = map[string]string{}
			}
			if diff := cmp.Diff(m, *back, cmp.AllowUnexported(fileSum{})); diff != "" && name != "invalid UTF-8" {
				t.Errorf("read back (-wrote +read):\n%s", diff)
			}
		})
	}
}

// TestDecodeManifest: the manifest as encode writes it is read without
// reflection (decodeManifest), any other form by json.Unmarshal, and
// ReadManifest gives what json.Unmarshal gives for each.
func TestDecodeManifest(t *testing.T) {
	site := Manifest{Inputs: "5a96", Files: map[string]fileSum{
		"index.html": {Hash: "ab01", Size: 1234}, "circulars/a/index.html": {Hash: "cd02", Size: 0},
	}, Pages: map[string]string{"circulars/a/index.html": "k1"}}
	indented, err := json.MarshalIndent(site, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	escaped := Manifest{Inputs: "i", Files: map[string]fileSum{"media/a&b.pdf": {Hash: "00", Size: 7}, "hi/परिपत्र/index.html": {Hash: "01", Size: 8}}}
	for _, tc := range []struct {
		name string
		data string
		fast bool // read by decodeManifest
	}{
		{"canonical", string(site.encode()), true},
		{"no pages", string(Manifest{Inputs: "x", Files: site.Files}.encode()), true},
		{"no files", string(Manifest{Inputs: "x", Files: map[string]fileSum{}}.encode()), true},
		{"pages empty", `{"inputs":"x","files":{},"pages":{}}`, true},
		{"escaped", string(escaped.encode()), false},
		{"escaped ASCII", string(Manifest{Inputs: "i", Files: map[string]fileSum{"media/a&b.pdf": {Hash: "00", Size: 7}}}.encode()), false},
		{"indented", string(indented), false},
		{"newline after", string(site.encode()) + "\n", false},
		{"negative size", `{"inputs":"x","files":{"a":{"xxhash":"00","size":-1}}}`, false},
		{"fields reordered", `{"files":{},"inputs":"x"}`, false},
		{"truncated", string(site.encode()[:40]), false},
		{"trailing garbage", string(site.encode()) + "x", false},
		{"files missing", `{"inputs":"x"}`, false},
		{"not JSON", `files`, false},
		// an older build's form, whose hashes ReadManifest does not take
		{"SHA-256's", `{"inputs":"x","files":{"a":{"sha256":"00","size":1}}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := decodeManifest([]byte(tc.data)); ok != tc.fast {
				t.Errorf("decodeManifest: ok %t, want %t", ok, tc.fast)
			}
			var want *Manifest
			var m Manifest
			if json.Unmarshal([]byte(tc.data), &m) == nil && m.Files != nil && tc.name != "SHA-256's" {
				want = &m
			}
			out := filepath.Join(t.TempDir(), "public")
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ManifestPath(out), []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, ReadManifest(out), cmp.AllowUnexported(fileSum{})); diff != "" {
				t.Errorf("ReadManifest (-json.Unmarshal's +got):\n%s", diff)
			}
		})
	}
}

// TestMkdirFor: the folder of a file is made, with the folders above it
// where they are missing; one already there is taken as it is.
func TestMkdirFor(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a/index.html", "a/b/c/index.html", "a/b/index.html", "d/index.html"} {
		dst := filepath.Join(root, filepath.FromSlash(p))
		if err := mkdirFor(dst); err != nil {
			t.Fatalf("mkdirFor(%s): %v", p, err)
		}
		if err := os.WriteFile(dst, []byte(p), 0o644); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	// a file where the folder would be: the write fails, not the build silently
	if err := mkdirFor(filepath.Join(root, "d", "index.html", "x")); err == nil {
		if err := os.WriteFile(filepath.Join(root, "d", "index.html", "x"), nil, 0o644); err == nil {
			t.Error("a file written under a file")
		}
	}
}

// TestPublishedFile: a file Hugo publishes is handed to take whole when
// closed, once (a second Close says the same), and then refuses writes;
// it cannot be read.
func TestPublishedFile(t *testing.T) {
	var took []string
	fail := errors.New("take failed")
	pub := publishFs{take: func(name string, data []byte) error {
		took = append(took, name+"="+string(data))
		if name == "bad.html" {
			return fail
		}
		return nil
	}}
	f, err := pub.Create("a/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("<p>")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("A</p>"); err != nil {
		t.Fatal(err)
	}
	if st, err := f.Stat(); err != nil || st.Size() != 8 || f.Name() != "a/index.html" {
		t.Errorf("Stat = %v, %v, name %q; want 8 bytes of a/index.html", st, err, f.Name())
	}
	if _, err := f.Read(make([]byte, 8)); err == nil {
		t.Error("a file being published was read")
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := f.Write([]byte("x")); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("Write after Close: %v, want fs.ErrClosed", err)
	}
	bad, err := pub.Create("bad.html")
	if err != nil {
		t.Fatal(err)
	}
	if err := bad.Close(); !errors.Is(err, fail) {
		t.Errorf("Close = %v, want take's error", err)
	}
	if err := bad.Close(); !errors.Is(err, fail) {
		t.Errorf("second Close = %v, want take's error again", err)
	}
	if diff := cmp.Diff([]string{"a/index.html=<p>A</p>", "bad.html="}, took); diff != "" {
		t.Errorf("taken (-want +got):\n%s", diff)
	}
}
