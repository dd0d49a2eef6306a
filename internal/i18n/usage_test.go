package i18n

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The places that name the catalogue's keys, from the repository's root.
var usageRoots = []struct {
	dir  string
	exts []string
}{
	{"templates", []string{".html", ".txt"}},
	{"generator", []string{".go"}},
	{"internal", []string{".go", ".txt", ".html"}},
	{"api", []string{".go"}},
	{"cmd", []string{".go"}},
	{"islands/src", []string{".ts", ".tsx"}},
}

const keyPattern = `[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9]+)+`

var (
	// calls are what asks for a key by name: Hugo's T and i18n, Go's
	// i18n.T and Catalogue.T (and a language's T method), the islands' t
	// and tn. Each must be in the catalogue.
	callRes = []*regexp.Regexp{
		regexp.MustCompile(`\b(?:T|i18n)\s+"(` + keyPattern + `)"`),
		regexp.MustCompile(`\bT\([^"()]*(?:\([^()]*\))?[^"()]*"(` + keyPattern + `)"`),
		regexp.MustCompile(`\bt\(\s*["'](` + keyPattern + `)["']`),
	}
	// literals are any quoted key: a table of keys (a route's title, a
	// label by value) uses them too. "area.%s" (printf) and `area.${x}`
	// use every key under area.
	literalRe = regexp.MustCompile("[\"'`](" + keyPattern + ")[\"'`]")
	prefixRe  = regexp.MustCompile("[\"`]([a-z][a-zA-Z0-9]*(?:\\.[a-zA-Z0-9]+)*\\.)(?:%s|%v|%d|\\$\\{)")
)

type use struct {
	key, where string
}

// uses reads every file under the roots: the keys asked for by a call,
// the keys quoted, and the prefixes built on.
func uses(t *testing.T, root string) (calls []use, quoted map[string]bool, prefixes []string) {
	t.Helper()
	quoted = map[string]bool{}
	for _, r := range usageRoots {
		err := filepath.WalkDir(filepath.Join(root, r.dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				switch d.Name() {
				case "node_modules", "testdata", "dist", ".fixture-site":
					return filepath.SkipDir
				}
				return nil
			}
			name := d.Name()
			if !slices.Contains(r.exts, filepath.Ext(name)) || strings.HasSuffix(name, "_test.go") ||
				strings.Contains(name, ".test.") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			lines := strings.Split(string(b), "\n")
			for i, line := range lines {
				for _, re := range callRes {
					for _, m := range re.FindAllStringSubmatch(line, -1) {
						calls = append(calls, use{m[1], fmt.Sprintf("%s:%d", rel, i+1)})
					}
				}
				for _, m := range literalRe.FindAllStringSubmatch(line, -1) {
					quoted[m[1]] = true
				}
				for _, m := range prefixRe.FindAllStringSubmatch(line, -1) {
					prefixes = append(prefixes, m[1])
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return calls, quoted, prefixes
}

// TestUsage is the catalogue's two-way check: every key the templates,
// the Go code and the islands ask for is in the catalogue (file:line of
// each that is not), and every key of the catalogue is used somewhere
// (file:line of each that is not), so that no page shows a key and no
// translator translates a string nobody shows.
func TestUsage(t *testing.T) {
	cat := Default()
	calls, quoted, prefixes := uses(t, filepath.Join("..", ".."))
	if len(calls) == 0 {
		t.Fatal("no use of the catalogue found: the roots or the patterns are wrong")
	}
	var missing []string
	for _, u := range calls {
		if !cat.Has(u.key) {
			missing = append(missing, u.where+": "+u.key)
		}
		quoted[u.key] = true
	}
	if len(missing) > 0 {
		t.Errorf("%d key(s) asked for that the catalogue lacks (add each to internal/i18n/strings/):\n%s",
			len(missing), strings.Join(missing, "\n"))
	}
	var unused []string
	for _, e := range cat.Entries {
		if quoted[e.Key] || slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(e.Key, p) }) {
			continue
		}
		unused = append(unused, fmt.Sprintf("internal/i18n/%s:%d: %s", e.File, e.Line, e.Key))
	}
	if len(unused) > 0 {
		t.Errorf("%d key(s) of the catalogue nothing uses (remove them):\n%s", len(unused), strings.Join(unused, "\n"))
	}
}
