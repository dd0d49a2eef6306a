package render

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/afero"
)

func TestPack(t *testing.T) {
	p, err := CreatePack(filepath.Join(t.TempDir(), "texts.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	want := map[string]string{}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 200 { // added from many goroutines, as the site's texts are
		wg.Go(func() {
			name, data := fmt.Sprintf("c-%d.html", i), fmt.Sprintf("<p>text %d</p>", i)
			if err := p.Add(name, []byte(data)); err != nil {
				t.Error(err)
			}
			mu.Lock()
			want[name] = data
			mu.Unlock()
		})
	}
	wg.Wait()
	if err := p.Add("c-7.html", []byte("<p>again</p>")); err != nil {
		t.Fatal(err)
	}
	want["c-7.html"] = "<p>again</p>"
	got := map[string]string{}
	for name := range want {
		data, err := p.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = string(data)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	t.Run("ErrNotExist", func(t *testing.T) {
		if _, err := p.Read("none.html"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("read of a name never added: %v, want fs.ErrNotExist", err)
		}
	})
	t.Run("AppendTo", func(t *testing.T) {
		out := make([]byte, 0, 4)
		out = append(out, "<hr>"...)
		out, err := p.AppendTo(out, "c-7.html")
		if err != nil || string(out) != "<hr><p>again</p>" {
			t.Errorf("AppendTo = %q, %v; want the file after what out held", out, err)
		}
		out, err = p.AppendTo(out, "none.html")
		if !errors.Is(err, fs.ErrNotExist) || string(out) != "<hr><p>again</p>" {
			t.Errorf("AppendTo of a name never added = %q, %v; want out as it was and fs.ErrNotExist", out, err)
		}
	})
}

// TestPack_AddAll: files added together, across the writes' megabyte
// and after one added alone, read back as they were.
func TestPack_AddAll(t *testing.T) {
	p, err := CreatePack(filepath.Join(t.TempDir(), "views.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Add("first", []byte("alone")); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"first": "alone"}
	var names []string
	var data [][]byte
	for i := range 300 { // some 3 MB: several writes, one file larger than a write
		d := bytes.Repeat([]byte{byte('a' + i%26)}, 10_000+i)
		if i == 150 {
			d = bytes.Repeat([]byte("big"), 1<<19)
		}
		names, data = append(names, fmt.Sprint("v", i)), append(data, d)
		want[names[i]] = string(d)
	}
	if err := p.AddAll(names, data); err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		got, err := p.Read(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != w {
			t.Errorf("%s: read back %d bytes starting %.10q, want %d starting %.10q", name, len(got), got, len(w), w)
		}
	}
	if err := p.AddAll([]string{"x"}, nil); err == nil {
		t.Error("AddAll took one name for no file")
	}
}

func TestPackFs(t *testing.T) {
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Texts.Add("a.html", []byte("<p>A</p>")); err != nil {
		t.Fatal(err)
	}
	site := newSiteFs(w)
	dir := w.siteDir()
	if err := writeFile(site, filepath.Join(dir, "content", "x.md"), []byte("x")); err != nil {
		t.Fatal(err)
	}
	// Hugo's readFile: Stat for the size, then the bytes
	text := filepath.Join(dir, "texts", "a.html")
	st, err := site.Stat(text)
	if err != nil || st.Size() != 8 || st.IsDir() {
		t.Fatalf("Stat(%s) = %v, %v; want a file of 8 bytes", text, st, err)
	}
	data, err := afero.ReadFile(site, text)
	if err != nil || string(data) != "<p>A</p>" {
		t.Errorf("ReadFile(%s) = %q, %v", text, data, err)
	}
	// through the base path Hugo reads the site's files with
	if data, err := afero.ReadFile(afero.NewBasePathFs(site, dir), "texts/a.html"); err != nil || string(data) != "<p>A</p>" {
		t.Errorf("ReadFile under the site's folder = %q, %v", data, err)
	}
	if data, err := afero.ReadFile(site, filepath.Join(dir, "content", "x.md")); err != nil || string(data) != "x" {
		t.Errorf("a file beside the pack = %q, %v", data, err)
	}
	// Hugo's look for symbolic links above a file: the folder is one,
	// described without asking the disk
	for _, name := range []string{filepath.Join(dir, "texts"), text} {
		fi, _, err := site.(afero.Lstater).LstatIfPossible(name)
		if err != nil || fi.IsDir() != (name != text) || fi.Mode()&os.ModeSymlink != 0 {
			t.Errorf("LstatIfPossible(%s) = %v, %v; want the folder, then the file", name, fi, err)
		}
	}
	t.Run("ErrNotExist", func(t *testing.T) {
		for _, name := range []string{"b.html", "sub/a.html"} {
			if _, err := site.Stat(filepath.Join(dir, "texts", name)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Stat(texts/%s): %v, want fs.ErrNotExist", name, err)
			}
			if _, err := site.Open(filepath.Join(dir, "texts", name)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Open(texts/%s): %v, want fs.ErrNotExist", name, err)
			}
		}
	})
	t.Run("ErrPermission", func(t *testing.T) {
		if _, err := site.OpenFile(text, os.O_WRONLY|os.O_TRUNC, 0o644); !errors.Is(err, fs.ErrPermission) {
			t.Errorf("OpenFile for writing: %v, want fs.ErrPermission", err)
		}
		f, err := site.Open(text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("x")); err == nil || f.Name() != text {
			t.Errorf("an opened text's Write: %v, name %q; want an error, and %s", err, f.Name(), text)
		}
	})
}

// TestSpillPages: the runs' content files, moved into a pack, are read
// back by each run as they were encoded, whatever the order the runs
// load in.
func TestSpillPages(t *testing.T) {
	p, err := CreatePack(filepath.Join(t.TempDir(), "pages.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var runs []Run
	want := map[string]string{}
	for r := range 3 {
		var pages []Page
		for i := range 5 + r {
			file := fmt.Sprintf("r%d/p%d.html", r, i)
			pages = append(pages, Page{File: file, Front: map[string]any{"title": file, "layout": "item"}, Body: fmt.Sprintf("Page *%d*", i)})
		}
		runs = append(runs, Run{Pages: pages})
	}
	for _, run := range runs {
		if err := EncodePages(t.Context(), run.Pages); err != nil {
			t.Fatal(err)
		}
		for _, pg := range run.Pages {
			want[pg.File] = string(pg.Content)
		}
	}
	if err := spillPages(t.Context(), p, runs); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{2, 0, 1} {
		for _, pg := range runs[i].Pages {
			if pg.Content != nil {
				t.Fatalf("%s: still holds its content once spilled", pg.File)
			}
		}
		if err := loadPages(p, runs[i].Pages); err != nil {
			t.Fatal(err)
		}
		if err := EncodePages(t.Context(), runs[i].Pages); err != nil { // a loaded page is not encoded again
			t.Fatal(err)
		}
		for _, pg := range runs[i].Pages {
			if string(pg.Content) != want[pg.File] {
				t.Errorf("%s: read back %q, want %q", pg.File, pg.Content, want[pg.File])
			}
		}
	}
}
