package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/generator/render"
	"regpulse/internal/indian"
)

// TestNumbers_Indian renders the site's own _partials/number.html with the
// site's Hugo settings (hugoSite: locale en-IN) and requires the grouping
// of internal/indian (lakh and crore) for each number. It also pins what
// Hugo's lang.FormatNumber gives with that locale, groups of three: that
// is why the partial exists; when Hugo groups as CLDR's en-IN says, this
// fails and the partial can become lang.FormatNumber again.
func TestNumbers_Indian(t *testing.T) {
	nums := []int64{0, 7, 999, 1000, 99999, 100000, 10000000, 123456789, -1000, -123456789}
	dir := t.TempDir()
	layouts := filepath.Join(dir, "layouts")
	partial, err := os.ReadFile(filepath.Join(templatesDir, "_partials", "number.html"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"_partials/number.html": string(partial),
		"numbers.html":          `{{ range .Params.numbers }}<p>{{ partial "number.html" . }}</p>{{ end }}<p>{{ lang.FormatNumber 0 123456789 }}</p>`,
		"404.html":              `<h1>Not found</h1>`,
	} {
		p := filepath.Join(layouts, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := render.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	outDir := filepath.Join(dir, "public")
	out, err := render.NewOutput(outDir, w.Staging(), "", render.ReadManifest(outDir))
	if err != nil {
		t.Fatal(err)
	}
	site := render.Site{Pages: []render.Page{{File: "_index.md", Front: map[string]any{"title": "Numbers", "layout": "numbers", "numbers": nums}}}}
	r := render.Renderer{Hugo: hugoSite(Options{TemplatesDir: layouts, BaseURL: "https://numbers.test/"}), RunPages: 10, Mem: render.NewHeapLimit()}
	if err := r.Render(t.Context(), w, out, site); err != nil {
		t.Fatal(err)
	}
	if err := out.Commit("inputs", nil); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(outDir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, n := range nums {
		want.WriteString("<p>" + indian.Group(n) + "</p>")
	}
	want.WriteString("<p>123,456,789</p>") // Hugo's own, see above
	if diff := cmp.Diff(want.String(), strings.TrimSpace(string(page))); diff != "" {
		t.Errorf("numbers as the site writes them (-want +got):\n%s", diff)
	}
}
