package catalog

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

func TestCheckChanges(t *testing.T) {
	good := os.DirFS("testdata/good")
	const circ = "circulars/rbi-2019-08-13-regulatory-sandbox-framework.md"
	orig, err := fs.ReadFile(good, circ)
	if err != nil {
		t.Fatal(err)
	}
	badDate := []byte(strings.Replace(string(orig), "publishedDate: 2019-08-13", "publishedDate: 2019-13-01", 1))
	newCircular := []byte(strings.NewReplacer("title: \"Enabling Framework for Regulatory Sandbox\"", "title: \"A second framework\"").Replace(string(orig)))
	tests := []struct {
		name    string
		changes map[string][]byte
		want    []string // problems, as Problem.String gives them; none: loads
		wantErr string   // an error that is not Problems
	}{
		{name: "nothing changed", changes: nil},
		{name: "a file rewritten as it was", changes: map[string][]byte{circ: orig}},
		{name: "a new file", changes: map[string][]byte{"circulars/rbi-2019-08-14-second-framework.md": newCircular}},
		{name: "a file in a new folder", changes: map[string][]byte{"master-directions/x/2020-01-01.md": []byte("---\ncirculars: [rbi-2019-08-13-regulatory-sandbox-framework]\neffects:\n  - deleted: \"1\"\n---\n\nA note.\n")},
			want: []string{"content/master-directions/x/2020-01-01.md:0: file: a version of a direction with no index.md (content/master-directions/x/index.md)"}},
		{name: "a bad date", changes: map[string][]byte{circ: badDate},
			want: []string{"content/" + circ + ":5: publishedDate: bad date \"2019-13-01\" (want YYYY-MM-DD)"}},
		// Another file's reference breaks: refused too, at that file.
		{name: "a circular deleted that news names", changes: map[string][]byte{circ: nil},
			want: []string{"content/news/2019-08-13-rbi-regulatory-sandbox-framework.md:9: circular: refers to unknown circular rbi-2019-08-13-regulatory-sandbox-framework"}},
		{name: "a file outside the kinds' folders", changes: map[string][]byte{"notes.md": []byte("---\n---\n")},
			want: []string{"content/notes.md:0: file: not in a content folder (want one of ads/, adslots/, bodies/, circulars/, companies/, events/, networks/, news/, regulations/, sibos/, videos/NAME.md)"}},
		{name: "a path out of the folder", changes: map[string][]byte{"../x.md": orig}, wantErr: `"../x.md" is not a path inside the content directory`},
		{name: "an absolute path", changes: map[string][]byte{"/etc/x.md": orig}, wantErr: "not a path inside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckChanges(good, "content", tt.changes, nil)
			var ps Problems
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			case err == nil && len(tt.want) == 0:
				return
			case err == nil:
				t.Fatalf("no problems, want %q", tt.want)
			case !errors.As(err, &ps):
				t.Fatalf("err = %v, want Problems", err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// The overlay reads as fsys with the changes made, for every fs call
// the loader makes, and leaves fsys as it was.
func TestOverlay(t *testing.T) {
	base := fstest.MapFS{
		"a/x.md": {Data: []byte("x")},
		"a/y.md": {Data: []byte("y")},
		"b/z.md": {Data: []byte("z")},
	}
	o := withChanges(base, map[string][]byte{"a/x.md": []byte("X"), "a/y.md": nil, "c/d/w.md": []byte("w"), "a/new.md": []byte("n")})
	if err := fstest.TestFS(o, "a/x.md", "a/new.md", "b/z.md", "c/d/w.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.Stat(o, "a/y.md"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("deleted a/y.md: Stat err = %v", err)
	}
	if data, _ := fs.ReadFile(o, "a/x.md"); string(data) != "X" {
		t.Errorf("a/x.md = %q, want the change", data)
	}
	var walked []string
	_ = fs.WalkDir(o, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() {
			walked = append(walked, p)
		}
		return nil
	})
	if got := strings.Join(walked, " "); got != "a/new.md a/x.md b/z.md c/d/w.md" {
		t.Errorf("walk = %s", got)
	}
	if string(base["a/x.md"].Data) != "x" || base["a/y.md"] == nil {
		t.Error("the base changed")
	}
}
