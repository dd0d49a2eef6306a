package generator

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"regpulse/generator/render"
	"regpulse/internal/catalog"
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
			replaceIn(t, filepath.Join(content, filepath.FromSlash(file)), old, new)
		}
	}
	const tokenisation = "circulars/rbi-2021-09-07-tokenisation.md"
	// bench-000007 is among the related circulars of 11 others
	supersedes := replace("circulars/bench-000009.md", "documentType:", "supersedes:\n  - bench-000007\ndocumentType:")
	site := newIncrementalSite(t, generated)
	for _, tc := range []struct {
		name   string
		before edit // on the content of the first build
		edit   edit
		// the circulars' pages rendered again: exactly, or (min, max)
		min, max int
		// the lists' further pages rendered again (/circulars/page/2,
		// /circulars/rbi…): those showing a card that changed
		minLists, maxLists int
	}{
		{"Nothing", nil, func(*testing.T, string, string) {}, 0, 0, 0, 0},
		// past the preview its cards show: only its own page
		{"TextEnd", nil, func(t *testing.T, content, _ string) {
			appendTo(t, filepath.Join(content, "circulars", "bench-000008.md"), "\n\nA new last paragraph.\n")
		}, 1, 1, 0, 0},
		// the preview changes too: the pages with its card
		{"TextStart", nil, replace(tokenisation, "\n---\n", "\n---\n\nA new first paragraph.\n\n"), 1, generated / 2, 1, 3},
		// cards of it on the pages that relate to it name it
		{"TitleEdited", nil, replace("circulars/bench-000003.md", `title: "`, `title: "Renamed: `), 2, generated / 2, 1, 3},
		{"NewsEdited", nil, replace("news/2024-03-28-upi-ids.md", "title: NPCI", "title: Edited, NPCI"), 0, 0, 0, 1},
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
		}, 1, generated / 2, 1, 99},
		{"CircularRemoved", nil, func(t *testing.T, content, _ string) {
			if err := os.Remove(filepath.Join(content, "circulars", "bench-000005.md")); err != nil {
				t.Fatal(err)
			}
		}, 0, generated / 2, 1, 99},
		// the replaced circular's page says "Superseded by"
		{"SupersedesAdded", nil, supersedes, 2, generated / 2, 1, 6},
		// the replaced circular's page and its cards elsewhere name the one
		// replacing it
		{"SupersedingRetitled", supersedes, replace("circulars/bench-000009.md", `title: "`, `title: "Renamed: `), 2, generated * 2 / 3, 1, 6},
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
		}, generated + 3, generated + 3, 0, 99},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// each case over the same folders, reset: the first build of
			// the unedited content is made once and copied back (its pages'
			// keys hash the folders' paths)
			site.reset(t)
			first := site.first
			if tc.before != nil {
				tc.before(t, site.content, site.templates)
				first = site.build(t, true)
			}
			opts := site.opts
			content, templates := site.content, site.templates
			lists := listPagesOf(first.RenderedPaths)
			tc.edit(t, content, templates)
			res, err := Build(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			circulars, hindiCirculars := 0, 0
			for _, p := range res.RenderedPaths {
				if rest, ok := strings.CutPrefix(p, "circulars/"); ok && strings.Count(rest, "/") == 1 && !slices.Contains(lists, p) {
					circulars++
				}
				if rest, ok := strings.CutPrefix(p, "hi/circulars/"); ok && strings.Count(rest, "/") == 1 && !slices.Contains(lists, p) {
					hindiCirculars++
				}
			}
			if hindiCirculars != circulars {
				t.Errorf("rendered %d circulars' Hindi pages again, %d English ones", hindiCirculars, circulars)
			}
			if !res.Unchanged && (circulars < tc.min || circulars > tc.max) {
				t.Errorf("rendered %d circulars' pages again, want %d to %d", circulars, tc.min, tc.max)
			}
			// the bounds are the English pages'; each has its Hindi copy
			var again, hindi []string
			for _, p := range listPagesOf(res.RenderedPaths) {
				if rest, ok := strings.CutPrefix(p, "hi/"); ok {
					hindi = append(hindi, rest)
				} else {
					again = append(again, p)
				}
			}
			if !res.Unchanged && (len(again) < tc.minLists || len(again) > tc.maxLists) {
				t.Errorf("rendered %d of the %d list pages again (%v), want %d to %d", len(again), len(lists), again, tc.minLists, tc.maxLists)
			}
			if d := cmp.Diff(again, hindi); d != "" {
				t.Errorf("the Hindi list pages rendered again are not the English ones (-en +hi):\n%s", d)
			}
			sameAsFresh(t, opts)
		})
	}
}

// sameAsFresh checks that the output opts built over the last one is
// what a fresh build of the same inputs gives, byte for byte.
func sameAsFresh(t *testing.T, opts Options) {
	t.Helper()
	fresh := opts
	fresh.OutDir = filepath.Join(t.TempDir(), "public")
	if _, err := Build(t.Context(), fresh); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(outputListing(t, fresh.OutDir), outputListing(t, opts.OutDir)); diff != "" {
		t.Errorf("output differs from a fresh build (-fresh +incremental):\n%s", diff)
	}
}

// incrementalSite is TestBuild_Incremental's content, templates and
// output, in folders of fixed paths, with the first build of the
// unedited content kept aside.
type incrementalSite struct {
	content, templates string
	opts               Options
	pristine           string  // the unedited content
	firstOut           string  // the first build's output (its manifest beside)
	first              *Result // the first build's
}

func newIncrementalSite(t *testing.T, generated int) *incrementalSite {
	t.Helper()
	dir := t.TempDir()
	s := &incrementalSite{content: filepath.Join(dir, "content"), templates: filepath.Join(dir, "templates"),
		pristine: withCirculars(t, fixtureContent, generated), firstOut: filepath.Join(dir, "first", "public")}
	s.opts = buildOptions(filepath.Join(dir, "public"), s.content, s.templates, fixtureNow)
	s.reset(t)
	s.first = s.build(t, true)
	copyOutput(t, s.opts.OutDir, s.firstOut)
	return s
}

// reset puts the unedited content and templates and the first build's
// output back in their folders.
func (s *incrementalSite) reset(t *testing.T) {
	t.Helper()
	for _, d := range []struct{ dst, src string }{{s.content, s.pristine}, {s.templates, templatesDir}} {
		if err := os.RemoveAll(d.dst); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(d.dst, os.DirFS(d.src)); err != nil {
			t.Fatal(err)
		}
	}
	if s.first != nil {
		copyOutput(t, s.firstOut, s.opts.OutDir)
	}
}

// build builds the site over its output (fresh: into an empty one).
func (s *incrementalSite) build(t *testing.T, fresh bool) *Result {
	t.Helper()
	if fresh {
		os.RemoveAll(s.opts.OutDir)
		os.Remove(render.ManifestPath(s.opts.OutDir))
	}
	res, err := Build(t.Context(), s.opts)
	if err != nil {
		t.Fatal(err)
	}
	if fresh && res.Rendered != res.Pages {
		t.Errorf("a first build rendered %d of %d pages", res.Rendered, res.Pages)
	}
	return res
}

// copyOutput replaces the output at dst, with its manifest, by src's.
func copyOutput(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	m, err := os.ReadFile(render.ManifestPath(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(render.ManifestPath(dst), m, 0o644); err != nil {
		t.Fatal(err)
	}
}

// listPagesOf are the lists' further pages among rendered: page 2 on of
// any list, and the per-regulator and per-category lists.
func listPagesOf(rendered []string) []string {
	var out []string
	for _, p := range rendered {
		en := strings.TrimPrefix(p, "hi/")
		if strings.Contains(en, "/page/") || strings.HasPrefix(en, "circulars/category/") || slices.Contains(reservedRoutes(), en) {
			out = append(out, p)
		}
	}
	return out
}

// reservedRoutes are the per-regulator lists' files.
func reservedRoutes() []string {
	var out []string
	for s := range reservedCircularSlugs() {
		out = append(out, "circulars/"+s+"/index.html")
	}
	return out
}

// TestPageReads holds the templates of the pages rendered in runs of
// their own (generator/render) to the data keys those runs have and their keys
// hash (circularPageData, listPageData): it walks each page's template,
// the shell and every partial they call.
func TestPageReads(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []string
		allowed []string
	}{
		{"circular", []string{"circular.html"}, circularPageData},
		{"circulars", []string{"circulars.html"}, listPageData["circulars"]},
		{"search", []string{"search.html"}, listPageData["search"]},
		{"news", []string{"news.html"}, listPageData["news"]},
		{"payment-body", []string{"payment-body.html"}, listPageData["payment-body"]},
		// a Master Direction's pages, keyed by their own content (listPageKeys)
		{"direction", []string{"direction.html", "direction-as-of.html", "direction-compare.html"}, circularPageData},
		// the runs of cards render what circulars' and lists' pages insert
		{"cards", []string{"cards.html"}, circularPageData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := templateReads(t, append(tc.entries, "baseof.html"), append(slices.Clone(tc.allowed), "circulars", "circularIndex", "circularCount"))
			if (!seen["sidebar.html"] && tc.name != "cards") || (tc.name != "news" && tc.name != "direction" && !seen["circular-card.html"]) || (tc.name == "direction" && !seen["direction-timeline.html"]) {
				t.Errorf("the walk missed partials the page uses: %v", seen)
			}
		})
	}
}

// templateReads walks the templates from entries (files of templates/,
// then the partials they call) and reports each read of hugo.Data.site
// outside allowed; it returns the templates it walked.
func templateReads(t *testing.T, entries, allowed []string) map[string]bool {
	t.Helper()
	comment := regexp.MustCompile(`(?s)\{\{-?\s*/\*.*?\*/\s*-?\}\}`)
	call := regexp.MustCompile(`partial(?:Cached)?\s+"([^"]+)"`)
	alias := regexp.MustCompile(`\$(\w+)\s*:?=\s*hugo\.Data\.site\b\s*-?\}\}`)
	read := regexp.MustCompile(`hugo\.Data\.site\.(\w+)`)
	seen := map[string]bool{}
	queue := slices.Clone(entries)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		file := filepath.Join(templatesDir, name)
		if !slices.Contains(entries, name) {
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
				t.Errorf("templates/%s reads hugo.Data.site.%s, which its pages' run and key do not have (generator/pagekeys.go: circularPageData, listPageData)", name, k[1])
			}
			if (k[1] == "circulars" || k[1] == "circularIndex") && name != "circular-view.html" {
				t.Errorf("templates/%s reads hugo.Data.site.%s: pages read views through circular-view.html only", name, k[1])
			}
		}
	}
	return seen
}

// TestBuild_Runs: a build in runs of a few pages (every boundary
// crossed: circulars' pages, list pages) gives the same output, byte for
// byte, as one in runs large enough to hold every page; each run holds
// only the views its pages show, so a view missing from one fails the
// build (circular-view.html), never an empty card. The build in runs
// also lets the texts and the catalog go before Hugo
// (Options.ReleaseContent): same bytes.
func TestBuild_Runs(t *testing.T) {
	content := withCirculars(t, fixtureContent, 70)
	build := func(size int, release bool) (string, *Result) {
		opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets,
			OutDir: filepath.Join(t.TempDir(), "public"), BaseURL: "https://regpulse.test/",
			SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow }, RunPages: size,
			ReleaseContent: release}
		res, err := Build(t.Context(), opts)
		if err != nil {
			t.Fatalf("RunPages %d: %v", size, err)
		}
		return opts.OutDir, res
	}
	whole, one := build(1<<20, false)
	// in runs, as `regpulse build` does, the texts let go before Hugo
	small, many := build(7, true)
	if one.Pages != many.Pages || many.Rendered != many.Pages {
		t.Errorf("pages: %d in one run, %d in runs of 7 (%d rendered)", one.Pages, many.Pages, many.Rendered)
	}
	if diff := cmp.Diff(outputListing(t, whole), outputListing(t, small)); diff != "" {
		t.Errorf("runs of 7 pages, texts released, differ from one run (-one +runs):\n%s", diff)
	}
	if many.Catalog != nil {
		t.Errorf("texts released: the Result has a catalog of %d circulars, want none", len(many.Catalog.Circulars))
	}
	for _, c := range one.Catalog.Circulars {
		if c.Content == "" {
			t.Fatalf("%s: no content in the catalog kept; want each circular's text", c.Slug)
		}
	}
}

// replaceIn replaces the first old in the file at path with new; the
// file must have old.
func replaceIn(t testing.TB, path, old, new string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), old) {
		t.Fatalf("%s has no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCardSums: a card's hash changes with every field of its view but
// the related circulars, which cards do not show.
func TestCardSums(t *testing.T) {
	if f := reflect.TypeFor[circularView](); f.Field(f.NumField()-1).Name != "Related" {
		t.Fatalf("circularView's last field is %s: cardSums cuts each view's JSON where Related begins", f.Field(f.NumField()-1).Name)
	}
	base := circularView{Circular: catalog.Circular{Entry: catalog.Entry{Slug: "a"}, Title: "A circular"}, Related: []string{"b", "c"}}
	edits := []struct {
		name string
		edit func(*circularView)
		same bool
	}{
		{"related", func(v *circularView) { v.Related = []string{"d"} }, true},
		{"no related", func(v *circularView) { v.Related = nil }, true},
		{"title", func(v *circularView) { v.Title = "Another title" }, false},
		{"title naming the field", func(v *circularView) { v.Title = `x,"related":["b"]` }, false},
		{"in force", func(v *circularView) { v.InForce = true }, false},
		{"comments open", func(v *circularView) { v.CommentsOpen = true }, false},
		{"withdraws", func(v *circularView) { v.Withdraws = []string{"z"} }, false},
		{"directions", func(v *circularView) { v.Directions = []directionCitation{{}} }, false},
	}
	for _, e := range edits {
		t.Run(e.name, func(t *testing.T) {
			v := base
			e.edit(&v)
			views, err := encodeViews(t.Context(), []circularView{base, v})
			if err != nil {
				t.Fatal(err)
			}
			views.Keys[1] = "other"
			sums, err := cardSums(t.Context(), views)
			if err != nil {
				t.Fatal(err)
			}
			if same := sums["a"] == sums["other"]; same != e.same {
				t.Errorf("same hash: %v, want %v", same, e.same)
			}
		})
	}
	if _, err := cardSums(t.Context(), render.Views{JSON: [][]byte{[]byte(`{"slug":"a"}`)}, Keys: []string{"a"}}); err == nil {
		t.Error("a view without related circulars: no error")
	}
}

// TestBuild_DirectionPagesKept: a Master Direction's pages are keyed by
// their own content (listPageKeys): an edit to a circular no direction
// names renders none of them again, an edit to a direction's provision
// renders its pages again and no other direction's, and each output is a
// fresh build's, byte for byte.
func TestBuild_DirectionPagesKept(t *testing.T) {
	content := filepath.Join(t.TempDir(), "content")
	if err := os.CopyFS(content, os.DirFS("../content")); err != nil {
		t.Fatal(err)
	}
	opts := buildOptions(filepath.Join(t.TempDir(), "public"), content, templatesDir, fixtureNow)
	if _, err := Build(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	// renderedDirections are the directions with a page rendered, by slug:
	// their own pages (the list of them is the site's own page)
	renderedDirections := func(res *Result) []string {
		seen := map[string]bool{}
		for _, p := range res.RenderedPaths {
			rest, ok := strings.CutPrefix(strings.TrimPrefix(p, "hi/"), "master-directions/")
			if slug, _, more := strings.Cut(rest, "/"); ok && more && rest != "index.html" {
				seen[slug] = true
			}
		}
		return slices.Sorted(maps.Keys(seen))
	}
	for _, tc := range []struct {
		name string
		edit func(t *testing.T)
		want []string
	}{
		{"CircularEdited", func(t *testing.T) {
			appendTo(t, filepath.Join(content, "circulars", "npci-2019-10-31-upi-transaction-limits-revision.md"), "\n\nA new last paragraph.\n")
		}, nil},
		{"DirectionEdited", func(t *testing.T) {
			replaceIn(t, filepath.Join(content, "master-directions", "ppi-2021", "index.md"), "RBI issues these directions under", "RBI issues these directions, as edited, under")
		}, []string{"ppi-2021"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.edit(t)
			res, err := Build(t.Context(), opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, renderedDirections(res)); diff != "" {
				t.Errorf("directions rendered again (-want +got):\n%s", diff)
			}
			sameAsFresh(t, opts)
		})
	}
}
