package render

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRecord: a file whose stamp is the recorded one is taken at its
// recorded hash without being read; any change to it (its bytes at the
// same size and modification time, its removal, a rename, a new file) is
// read and hashed again, and a file changed too recently to trust its
// stamp is hashed each time until it settles.
func TestRecord(t *testing.T) {
	defer func(c time.Duration) { recentCutoff = c }(recentCutoff)
	recentCutoff = 0 // the files written here are trusted at once
	// fake stands for the recorded hash of every file: a file taken from
	// the record hashes as fake, one read hashes as its bytes.
	fake := [sha256.Size]byte{1}
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dir string)
		// want is each file's hash after the edit: "" for the recorded
		// one (not read), else its bytes
		want map[string]string
		// firstCutoff is recentCutoff for the first build (0: the files
		// had settled when it stat'ed them)
		firstCutoff time.Duration
	}{
		{name: "unchanged", edit: func(*testing.T, string) {},
			want: map[string]string{"a.md": "", "b/c.md": ""}},
		{name: "same size, same modification time", edit: func(t *testing.T, dir string) {
			rewriteKeepingMTime(t, filepath.Join(dir, "a.md"), "AAAA")
		}, want: map[string]string{"a.md": "AAAA", "b/c.md": ""}},
		{name: "removed", edit: func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "b", "c.md")); err != nil {
				t.Fatal(err)
			}
		}, want: map[string]string{"a.md": ""}},
		{name: "renamed", edit: func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "b", "c.md"), filepath.Join(dir, "b", "d.md")); err != nil {
				t.Fatal(err)
			}
		}, want: map[string]string{"a.md": "", "b/d.md": "cccc"}},
		{name: "new file", edit: func(t *testing.T, dir string) {
			writeTestFile(t, filepath.Join(dir, "e.md"), "eeee")
		}, want: map[string]string{"a.md": "", "b/c.md": "", "e.md": "eeee"}},
		{name: "changed too recently to trust", edit: func(*testing.T, string) {},
			firstCutoff: time.Hour, want: map[string]string{"a.md": "aaaa", "b/c.md": "cccc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recentCutoff = tc.firstCutoff
			root := t.TempDir()
			dir, out := filepath.Join(root, "content"), filepath.Join(root, "public")
			writeTestFile(t, filepath.Join(dir, "a.md"), "aaaa")
			writeTestFile(t, filepath.Join(dir, "b", "c.md"), "cccc")
			first := ReadRecord(out)
			if files, n, err := first.Scan(dir); err != nil || files != 2 || n != 2 {
				t.Fatalf("first Scan: %d files, %d unknown, %v; want 2 and 2", files, n, err)
			}
			for _, rel := range []string{"a.md", "b/c.md"} {
				if _, err := first.sum(filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
					t.Fatal(err)
				}
			}
			for p, r := range first.next {
				r.SHA = fake
				first.next[p] = r
			}
			if err := first.Write(out); err != nil {
				t.Fatal(err)
			}

			tc.edit(t, dir)
			recentCutoff = 0
			rec := ReadRecord(out)
			_, unknown, err := rec.Scan(dir)
			if err != nil {
				t.Fatal(err)
			}
			wantUnknown := 0
			for rel, want := range tc.want {
				got, err := rec.sum(filepath.Join(dir, filepath.FromSlash(rel)))
				if err != nil {
					t.Fatal(err)
				}
				if want == "" {
					if got.sha != fake {
						t.Errorf("%s: read again, want its recorded hash", rel)
					}
					continue
				}
				wantUnknown++
				if got.sha != sha256.Sum256([]byte(want)) || got.size != int64(len(want)) {
					t.Errorf("%s: not hashed as its bytes %q", rel, want)
				}
			}
			if unknown != wantUnknown {
				t.Errorf("Scan: %d unknown, want %d", unknown, wantUnknown)
			}
			// what the next build's record holds: every file there is
			if err := rec.Write(out); err != nil {
				t.Fatal(err)
			}
			next := ReadRecord(out)
			for rel := range tc.want {
				_, ok := next.last[filepath.Join(dir, filepath.FromSlash(rel))]
				if !ok {
					t.Errorf("%s not recorded", rel)
				}
			}
			if len(next.last) != len(tc.want) {
				t.Errorf("the record holds %d files, want %d (a removed or renamed file's old path stays)", len(next.last), len(tc.want))
			}
		})
	}
}

// TestRecord_Reader: the bytes the loader read of a file the record did
// not know are what it is recorded at, without a second read; a file not
// stat'ed before it was read is not recorded from them.
func TestRecord_Reader(t *testing.T) {
	defer func(c time.Duration) { recentCutoff = c }(recentCutoff)
	recentCutoff = 0
	root := t.TempDir()
	dir := filepath.Join(root, "content")
	writeTestFile(t, filepath.Join(dir, "a.md"), "aaaa")
	rec := ReadRecord(filepath.Join(root, "public"))
	if _, _, err := rec.Scan(dir); err != nil {
		t.Fatal(err)
	}
	read := rec.Reader(dir)
	read("a.md", []byte("read"))          // what the loader read (here not the file's bytes: the record takes them)
	read("unscanned.md", []byte("other")) // never stat'ed: not recorded
	got, err := rec.sum(filepath.Join(dir, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got.sha != sha256.Sum256([]byte("read")) {
		t.Error("a.md was read again, not taken from the loader's bytes")
	}
	if _, ok := rec.next[filepath.Join(dir, "unscanned.md")]; ok {
		t.Error("a file read without a stamp taken before was recorded")
	}
}

// rewriteKeepingMTime writes data (of the file's size) over file and sets
// its modification time back to what it was: an edit within the file
// system's timestamp granularity.
func rewriteKeepingMTime(t *testing.T, file, data string) {
	t.Helper()
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() != int64(len(data)) {
		t.Fatalf("%s: %d bytes, want the file's %d", file, len(data), st.Size())
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after, err := os.Stat(file); err != nil || !after.ModTime().Equal(st.ModTime()) {
		t.Fatalf("%s: modification time not kept (%v)", file, err)
	}
}

func writeTestFile(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecord_Note: a note kept with a file's hash is given back while
// the file holds the same bytes, not once they changed.
func TestRecord_Note(t *testing.T) {
	defer func(c time.Duration) { recentCutoff = c }(recentCutoff)
	recentCutoff = 0
	root := t.TempDir()
	dir, out := filepath.Join(root, "content"), filepath.Join(root, "public")
	a, b := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md")
	writeTestFile(t, a, "aaaa")
	writeTestFile(t, b, "bbbb")
	first := ReadRecord(out)
	for _, p := range []string{a, b} {
		if _, err := first.sum(p); err != nil {
			t.Fatal(err)
		}
		first.SetNote(p, "hi")
	}
	if err := first.Write(out); err != nil {
		t.Fatal(err)
	}
	rewriteKeepingMTime(t, b, "BBBB")
	rec := ReadRecord(out)
	if _, _, err := rec.Scan(dir); err != nil {
		t.Fatal(err)
	}
	if note, ok := rec.Note(a); !ok || note != "hi" {
		t.Errorf("a.md unchanged: note %q, %t; want hi", note, ok)
	}
	if _, err := rec.sum(b); err != nil {
		t.Fatal(err)
	}
	if note, ok := rec.Note(b); ok {
		t.Errorf("b.md changed: note %q kept", note)
	}
}

// TestRecord_Sum: Sum is the hash of the bytes a build read of a file,
// whether its stamp had settled enough to be recorded or not.
func TestRecord_Sum(t *testing.T) {
	defer func(c time.Duration) { recentCutoff = c }(recentCutoff)
	for _, cutoff := range []time.Duration{0, time.Hour} {
		recentCutoff = cutoff
		dir := t.TempDir()
		p := filepath.Join(dir, "a.md")
		writeTestFile(t, p, "aaaa")
		r := ReadRecord(filepath.Join(t.TempDir(), "public"))
		if _, ok := r.Sum(p); ok {
			t.Errorf("cutoff %v: a sum before the file was read", cutoff)
		}
		if _, _, err := r.Scan(dir); err != nil {
			t.Fatal(err)
		}
		r.Reader(dir)("a.md", []byte("aaaa"))
		if sum, ok := r.Sum(p); !ok || sum != sha256.Sum256([]byte("aaaa")) {
			t.Errorf("cutoff %v: Sum = %x, %t", cutoff, sum, ok)
		}
	}
}
