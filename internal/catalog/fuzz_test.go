package catalog

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"slices"
	"testing"
)

// fuzzSeedDirs are the trees whose files seed FuzzParseFile: every real
// entry, plus the test trees.
var fuzzSeedDirs = []string{"../../content", "testdata/good", "testdata/broken"}

func FuzzParseFile(f *testing.F) {
	seeds := 0
	for _, root := range fuzzSeedDirs {
		err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(os.DirFS(root), p)
			if err != nil {
				return err
			}
			f.Add(p, data)
			seeds++
			return nil
		})
		if err != nil {
			f.Fatalf("seeding from %s: %v", root, err)
		}
	}
	if seeds < 150 {
		f.Fatalf("only %d seed files; is ../../content there?", seeds)
	}
	// Line-ending and encoding variants.
	f.Add("circulars/c.md", []byte(toCRLF(validCircular)))
	f.Add("news/n.md", []byte(utf8BOM+toCRLF(validNews)))
	f.Add("sibos/2024.md", []byte("---\r\n---"))

	f.Fuzz(func(t *testing.T, rel string, data []byte) {
		err := ParseFile(rel, data)
		if err == nil {
			return
		}
		var ps Problems
		if !errors.As(err, &ps) {
			t.Fatalf("ParseFile error is %T, not Problems: %v", err, err)
		}
		if len(ps) == 0 {
			t.Fatal("ParseFile returned empty Problems as an error")
		}
		// No problem can be past the end of the file. YAML counts \r and
		// the Unicode line and paragraph separators as line breaks too.
		maxLine := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) +
			bytes.Count(data, []byte("\u0085")) + bytes.Count(data, []byte("\u2028")) + bytes.Count(data, []byte("\u2029"))
		emptyField := ""
		for _, p := range ps {
			if p.Path == "" {
				t.Errorf("problem without a path: %q", p.String())
			}
			if p.Line < 0 || p.Line > maxLine {
				t.Errorf("problem line %d outside the file (0-%d): %q", p.Line, maxLine, p.String())
			}
			if p.Field == "" {
				emptyField = p.String()
			}
		}
		// ParseFile is deterministic (up to order).
		var again Problems
		errors.As(ParseFile(rel, data), &again)
		if !slices.Equal(problemSet(ps), problemSet(again)) {
			t.Errorf("ParseFile is not deterministic:\n%v\n%v", ps, again)
		}
		if emptyField != "" {
			t.Errorf("regression, fixed BUG fields.go newFields/done: a front-matter key that is empty or not a scalar gives a problem with an empty Field: %q", emptyField)
		}
	})
}

func problemSet(ps Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	slices.Sort(out)
	return out
}
