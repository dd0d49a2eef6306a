package render

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testSite is a small site of the render tests' templates (testdata):
// a home page of the site's own group showing two views, and n pages of
// group 1, page i showing views i and i+1 (the last one goes with the
// first: its card names it); each page's text from the workspace's.
func testSite(t *testing.T, w *Workspace, n int) Site {
	t.Helper()
	views := make([]testView, n+1)
	for i := range views {
		views[i] = testView{Slug: fmt.Sprintf("v%d", i), Title: fmt.Sprintf("View %d", i)}
	}
	views[n].With = []string{"v0"}
	enc, err := EncodeViews(t.Context(), views, testViewKey)
	if err != nil {
		t.Fatal(err)
	}
	pages := []Page{{File: "_index.md", Front: map[string]any{"title": "Home", "layout": "item", "shows": []string{"v0", "v1"}}, Shows: []string{"v0", "v1"}}}
	for i := range n {
		shows := []string{views[i].Slug, views[i+1].Slug}
		text := fmt.Sprintf("t%d.html", i)
		if err := w.Texts.Add(text, []byte(fmt.Sprintf("<p>Text %d</p>", i))); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, Page{File: fmt.Sprintf("items/%d.md", i), Group: 1, Shows: shows,
			Front: map[string]any{"title": fmt.Sprintf("Item %d", i), "layout": "item", "shows": shows, "text": TextsFolder + "/" + text}})
	}
	return Site{Pages: pages, Views: enc, Data: map[string]any{"label": "the test site", "unread": "x"},
		GroupData: map[Group][]string{1: {"label"}}, CardData: []string{"label"}}
}

// newTestRender is a Renderer of the render tests' templates in runs of
// size pages, a new workspace (closed when the test ends) and an output
// in a new folder (outDir).
func newTestRender(t *testing.T, size int) (r Renderer, w *Workspace, out *Output, outDir string) {
	t.Helper()
	templates, err := filepath.Abs("testdata/templates")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if w, err = NewWorkspace(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	outDir = filepath.Join(dir, "public")
	if out, err = NewOutput(outDir, w.Staging(), "", ReadManifest(outDir)); err != nil {
		t.Fatal(err)
	}
	r = Renderer{Hugo: Hugo{TemplatesDir: templates, BaseURL: "https://render.test/", Title: "Test", Locale: "en"},
		RunPages: size, Mem: NewHeapLimit()}
	return r, w, out, outDir
}

// renderTestSite renders testSite(n), changed by each of edit, in runs
// of size pages into a new output folder and returns it with the Output.
func renderTestSite(t *testing.T, n, size int, edit ...func(*Site)) (string, *Output) {
	t.Helper()
	r, w, out, outDir := newTestRender(t, size)
	site := testSite(t, w, n)
	for _, e := range edit {
		e(&site)
	}
	if err := r.Render(t.Context(), w, out, site); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit("inputs", nil); err != nil {
		t.Fatal(err)
	}
	return outDir, out
}

// TestRender: every page shows its views, whatever the runs' size, with
// the cards the cards' runs rendered on the group's pages (each run
// holding only the views its pages show and those they go with), the
// texts from the workspace's pack, and the whole site's count of views.
func TestRender(t *testing.T) {
	const n = 9
	read := func(t *testing.T, out, name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		var lines []string // the templates' line breaks aside
		for l := range strings.Lines(string(b)) {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	whole, _ := renderTestSite(t, n, 1000)
	want := "<h1>Item 8</h1>\n<p>View 8 [pre] of 10 in the test site</p>\n<p>View 9 (replaced by View 0) [pre] of 10 in the test site</p>\n<p>Text 8</p>"
	if got := read(t, whole, "items/8/index.html"); got != want {
		t.Errorf("items/8 (-want +got):\n%s", cmp.Diff(want, got))
	}
	want = "<h1>Home</h1>\n<p>View 0 of 10 in the test site</p>\n<p>View 1 of 10 in the test site</p>"
	if got := read(t, whole, "index.html"); got != want {
		t.Errorf("the site's own page, its cards drawn in its run (-want +got):\n%s", cmp.Diff(want, got))
	}
	for _, size := range []int{1, 2, 4} {
		t.Run(fmt.Sprintf("RunPages%d", size), func(t *testing.T) {
			out, o := renderTestSite(t, n, size)
			for i := range n {
				name := fmt.Sprintf("items/%d/index.html", i)
				if got, want := read(t, out, name), read(t, whole, name); got != want {
					t.Errorf("%s in runs of %d (-one run +runs):\n%s", name, size, cmp.Diff(want, got))
				}
			}
			if got := len(o.Rendered()); got != n+2 { // the items, the home page and 404.html
				t.Errorf("%d pages rendered, want %d: %v", got, n+2, o.Rendered())
			}
		})
	}
}

// TestRender_FailedRun: a run that fails stops the render with its
// error, the next run (opened while it rendered) let go unbuilt, so
// nothing after it is published.
func TestRender_FailedRun(t *testing.T) {
	r, w, out, _ := newTestRender(t, 1)
	defer out.Close()
	site := testSite(t, w, 6)
	site.Pages[4].Front["layout"] = "nosuch" // items/3: Hugo warns of no layout, which fails its run
	err := r.Render(t.Context(), w, out, site)
	if err == nil || !strings.Contains(err.Error(), "warning") {
		t.Fatalf("Render = %v, want the failed run's warning", err)
	}
	for _, name := range out.Rendered() {
		if name == "items/4/index.html" || name == "items/5/index.html" {
			t.Errorf("%s published after the run before it failed", name)
		}
	}
	if !slices.Contains(out.Rendered(), "items/2/index.html") {
		t.Errorf("items/2, run before the failure, not published: %v", out.Rendered())
	}
}

// TestPlan: the site's own run first, with every key, then the cards'
// runs, then each group's in the groups' order, each with its keys; every
// page in one run.
func TestPlan(t *testing.T) {
	w, err := NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	site := testSite(t, w, 5)
	site.Pages = append(site.Pages, Page{File: "later.md", Group: 2, Shows: []string{"v5"}})
	site.GroupData[2] = []string{"unread"}
	type runOf struct {
		Files []string
		Data  []string
		Cards bool
	}
	var got []runOf
	for _, r := range (Renderer{RunPages: 2}).plan(site) {
		var files []string
		for _, p := range r.Pages {
			files = append(files, p.File)
		}
		got = append(got, runOf{files, r.Data, r.Cards})
	}
	want := []runOf{
		{Files: []string{"_index.md"}},
		{Files: []string{"regpulse-cards/0.md"}, Data: []string{"label"}, Cards: true},
		{Files: []string{"items/0.md", "items/1.md"}, Data: []string{"label"}},
		{Files: []string{"items/2.md", "items/3.md"}, Data: []string{"label"}},
		{Files: []string{"items/4.md"}, Data: []string{"label"}},
		{Files: []string{"later.md"}, Data: []string{"unread"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("runs (-want +got):\n%s", diff)
	}
}
