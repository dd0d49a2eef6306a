package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// allFields compares unexported fields too (the directions' lines).
var allFields = cmp.Options{cmp.Exporter(func(reflect.Type) bool { return true })}

// decodedLoad loads fsys WithoutTexts (else with opts) and
// WithDecoded(last), the files' hashes known as a build's record knows
// them, and gives the catalog,
// the next Decoded (through gob, as a build keeps it) and the circulars'
// files it read.
func decodedLoad(t *testing.T, fsys fstest.MapFS, label string, last Decoded, opts ...LoadOption) (*Catalog, Decoded, []string, error) {
	t.Helper()
	sum := func(p string) ([sha256.Size]byte, bool) {
		f, ok := fsys[p]
		if !ok {
			return [sha256.Size]byte{}, false
		}
		return sha256.Sum256(f.Data), true
	}
	var (
		mu   sync.Mutex
		read []string
	)
	next := Decoded{}
	now := func() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }
	if opts == nil {
		opts = []LoadOption{WithoutTexts()}
	}
	cat, err := LoadFS(fsys, label, now, append(opts, WithDecoded(last, sum, next), WithRead(func(p string, _ []byte) {
		if strings.HasPrefix(p, "circulars/") {
			mu.Lock()
			read = append(read, p)
			mu.Unlock()
		}
	}))...)
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(next); err != nil {
		t.Fatal(err)
	}
	kept := Decoded{}
	if err := gob.NewDecoder(&buf).Decode(&kept); err != nil {
		t.Fatal(err)
	}
	slices.Sort(read)
	return cat, kept, read, err
}

// TestLoadFS_WithDecoded: a load that takes the circulars from the last
// load's Decoded makes the same catalog as one that reads every file,
// reads only the files whose bytes changed, and keeps what the checks
// across files derive out of what it keeps.
func TestLoadFS_WithDecoded(t *testing.T) {
	fsys := realContent(t)
	now := func() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }
	fresh, err := LoadFS(fsys, "content", now, WithoutTexts())
	if err != nil {
		t.Fatal(err)
	}
	first, last, read, err := decodedLoad(t, fsys, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fresh, first, allFields); diff != "" {
		t.Fatalf("a first load WithDecoded differs (-plain +decoded):\n%s", diff)
	}
	circulars := len(fresh.Circulars) + len(fresh.Unpublished)
	if len(last) != circulars || len(read) != circulars {
		t.Fatalf("the first load read %d circulars' files and kept %d; want %d", len(read), len(last), circulars)
	}
	cited := 0
	for p, e := range last {
		for _, o := range e.Circular.Obligations {
			if o.Cites != nil {
				cited++
				if o.Cites.DirectionName != "" || o.Review != nil {
					t.Errorf("%s: what the file decoded to holds what the checks across files derived (%q, %v)", p, o.Cites.DirectionName, o.Review)
				}
			}
		}
	}
	if cited == 0 {
		t.Fatal("no obligation in the content cites a direction: the test above checks nothing")
	}

	second, again, read, err := decodedLoad(t, fsys, "content", last)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fresh, second, allFields); diff != "" {
		t.Fatalf("a load from the last load's Decoded differs (-read +decoded):\n%s", diff)
	}
	if len(read) != 0 {
		t.Errorf("an unchanged load read %d circulars' files: %v", len(read), read)
	}
	if diff := cmp.Diff(last, again); diff != "" {
		t.Errorf("an unchanged load keeps other entries (-last +next):\n%s", diff)
	}

	t.Run("Edited", func(t *testing.T) {
		edited := maps.Clone(fsys)
		var path string
		for _, p := range slices.Sorted(maps.Keys(edited)) {
			if strings.HasPrefix(p, "circulars/") {
				path = p
				break
			}
		}
		edited[path] = &fstest.MapFile{Data: bytes.Replace(fsys[path].Data, []byte("\ntitle: "), []byte("\ntitle: Edited "), 1)}
		want, err := LoadFS(edited, "content", now, WithoutTexts())
		if err != nil {
			t.Fatal(err)
		}
		got, next, read, err := decodedLoad(t, edited, "content", last)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, allFields); diff != "" {
			t.Fatalf("(-read +decoded):\n%s", diff)
		}
		if !slices.Equal(read, []string{path}) {
			t.Errorf("read %v; want only the edited %s", read, path)
		}
		if !strings.HasPrefix(next[path].Circular.Title, "Edited ") || next[path].Sum != sha256.Sum256(edited[path].Data) {
			t.Errorf("the next load would take the edited file as it was: %q", next[path].Circular.Title)
		}
	})

	t.Run("Texts", func(t *testing.T) {
		// a load that keeps the texts reads every file, for its text,
		// and takes the rest from last
		want, err := LoadFS(fsys, "content", now)
		if err != nil {
			t.Fatal(err)
		}
		keepTexts := func(*loader) {} // (any option but WithoutTexts)
		for _, from := range []Decoded{nil, last} {
			got, next, _, err := decodedLoad(t, fsys, "content", from, keepTexts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, allFields); diff != "" {
				t.Fatalf("from %d kept (-plain +decoded):\n%s", len(from), diff)
			}
			if diff := cmp.Diff(last, next); diff != "" {
				t.Errorf("from %d kept, it keeps other entries than a load without texts (-without +with):\n%s", len(from), diff)
			}
		}
		// the entry is taken, not parsed: one marked in the cache comes
		// back marked, with its file's text
		marked := maps.Clone(last)
		path := slices.Sorted(maps.Keys(marked))[0]
		e := marked[path]
		e.Circular.Title = "Taken from the cache"
		marked[path] = e
		got, _, _, err := decodedLoad(t, fsys, "content", marked, keepTexts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range slices.Concat(got.Circulars, got.Unpublished) {
			if "content/"+path == c.Path && (c.Title != e.Circular.Title || c.Content == "") {
				t.Errorf("%s: title %q, %d bytes of text; want the cache's title and the file's text", path, c.Title, len(c.Content))
			}
		}
	})

	t.Run("ChangedSinceHashed", func(t *testing.T) {
		// the caller's hash is of the bytes before an edit it has not
		// seen: a load that reads the file for its text takes the
		// bytes it read, and keeps them under their own hash
		edited := maps.Clone(fsys)
		path := slices.Sorted(maps.Keys(last))[0]
		edited[path] = &fstest.MapFile{Data: bytes.Replace(fsys[path].Data, []byte("\ntitle: "), []byte("\ntitle: Edited "), 1)}
		stale := func(p string) ([sha256.Size]byte, bool) { return sha256.Sum256(fsys[p].Data), true }
		next := Decoded{}
		got, err := LoadFS(edited, "content", now, WithDecoded(last, stale, next))
		if err != nil {
			t.Fatal(err)
		}
		want, err := LoadFS(edited, "content", now)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got, allFields); diff != "" {
			t.Fatalf("(-read +decoded):\n%s", diff)
		}
		if next[path].Sum != sha256.Sum256(edited[path].Data) {
			t.Error("the edited file's entry is kept under the hash of the bytes before the edit")
		}
	})

	t.Run("OtherLabel", func(t *testing.T) {
		// the entries' paths start with the label: another folder's
		// name reads every file again
		got, _, read, err := decodedLoad(t, fsys, "elsewhere", last)
		if err != nil {
			t.Fatal(err)
		}
		if len(read) != circulars || !strings.HasPrefix(got.Circulars[0].Path, "elsewhere/") {
			t.Errorf("read %d of %d circulars; first path %s", len(read), circulars, got.Circulars[0].Path)
		}
	})

	t.Run("DuplicateID", func(t *testing.T) {
		// a new file, first in walk order, takes a kept circular's id:
		// the kept one is read again and the problem is the one a load
		// of every file reports, at its line
		withID := maps.Clone(fsys)
		var kept string
		for _, p := range slices.Sorted(maps.Keys(fsys)) {
			if strings.HasPrefix(p, "circulars/") {
				kept = p
				break
			}
		}
		withID[kept] = &fstest.MapFile{Data: bytes.Replace(fsys[kept].Data, []byte("---\n"), []byte("---\nid: 5b1f0c2e-8a4d-4c3e-9f7a-2d6b8e1c0a93\n"), 1)}
		_, last, _, err := decodedLoad(t, withID, "content", nil)
		if err != nil {
			t.Fatal(err)
		}
		fsys := withID
		dup := maps.Clone(fsys)
		dup["circulars/0-first.md"] = fsys[kept]
		_, plain := LoadFS(dup, "content", now, WithoutTexts())
		_, _, read, err := decodedLoad(t, dup, "content", last)
		if plain == nil || err == nil || err.Error() != plain.Error() {
			t.Fatalf("decoded: %v\nplain: %v", err, plain)
		}
		if !slices.Contains(read, kept) {
			t.Errorf("the kept %s was not read again: %v", kept, read)
		}
	})
}
