package generator

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"regpulse/generator/render"
	"regpulse/internal/catalog"
)

// TestInputsHash: the content's files hashed as the catalog read them hash
// as read from disk, and an edit to any input file, read by the catalog or
// not, changes the hash.
func TestInputsHash(t *testing.T) {
	content := copyTree(t, fixtureContent)
	opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: t.TempDir(), Now: func() time.Time { return fixtureNow }}
	if err := opts.absolute(); err != nil {
		t.Fatal(err)
	}
	hash := func(read *render.FileSums) string {
		t.Helper()
		h, err := inputsHash(opts, read)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	fromDisk := hash(nil)
	read := render.NewFileSums()
	var n atomic.Int32 // the loader reads on every core
	if _, err := loadCatalog(opts, catalog.WithRead(func(path string, data []byte) { n.Add(1); read.Add(path, data) })); err != nil {
		t.Fatal(err)
	}
	if n.Load() == 0 {
		t.Fatal("the catalog read no file")
	}
	if got := hash(read); got != fromDisk {
		t.Errorf("hash with the catalog's reads %s, from disk %s", got, fromDisk)
	}
	for _, edit := range []string{"circulars/rbi-2021-09-07-tokenisation.md", "README.md", "circulars/.notes"} {
		t.Run(edit, func(t *testing.T) {
			path := filepath.Join(content, filepath.FromSlash(edit))
			before := hash(read)
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("\nedited\n"); err != nil {
				t.Fatal(err)
			}
			f.Close()
			// the catalog's reads as they now are
			again := render.NewFileSums()
			if _, err := loadCatalog(opts, catalog.WithRead(again.Add)); err != nil {
				t.Fatal(err)
			}
			if after := hash(again); after == before {
				t.Errorf("%s edited: the inputs hash did not change", edit)
			}
			read = again
		})
	}
}
