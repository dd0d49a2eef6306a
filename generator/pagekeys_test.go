package generator

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuild_Incremental: after an edit, a build over the output renders
// again only the circulars' pages whose inputs changed, and the output is
// what a fresh build of the edited content gives, byte for byte.
func TestBuild_Incremental(t *testing.T) {
	const generated = 30
	// edit changes one file of the content folder (or the templates).
	type edit func(t *testing.T, content, templates string)
	replace := func(file, old, new string) edit {
		return func(t *testing.T, content, _ string) {
			t.Helper()
			p := filepath.Join(content, filepath.FromSlash(file))
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(src), old) {
				t.Fatalf("%s has no %q", file, old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	const tokenisation = "circulars/rbi-2021-09-07-tokenisation.md"
	// bench-000007 is among the related circulars of 11 others
	supersedes := replace("circulars/bench-000009.md", "documentType:", "supersedes:\n  - bench-000007\ndocumentType:")
	for _, tc := range []struct {
		name   string
		before edit // on the content of the first build
		edit   edit
		// the circulars' pages rendered again: exactly, or (min, max)
		min, max int
	}{
		{"Nothing", nil, func(*testing.T, string, string) {}, 0, 0},
		// past the preview its cards show: only its own page
		{"TextEnd", nil, func(t *testing.T, content, _ string) {
			appendTo(t, filepath.Join(content, "circulars", "bench-000008.md"), "\n\nA new last paragraph.\n")
		}, 1, 1},
		// the preview changes too: the pages with its card
		{"TextStart", nil, replace(tokenisation, "\n---\n", "\n---\n\nA new first paragraph.\n\n"), 1, generated / 2},
		// cards of it on the pages that relate to it name it
		{"TitleEdited", nil, replace("circulars/bench-000003.md", `title: "`, `title: "Renamed: `), 2, generated / 2},
		{"NewsEdited", nil, replace("news/2024-03-28-upi-ids.md", "title: NPCI", "title: Edited, NPCI"), 0, 0},
		{"CircularAdded", nil, func(t *testing.T, content, _ string) {
			t.Helper()
			src, err := os.ReadFile(filepath.Join(content, "circulars", "bench-000004.md"))
			if err != nil {
				t.Fatal(err)
			}
			added := regexp.MustCompile(`(?m)^(circularNumber|sourceUrl): "([^"]*)"`).ReplaceAll(src, []byte(`$1: "${2}-added"`))
			if err := os.WriteFile(filepath.Join(content, "circulars", "bench-added.md"), added, 0o644); err != nil {
				t.Fatal(err)
			}
		}, 1, generated / 2},
		{"CircularRemoved", nil, func(t *testing.T, content, _ string) {
			if err := os.Remove(filepath.Join(content, "circulars", "bench-000005.md")); err != nil {
				t.Fatal(err)
			}
		}, 0, generated / 2},
		// the replaced circular's page says "Superseded by"
		{"SupersedesAdded", nil, supersedes, 2, generated / 2},
		// the replaced circular's page and its cards elsewhere name the one
		// replacing it
		{"SupersedingRetitled", supersedes, replace("circulars/bench-000009.md", `title: "`, `title: "Renamed: `), 2, generated * 2 / 3},
		{"TemplateChanged", nil, func(t *testing.T, _, templates string) {
			t.Helper()
			p := filepath.Join(templates, "circular.html")
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(src, "{{/* edited */}}\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
		}, generated + 3, generated + 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content := withCirculars(t, fixtureContent, generated)
			templates := copyTree(t, templatesDir)
			if tc.before != nil {
				tc.before(t, content, templates)
			}
			opts := Options{ContentDir: content, TemplatesDir: templates, AssetsDir: fixtureAssets,
				OutDir: filepath.Join(t.TempDir(), "public"), BaseURL: "https://regpulse.test/",
				SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow }}
			first, err := Build(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if first.Rendered != first.Pages {
				t.Errorf("a first build rendered %d of %d pages", first.Rendered, first.Pages)
			}
			others := first.Pages - len(first.Catalog.Circulars) // pages always rendered

			tc.edit(t, content, templates)
			res, err := Build(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if n := res.Rendered - others; !res.Unchanged && (n < tc.min || n > tc.max) {
				t.Errorf("rendered %d circulars' pages again, want %d to %d", n, tc.min, tc.max)
			}
			fresh := opts
			fresh.OutDir = filepath.Join(t.TempDir(), "public")
			if _, err := Build(t.Context(), fresh); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(outputListing(t, fresh.OutDir), outputListing(t, opts.OutDir)); diff != "" {
				t.Errorf("output differs from a fresh build (-fresh +incremental):\n%s", diff)
			}
		})
	}
}

// TestCircularPageReads: the templates a circular's page is rendered with
// read, of the templates' data, only the keys of circularPageData (and the
// circulars' views, through circular-view.html, which circularPageKeys
// covers), so that its key covers all it shows.
func TestCircularPageReads(t *testing.T) {
	comment := regexp.MustCompile(`(?s)\{\{-?\s*/\*.*?\*/\s*-?\}\}`)
	call := regexp.MustCompile(`partial(?:Cached)?\s+"([^"]+)"`)
	alias := regexp.MustCompile(`\$(\w+)\s*:?=\s*hugo\.Data\.site\b\s*-?\}\}`)
	read := regexp.MustCompile(`hugo\.Data\.site\.(\w+)`)
	allowed := append(slices.Clone(circularPageData), "circulars", "circularIndex")
	seen := map[string]bool{}
	queue := []string{"circular.html", "baseof.html"}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		file := filepath.Join(templatesDir, name)
		if name != "circular.html" && name != "baseof.html" {
			file = filepath.Join(templatesDir, "_partials", name)
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := comment.ReplaceAllString(string(src), "")
		for _, m := range call.FindAllStringSubmatch(text, -1) {
			queue = append(queue, m[1])
		}
		keys := read.FindAllStringSubmatch(text, -1)
		for _, a := range alias.FindAllStringSubmatch(text, -1) {
			keys = append(keys, regexp.MustCompile(`\$`+a[1]+`\.(\w+)`).FindAllStringSubmatch(text, -1)...)
		}
		for _, k := range keys {
			if !slices.Contains(allowed, k[1]) {
				t.Errorf("templates/%s reads hugo.Data.site.%s, which a circular's page key does not cover (circularPageData)", name, k[1])
			}
			if (k[1] == "circulars" || k[1] == "circularIndex") && name != "circular-view.html" {
				t.Errorf("templates/%s reads hugo.Data.site.%s: a circular's page reads views through circular-view.html only", name, k[1])
			}
		}
	}
	if !seen["sidebar.html"] || !seen["circular-card.html"] {
		t.Errorf("the walk missed partials the page uses: %v", seen)
	}
}
