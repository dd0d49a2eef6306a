package render

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBesideMap: a map is written whole, then as deltas over that base
// (the base linked beside the new folder), and reads back as written each
// time, the entries a delta read set carried into the next delta; a
// delta past a tenth of the map, or over a base that cannot be linked,
// writes the base again; a delta over another base, or cut, is not
// applied; a cut base, another program's or none reads as none.
func TestBesideMap(t *testing.T) {
	parent := t.TempDir()
	type val struct {
		Text string
		Sum  [4]byte
	}
	same := func(a, b val) bool { return a == b }
	want := map[string]val{"": {}}
	for i := range 2000 {
		want[fmt.Sprint("k", i)] = val{Text: fmt.Sprint("text ", i), Sum: [4]byte{byte(i)}}
	}
	dir := func(name string) string { return filepath.Join(parent, name) }
	// write writes next into folder to as a build does: its changes
	// from the map read beside from
	write := func(t *testing.T, from, to string, next map[string]val) MapChanges[string] {
		t.Helper()
		last, bm := ReadBesideMap[string, val](dir(from), "m.gob")
		c := bm.Changes(last, next, same)
		if err := bm.Write(dir(to), next, c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	read := func(t *testing.T, from string, want map[string]val) {
		t.Helper()
		got, _ := ReadBesideMap[string, val](dir(from), "m.gob")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("read back beside %s (-want +got):\n%s", from, diff)
		}
	}
	sameFile := func(a, b string) bool {
		sa, err := os.Stat(BesidePath(dir(a), "m.gob"))
		if err != nil {
			t.Fatal(err)
		}
		sb, err := os.Stat(BesidePath(dir(b), "m.gob"))
		if err != nil {
			t.Fatal(err)
		}
		return os.SameFile(sa, sb)
	}
	edit := func(m map[string]val, edits func(m map[string]val)) map[string]val {
		m = maps.Clone(m)
		edits(m)
		return m
	}

	if m, _ := ReadBesideMap[string, val](dir("none"), "m.gob"); m != nil {
		t.Fatal("read a map never written")
	}
	if c := write(t, "none", "a", want); !c.Whole {
		t.Fatalf("the first write is a delta: %+v", c)
	}
	read(t, "a", want)

	// a changed entry, a new one and a removed one: a delta of three
	first := edit(want, func(m map[string]val) {
		m["k1"] = val{Text: "changed"}
		m["new"] = val{Text: "new"}
		delete(m, "k2")
	})
	c := write(t, "a", "b", first)
	slices.Sort(c.Set)
	if c.Whole || !slices.Equal(c.Set, []string{"k1", "new"}) || !slices.Equal(c.Removed, []string{"k2"}) {
		t.Errorf("first delta: %+v; want k1 and new set, k2 removed", c)
	}
	if !sameFile("a", "b") {
		t.Error("the delta's base is not the one read, linked")
	}
	read(t, "b", first)

	// over the same base again: what the first delta set and removed
	// stays set and removed, though this build changed neither
	second := edit(first, func(m map[string]val) { m["k3"] = val{Text: "changed too"} })
	c = write(t, "b", "c", second)
	slices.Sort(c.Set)
	if c.Whole || !slices.Equal(c.Set, []string{"k1", "k3", "new"}) || !slices.Equal(c.Removed, []string{"k2"}) {
		t.Errorf("second delta: %+v; want k1, k3 and new set, k2 removed", c)
	}
	if !sameFile("a", "c") {
		t.Error("the second delta's base is not the first's")
	}
	read(t, "c", second)

	// a delta over another base is not applied: c's delta beside a
	// new base reads as that base
	if c := write(t, "none", "d", want); !c.Whole {
		t.Fatal("a first write is a delta")
	}
	copyFile(t, BesidePath(dir("c"), DeltaName("m.gob")), BesidePath(dir("d"), DeltaName("m.gob")))
	read(t, "d", want)
	// a cut delta is not applied either
	copyFile(t, BesidePath(dir("c"), "m.gob"), BesidePath(dir("e"), "m.gob"))
	cut(t, BesidePath(dir("c"), DeltaName("m.gob")), BesidePath(dir("e"), DeltaName("m.gob")))
	read(t, "e", want)

	// a tenth of the map changed: the base is written again
	many := edit(second, func(m map[string]val) {
		for i := range len(m) / deltaShare {
			m[fmt.Sprint("k", 1000+i)] = val{Text: "many"}
		}
	})
	if c := write(t, "c", "f", many); !c.Whole {
		t.Errorf("%d entries of %d changed, written as a delta", len(c.Set)+len(c.Removed), len(many))
	}
	if sameFile("c", "f") {
		t.Error("a whole write linked the last base")
	}
	read(t, "f", many)
	// a base that cannot be linked (gone since it was read): written whole
	last, bm := ReadBesideMap[string, val](dir("f"), "m.gob")
	if err := os.Remove(BesidePath(dir("f"), "m.gob")); err != nil {
		t.Fatal(err)
	}
	if err := bm.Write(dir("g"), many, bm.Changes(last, many, same)); err != nil {
		t.Fatal(err)
	}
	read(t, "g", many)

	// a cut base reads as none, its delta with it
	cut(t, BesidePath(dir("g"), "m.gob"), BesidePath(dir("h"), "m.gob"))
	copyFile(t, BesidePath(dir("g"), DeltaName("m.gob")), BesidePath(dir("h"), DeltaName("m.gob")))
	if m, _ := ReadBesideMap[string, val](dir("h"), "m.gob"); m != nil {
		t.Errorf("a cut base read as %d entries", len(m))
	}
	// another program's base reads as none
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(mapHead[string]{Program: "another", ID: [16]byte{1}, Len: 1}); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(besideEntry[string, val]{"k", val{Text: "stale"}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(BesidePath(dir("i"), "m.gob"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, _ := ReadBesideMap[string, val](dir("i"), "m.gob"); m != nil {
		t.Errorf("another program's base read as %v", m)
	}
}

// copyFile copies the file from into to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cut writes the first half of the file from into to.
func cut(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
}

// lines is a stream WriteBesideStream writes: its lines, one a line.
type lines []string

func (l lines) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, strings.Join(l, "\n"))
	return int64(n), err
}

// readLines reads lines back, failing on a line "bad".
func readLines(r io.Reader) (lines, error) {
	b, err := io.ReadAll(r)
	l := lines(strings.Split(string(b), "\n"))
	if slices.Contains(l, "bad") {
		return nil, errors.New("a bad line")
	}
	return l, err
}

// TestBesideStream: a stream written after the program's hash reads
// back as written; one the reader refuses, another program's or none
// reads as none.
func TestBesideStream(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, ok := ReadBesideStream(out, "s.bin", readLines); ok {
		t.Fatal("read a stream never written")
	}
	want := lines{"first", "", strings.Repeat("long ", 1<<18), "last"}
	if err := WriteBesideStream(out, "s.bin", want); err != nil {
		t.Fatal(err)
	}
	got, ok := ReadBesideStream(out, "s.bin", readLines)
	if !ok {
		t.Fatal("a stream written was not read back")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	if err := WriteBesideStream(out, "s.bin", lines{"good", "bad"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadBesideStream(out, "s.bin", readLines); ok {
		t.Error("a stream its reader refused read as ok")
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(besideFile[int]{Program: "another program"}); err != nil {
		t.Fatal(err)
	}
	b.WriteString("first")
	if err := os.WriteFile(BesidePath(out, "s.bin"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadBesideStream(out, "s.bin", readLines); ok {
		t.Error("read another program's stream")
	}
}
