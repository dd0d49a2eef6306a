package generator

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBuild_PrerenderedCards: the circulars' and lists' pages insert the
// cards the runs of cards rendered (a mark added to those cards shows on
// every card of those pages, on none of the site's own run), and the pages
// are byte for byte those of cards rendered in place. (In runs of the
// default size: TestBuild_Runs crosses the runs' boundaries.)
func TestBuild_PrerenderedCards(t *testing.T) {
	content := withCirculars(t, fixtureContent, 70)
	build := func(edit func(templates string)) string {
		templates := copyTree(t, templatesDir)
		edit(templates)
		opts := Options{ContentDir: content, TemplatesDir: templates, AssetsDir: fixtureAssets,
			OutDir: filepath.Join(t.TempDir(), "public"), BaseURL: "https://regpulse.test/",
			SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow }}
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		return opts.OutDir
	}
	replace := func(file, old, new string) func(string) {
		return func(templates string) { replaceIn(t, filepath.Join(templates, file), old, new) }
	}
	const mark = "<i data-prerendered></i>"
	marked := build(replace("cards.html", `{{ partial "circular-card.html" $c }}`, `{{ partial "circular-card.html" $c }}`+mark))
	card := regexp.MustCompile(`<article class="[^"]*" data-circular="[^"]+">(?s:.*?)</article>\s*(` + regexp.QuoteMeta(mark) + `)?`)
	check := func(page string, want bool) {
		t.Helper()
		html, err := os.ReadFile(filepath.Join(marked, page))
		if err != nil {
			t.Fatal(err)
		}
		cards := card.FindAllStringSubmatch(string(html), -1)
		if len(cards) == 0 {
			t.Fatalf("%s: no cards", page)
		}
		for _, c := range cards {
			if (c[1] != "") != want {
				t.Errorf("%s: a card prerendered %v, want %v", page, c[1] != "", want)
				return
			}
		}
	}
	check("circulars/page/2/index.html", true)
	check("search/page/3/index.html", true)
	check("circulars/bench-000001/index.html", true) // its related circulars
	check("circulars/index.html", false)             // the site's own run
	plain := build(func(string) {})
	inPlace := build(replace("_partials/prerendered-card.html", "with .card", "with false"))
	if diff := cmp.Diff(outputListing(t, inPlace), outputListing(t, plain)); diff != "" {
		t.Errorf("prerendered cards differ from cards rendered in place (-in place +prerendered):\n%s", diff)
	}
}
