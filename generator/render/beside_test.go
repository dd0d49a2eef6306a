package render

import (
	"fmt"
	"os"
	"path/filepath"
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
