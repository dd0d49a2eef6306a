package render

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBesideMap: a map written entry by entry reads back whole, as this
// program's; a cut file or none reads as none.
func TestBesideMap(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	type val struct {
		Text string
		Sum  [4]byte
	}
	want := map[string]val{"": {}}
	for i := range 2000 {
		want[fmt.Sprint("k", i)] = val{Text: fmt.Sprint("text ", i), Sum: [4]byte{byte(i)}}
	}
	if _, ok, _ := ReadBesideMap[string, val](out, "m.gob"); ok {
		t.Fatal("read a map never written")
	}
	if err := WriteBesideMap(out, "m.gob", want); err != nil {
		t.Fatal(err)
	}
	got, ok, ours := ReadBesideMap[string, val](out, "m.gob")
	if !ok || !ours {
		t.Fatalf("read back: ok %v, ours %v", ok, ours)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
	path := BesidePath(out, "m.gob")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	if m, ok, _ := ReadBesideMap[string, val](out, "m.gob"); ok || m != nil {
		t.Errorf("a cut file read as %d entries", len(m))
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
