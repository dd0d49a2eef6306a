package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCardRuns(t *testing.T) {
	index := map[string]int{}
	var slugs []string
	for i := range 1000 {
		s := fmt.Sprintf("c-%04d", i)
		index[s] = i
		slugs = append(slugs, s, s) // shown by two pages
	}
	slices.Reverse(slugs)
	runs := cardRuns(slugs, index, 300) // at most 600 cards a run
	var got []string
	files := map[string]bool{}
	for _, run := range runs {
		n := 0
		for _, p := range run {
			if len(p.shows) > cardsPerPage || p.front["layout"] != "cards" || files[p.file] {
				t.Errorf("%s: %d cards, layout %v (want at most %d, cards, and a file of its own)", p.file, len(p.shows), p.front["layout"], cardsPerPage)
			}
			files[p.file] = true
			if !slices.Equal(p.front["circulars"].([]string), p.shows) {
				t.Errorf("%s: renders %v, shows %v", p.file, p.front["circulars"], p.shows)
			}
			n += len(p.shows)
			got = append(got, p.shows...)
		}
		if n > 600 {
			t.Errorf("a run of %d cards, want at most 600", n)
		}
	}
	want := slices.Sorted(slices.Values(slices.Compact(slices.Sorted(slices.Values(slugs)))))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("each card once, in the catalog's order (-want +got):\n%s", diff)
	}
}

func TestSplitCards(t *testing.T) {
	p, err := createPack(filepath.Join(t.TempDir(), "cards.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	page := "\n<!--card:a--><article>A</article>\n<!--card:b--><article>B -- &lt;!--card:x</article>"
	if err := splitCards([]byte(page), p); err != nil {
		t.Fatal(err)
	}
	for slug, want := range map[string]string{"a": "<article>A</article>\n", "b": "<article>B -- &lt;!--card:x</article>"} {
		if got, err := p.read(cardName(slug)); err != nil || string(got) != want {
			t.Errorf("card %s = %q, %v; want %q", slug, got, err, want)
		}
	}
	t.Run("ErrNoMark", func(t *testing.T) {
		if err := splitCards([]byte("<html><!--card:a-->x"), p); err == nil {
			t.Error("a page that is not one of cards was split")
		}
	})
	t.Run("ErrMarkNotEnded", func(t *testing.T) {
		if err := splitCards([]byte("<!--card:a"), p); err == nil {
			t.Error("a mark without its end was taken")
		}
	})
}

// TestBuild_PrerenderedCards: the circulars' and lists' pages insert the
// cards the runs of cards rendered (a mark added to those cards shows on
// every card of those pages, on none of the site's own run), and the pages
// are byte for byte those of cards rendered in place.
func TestBuild_PrerenderedCards(t *testing.T) {
	content := withCirculars(t, fixtureContent, 70)
	build := func(edit func(templates string)) string {
		templates := copyTree(t, templatesDir)
		edit(templates)
		opts := Options{ContentDir: content, TemplatesDir: templates, AssetsDir: fixtureAssets,
			OutDir: filepath.Join(t.TempDir(), "public"), BaseURL: "https://regpulse.test/",
			SupportEmail: "support@regpulse.test", Now: func() time.Time { return fixtureNow }, ChunkPages: 7}
		if _, err := Build(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		return opts.OutDir
	}
	replace := func(file, old, new string) func(string) {
		return func(templates string) { replaceIn(t, filepath.Join(templates, file), old, new) }
	}
	const mark = "<i data-prerendered></i>"
	marked := build(replace("cards.html", `(partial "circular-view.html" .) }}`, `(partial "circular-view.html" .) }}`+mark))
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
