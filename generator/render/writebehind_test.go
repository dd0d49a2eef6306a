package render

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

func TestWriteBehind(t *testing.T) {
	dir := t.TempDir()
	var w writeBehind
	const n = writeBehindFiles + 100
	var wg sync.WaitGroup
	for g := range 4 { // as Hugo's renderers publish: on several goroutines
		wg.Go(func() {
			for i := g; i < n; i += 4 {
				if err := w.write(filepath.Join(dir, fmt.Sprintf("%04d.html", i)), []byte(fmt.Sprintf("page %d", i))); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := len(w.open); got > writeBehindFiles {
		t.Errorf("%d files held open, more than %d", got, writeBehindFiles)
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	if len(w.open) != 0 {
		t.Errorf("close left %d files open", len(w.open))
	}
	if err := w.close(); err != nil {
		t.Errorf("a second close: %v", err)
	}
	for i := range n {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%04d.html", i)))
		if want := fmt.Sprintf("page %d", i); err != nil || string(b) != want {
			t.Fatalf("file %d: %q, %v; want %q", i, b, err, want)
		}
	}
	// a file written again is replaced whole, as by os.WriteFile
	name := filepath.Join(dir, "0000.html")
	if err := w.write(name, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(name); string(b) != "x" {
		t.Errorf("rewritten file: %q, want %q", b, "x")
	}
	if err := w.write(filepath.Join(dir, "missing", "index.html"), []byte("x")); err == nil {
		t.Error("a write into a missing folder did not fail")
	}
}
