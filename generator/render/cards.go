package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/afero"
)

// A circular's card (_partials/circular-card.html) is on its list pages,
// on the pages of the circulars it is related to and in search: at 10,000
// circulars some 100,000 cards are drawn, of 10,000 distinct ones. Hugo's
// partialCached keeps 1,000 results, so most of them would be rendered
// again. The build renders each card once, in runs of its own before the
// other groups' runs (cardRuns), into a pack; the later runs'
// views carry them (withCards) and _partials/prerendered-card.html
// inserts a view's card as it is, or renders it when the view has none
// (the site's own run, a plain Hugo build of the temporary site). (A card
// read with readFile instead cost more than rendering it again: Hugo's
// file systems stat every folder above a file it reads.)

// cardsPerPage is how many cards one page of a card run renders: the run
// renders its pages on every core, and each page is held whole until the
// pack takes it.
const cardsPerPage = 200

// cardMark opens each card in a card page (templates/cards.html); it cannot
// occur in a card, whose text html/template escapes. cardItemMark follows a
// card with the circular's item in a paged list (circular-list-item.html),
// rendered with ItemCard where its card goes: the fill of a list page sets
// in the card there (framer.setItems), so the pack holds each card once.
const (
	cardMark     = "<!--card:"
	cardItemMark = "<!--item:"
	// ItemCard stands for the card in an item a card run renders: a
	// card page's front matter "itemCard".
	ItemCard = "regpulse_item_card"
)

// cardRuns are the runs that render the cards of slugs (each once, in the
// catalog's order), at most 2·size cards a run: their pages, of layout
// cards, under regpulse-cards/ (never published).
func cardRuns(slugs []string, index map[string]int, size int) [][]Page {
	// (each slug's place looked up once, not at each of the sort's
	// comparisons: at 100,000 circulars those were a second on one core)
	type placed struct {
		at   int
		slug string
	}
	ps := make([]placed, len(slugs))
	for i, s := range slugs {
		ps[i] = placed{index[s], s}
	}
	slices.SortFunc(ps, func(a, b placed) int { return a.at - b.at })
	sorted := make([]string, len(ps))
	for i, p := range ps {
		sorted[i] = p.slug
	}
	slugs = slices.Clone(slices.Compact(sorted)) // the pages hold parts of it: no room for the duplicates
	var runs [][]Page
	var cur []Page
	n := 0
	i := 0
	for part := range slices.Chunk(slugs, cardsPerPage) {
		if n+len(part) > 2*size && len(cur) > 0 {
			runs = append(runs, cur)
			cur, n = nil, 0
		}
		name := fmt.Sprintf("regpulse-cards/%d", i)
		cur = append(cur, Page{File: name + ".md", Shows: part,
			Front: map[string]any{"title": "Cards", "layout": "cards", "url": "/" + name + "/", "circulars": part, "itemCard": ItemCard}})
		n += len(part)
		i++
	}
	if len(cur) > 0 {
		runs = append(runs, cur)
	}
	return runs
}

// newCardsFs is where a card run publishes: each card of its pages goes
// into cards, under its slug (cardName); nothing is published.
func newCardsFs(cards *Pack, lang string) publishFs {
	return publishFs{Fs: afero.NewMemMapFs(), take: func(name string, data []byte) error {
		name = filepath.ToSlash(name)
		if !strings.HasPrefix(path.Clean("/"+name), "/regpulse-cards/") {
			return fmt.Errorf("a run of cards wrote %s, not a page of cards", name)
		}
		return splitCards(data, cards, lang)
	}}
}

// splitCards adds each card of a page of cards to cards, and the item
// that follows it.
func splitCards(page []byte, cards *Pack, lang string) error {
	mark := []byte(cardMark)
	rest, ok := bytes.CutPrefix(bytes.TrimLeft(page, " \n"), mark)
	if !ok {
		return fmt.Errorf("a page of cards does not start with %s: %.60q", cardMark, page)
	}
	for len(rest) > 0 {
		slug, after, ok := bytes.Cut(rest, []byte("-->"))
		if !ok {
			return fmt.Errorf("a page of cards has %s without its end", cardMark)
		}
		card, next, _ := bytes.Cut(after, mark)
		card, item, hasItem := bytes.Cut(card, []byte(cardItemMark))
		if err := cards.Add(cardName(lang, string(slug)), card); err != nil {
			return err
		}
		if hasItem {
			itemSlug, item, ok := bytes.Cut(item, []byte("-->"))
			if !ok || !bytes.Equal(itemSlug, slug) {
				return fmt.Errorf("a page of cards has the card of %s followed by %.60q, not its item", slug, item)
			}
			if err := cards.Add(itemName(lang, string(slug)), item); err != nil {
				return err
			}
		}
		rest = next
	}
	return nil
}

// cardName is a card's name in the pack: a card is rendered once per
// language, its labels and links the language's.
func cardName(lang, slug string) string {
	if lang == "" {
		return slug + ".html"
	}
	return lang + "/" + slug + ".html"
}

// itemName is a circular's item in a paged list in the pack, in lang.
func itemName(lang, slug string) string { return cardName(lang, slug+".item") }

// withCards gives the views of a run's data d, those of slugs, the cards
// of cards, those it has: the views the run's pages show as cards have one.
func withCards(d map[string]any, slugs []string, cards *Pack, lang string) error {
	views := d[ViewsData].([]json.RawMessage)
	for i, slug := range slugs {
		card, err := cards.Read(cardName(lang, slug))
		if errors.Is(err, fs.ErrNotExist) {
			continue // shown other than as a card (superseded-note.html)
		}
		if err != nil {
			return err
		}
		if views[i], err = withCard(views[i], card); err != nil {
			return err
		}
	}
	return nil
}
