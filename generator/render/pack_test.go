package render

import (
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
	})
}
