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
// as read from disk, as do those the record knew, and an edit to any input
// file, read by the catalog or not, changes the hash.
func TestInputsHash(t *testing.T) {
	content := copyTree(t, fixtureContent)
	opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: t.TempDir(), Now: func() time.Time { return fixtureNow }}
	if err := opts.absolute(); err != nil {
		t.Fatal(err)
	}
	hash := func(rec *render.Record) string {
		t.Helper()
		h, err := inputsHash(opts, nil, rec)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// the record as a build leaves it: the files it knows are not read
	// again; those it does not are hashed as the catalog reads them
	load := func() *render.Record {
		t.Helper()
		rec := render.ReadRecord(opts.OutDir)
		if _, _, err := rec.Scan(content); err != nil {
			t.Fatal(err)
		}
		var n atomic.Int32 // the loader reads on every core
		read := rec.Reader(content)
		if _, err := loadCatalog(opts, catalog.WithRead(func(path string, data []byte) { n.Add(1); read(path, data) })); err != nil {
			t.Fatal(err)
		}
		if n.Load() == 0 {
			t.Fatal("the catalog read no file")
		}
		return rec
	}
	fromDisk := hash(nil)
	rec := load()
	if got := hash(rec); got != fromDisk {
		t.Errorf("hash with the catalog's reads %s, from disk %s", got, fromDisk)
	}
	if err := rec.Write(opts.OutDir); err != nil {
		t.Fatal(err)
	}
	if got := hash(load()); got != fromDisk {
		t.Errorf("hash with the record %s, from disk %s", got, fromDisk)
	}
	t.Run("Obligations", func(t *testing.T) {
		// the stamps of the store's extracted obligations: any change of
		// one, or of which circular has it, is a change
		seen := map[string]string{}
		for name, stamps := range map[string]map[string]string{
			"none":    nil,
			"empty":   {"a": ""},
			"a":       {"a": "h1 at 1"},
			"b":       {"b": "h1 at 1"},
			"edited":  {"a": "h1 at 2"},
			"a and b": {"a": "h1 at 1", "b": "h1 at 1"},
			"ab":      {"a b": "h1 at 1"},
		} {
			h, err := inputsHash(opts, stamps, nil)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[h]; ok {
				t.Errorf("stamps %s and %s hash the same", name, other)
			}
			seen[h] = name
			if again, _ := inputsHash(opts, stamps, nil); again != h {
				t.Errorf("stamps %s: hashed twice, %s then %s", name, h, again)
			}
		}
	})
	for _, edit := range []string{"circulars/rbi-2021-09-07-tokenisation.md", "README.md", "circulars/.notes"} {
		t.Run(edit, func(t *testing.T) {
			path := filepath.Join(content, filepath.FromSlash(edit))
			before := hash(load())
			f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.WriteString("\nedited\n"); err != nil {
				t.Fatal(err)
			}
			f.Close()
			again := load()
			if after := hash(again); after == before {
				t.Errorf("%s edited: the inputs hash did not change", edit)
			}
			if err := again.Write(opts.OutDir); err != nil {
				t.Fatal(err)
			}
		})
	}
}
