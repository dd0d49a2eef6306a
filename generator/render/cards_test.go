package render

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
			if len(p.Shows) > cardsPerPage || p.Front["layout"] != "cards" || files[p.File] {
				t.Errorf("%s: %d cards, layout %v (want at most %d, cards, and a file of its own)", p.File, len(p.Shows), p.Front["layout"], cardsPerPage)
			}
			files[p.File] = true
			if !slices.Equal(p.Front["circulars"].([]string), p.Shows) {
				t.Errorf("%s: renders %v, shows %v", p.File, p.Front["circulars"], p.Shows)
			}
			n += len(p.Shows)
			got = append(got, p.Shows...)
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
	p, err := CreatePack(filepath.Join(t.TempDir(), "cards.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	page := "\n<!--card:a--><article>A</article>\n<!--card:b--><article>B -- &lt;!--card:x</article>"
	if err := splitCards([]byte(page), p, ""); err != nil {
		t.Fatal(err)
	}
	for slug, want := range map[string]string{"a": "<article>A</article>\n", "b": "<article>B -- &lt;!--card:x</article>"} {
		if got, err := p.Read(cardName("", slug)); err != nil || string(got) != want {
			t.Errorf("card %s = %q, %v; want %q", slug, got, err, want)
		}
	}
	t.Run("Items", func(t *testing.T) {
		page := "<!--card:a--><article>A</article><!--item:a--><div data-fields=\"{}\">" + ItemCard + "</div><!--card:b--><article>B</article>"
		if err := splitCards([]byte(page), p, "hi"); err != nil {
			t.Fatal(err)
		}
		for name, want := range map[string]string{cardName("hi", "a"): "<article>A</article>", itemName("hi", "a"): `<div data-fields="{}">` + ItemCard + "</div>",
			cardName("hi", "b"): "<article>B</article>"} {
			if got, err := p.Read(name); err != nil || string(got) != want {
				t.Errorf("%s = %q, %v; want %q", name, got, err, want)
			}
		}
		if p.Has(itemName("hi", "b")) {
			t.Error("an item was packed for a card without one")
		}
		for _, bad := range []string{"<!--card:a-->A<!--item:b-->B", "<!--card:a-->A<!--item:a"} {
			if err := splitCards([]byte(bad), p, "hi"); err == nil || !strings.Contains(err.Error(), "not its item") {
				t.Errorf("%q: err %v, want one saying the card is not followed by its item", bad, err)
			}
		}
	})
	t.Run("ErrNoMark", func(t *testing.T) {
		if err := splitCards([]byte("<html><!--card:a-->x"), p, ""); err == nil {
			t.Error("a page that is not one of cards was split")
		}
	})
	t.Run("ErrMarkNotEnded", func(t *testing.T) {
		if err := splitCards([]byte("<!--card:a"), p, ""); err == nil {
			t.Error("a mark without its end was taken")
		}
	})
}
