package render

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A circular's page is some 47 KB, two thirds of it the head and the
// shell around its own part (the main and the islands' scripts), and
// those are the same on every circular's page of a language but for the
// title, the path and the regulator's feeds. At 100,000 circulars in two
// languages, Hugo's templates spent some 0.3 ms a page on them. So the
// runs render a circular's page framed (templates/baseof.html): its own
// part only, after a line naming its frame, path and title; the frame is
// the page's head and shell, rendered once per language and regulator in
// the site's own run (circular-frame.html), with a sentinel where each of
// those goes. Both go through the same templates: the pages are the same,
// byte for byte (the golden build), and the Hugo CLI, which has no framing
// (Hugo.Config), renders them whole.

const (
	// frameSlugPrefix begins a frame's slug: never a page's, as the
	// catalog's slugs are lowercase words joined by '-' (no '_').
	frameSlugPrefix = "regpulse_frame_of_"
	// FrameTitle is a frame's title: where the page's goes.
	FrameTitle   = "regpulse_frame_title"
	frameMain    = "regpulse_frame_main"
	frameScripts = "regpulse_frame_scripts"
	// framedMark begins a framed page: "<!--regpulse:framed FRAME PATH
	// TITLE-->\n", TITLE as the page's <title> has it (escaped, so without
	// "-->"); then the page's main, scriptsMark and its scripts.
	framedMark  = "<!--regpulse:framed "
	scriptsMark = "<!--regpulse:scripts-->"
	// cardsMark stands in a framed page's main for the cards of the
	// circulars it names ("<!--regpulse:cards SLUG SLUG-->"), which the
	// fill inserts from the cards' runs (cards.go) as they are, as
	// prerendered-card.html would: some 12 partial calls a page less.
	cardsMark = "<!--regpulse:cards "
	// itemsMark stands in a list's page for the items of the circulars
	// it names ("<!--regpulse:items SLUG SLUG-->"): each its card wrapped
	// as circular-list-item.html wraps it, which the cards' runs rendered
	// (cards.go). A list page of 30 items is some 90 partial calls less.
	itemsMark = "<!--regpulse:items "
	// textMark stands in a framed page's main for the text of its
	// circular ("<!--regpulse:text texts/NAME-->", the file readFile
	// would read: TextsFolder), which the fill copies from the texts'
	// pack straight into the page: readFile made three copies of each
	// text, at 10,000 circulars a ninth of the build's allocations.
	textMark = "<!--regpulse:text "
)

// FrameSlug is the slug of the frame of the pages of key (a regulator),
// and what those pages name it by (front matter framedBy).
func FrameSlug(key string) string { return frameSlugPrefix + hex.EncodeToString([]byte(key)) }

// FrameIn makes p a page set in the frame of key (a regulator): its
// front matter names the frame, which baseof.html reads, and its run goes
// without the views' cards, which it no longer reads.
func (p *Page) FrameIn(key string) {
	p.Front["framedBy"] = FrameSlug(key)
	p.framed = true
}

// SetItemsIn makes p, a page of a paged list, one whose items the build
// sets in (itemsMark): its front matter says so, which paged-circulars.html
// reads, and its run holds none of the views it shows, which it no longer
// reads (its items are its only views).
func (p *Page) SetItemsIn() {
	p.Front["itemsSetIn"] = true
	p.itemsSetIn = true
}

// reads are the views p reads as it renders: its Shows, but for a page
// whose items are set in (SetItemsIn), which reads none.
func (p Page) reads() []string {
	if p.itemsSetIn {
		return nil
	}
	return p.Shows
}

// FrameParams are a frame page's front matter "frame": the sentinels its
// templates write where a page's main and scripts go.
func FrameParams() map[string]any { return map[string]any{"main": frameMain, "scripts": frameScripts} }

// pageSegment is what a framed page's last path segment must be to stand
// where its frame's slug is: a slug of the catalog, which every URL
// context of the head and the shell writes as it is.
var pageSegment = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// frame is a frame cut at its sentinels: parts[i] comes before slots[i].
type frame struct {
	parts [][]byte
	slots []slot
	size  int // the parts' bytes
}

type slot int

const (
	slotTitle slot = iota
	slotSegment
	slotMain
	slotScripts
)

// parseFrame cuts a frame, the page of slug, at its sentinels: one
// title, main and scripts, the slug wherever the page's path is.
func parseFrame(slug string, page []byte) (*frame, error) {
	sentinels := []struct {
		s    []byte
		slot slot
	}{{[]byte(FrameTitle), slotTitle}, {[]byte(slug), slotSegment}, {[]byte(frameMain), slotMain}, {[]byte(frameScripts), slotScripts}}
	f := &frame{}
	count := map[slot]int{}
	rest := page
	for {
		at, which := -1, -1
		for i, s := range sentinels {
			if j := bytes.Index(rest, s.s); j >= 0 && (at < 0 || j < at) {
				at, which = j, i
			}
		}
		if at < 0 {
			break
		}
		f.parts = append(f.parts, rest[:at])
		f.slots = append(f.slots, sentinels[which].slot)
		f.size += at
		count[sentinels[which].slot]++
		rest = rest[at+len(sentinels[which].s):]
	}
	f.parts = append(f.parts, rest)
	f.size += len(rest)
	if count[slotTitle] != 1 || count[slotMain] != 1 || count[slotScripts] != 1 || count[slotSegment] == 0 {
		return nil, fmt.Errorf("frame %s: %d titles, %d mains, %d scripts and %d paths, want one of each and at least one path",
			slug, count[slotTitle], count[slotMain], count[slotScripts], count[slotSegment])
	}
	return f, nil
}

// fill is the page in f of title (escaped), path segment, main and
// scripts.
func (f *frame) fill(out, title, segment, main, scripts []byte) []byte {
	n := f.size
	for _, s := range f.slots {
		n += len(f.value(s, title, segment, main, scripts))
	}
	out = slices.Grow(out, n)
	for i, s := range f.slots {
		out = append(out, f.parts[i]...)
		out = append(out, f.value(s, title, segment, main, scripts)...)
	}
	return append(out, f.parts[len(f.parts)-1]...)
}

func (f *frame) value(s slot, title, segment, main, scripts []byte) []byte {
	switch s {
	case slotTitle:
		return title
	case slotSegment:
		return segment
	case slotMain:
		return main
	}
	return scripts
}

// framer holds the frames of a build's runs, by language and slug, the
// cards its framed pages name and the texts they show.
type framer struct {
	mu     sync.RWMutex
	frames map[string]*frame
	cards  *Pack
	texts  *Pack
}

func newFramer(cards, texts *Pack) *framer {
	return &framer{frames: map[string]*frame{}, cards: cards, texts: texts}
}

// frameOf says whether name (slash-separated, under the output) is a
// frame's page, and its slug.
func frameOf(name string) (string, bool) {
	slug := path.Base(path.Dir(path.Clean("/" + name)))
	return slug, strings.HasPrefix(slug, frameSlugPrefix) && path.Base(name) == "index.html"
}

// take is where a run in lang publishes into out: a frame is kept, a
// framed page published in its frame, anything else as it is. What it
// makes of a page is made in buffers of pageBuffers, given back once the
// page is written.
func (fr *framer) take(out *Output, lang string) func(name string, data []byte) error {
	return func(name string, data []byte) error {
		if slug, ok := frameOf(name); ok {
			// (the frame keeps parts of the page: its own copy, as data's
			// buffer is reused once this returns)
			f, err := parseFrame(slug, bytes.Clone(data))
			if err != nil {
				return err
			}
			fr.mu.Lock()
			fr.frames[lang+"/"+slug] = f
			fr.mu.Unlock()
			return nil
		}
		how := asRendered
		var err error
		switch {
		case bytes.HasPrefix(data, []byte(framedMark)):
			how = inFrame
			page, main, text := pageBuffer(), pageBuffer(), pageBuffer()
			defer putPageBuffer(page)
			defer putPageBuffer(main)
			defer putPageBuffer(text)
			data, err = fr.fill(page, main, text, lang, data)
		case bytes.Contains(data, []byte(itemsMark)):
			how = withItems
			page := pageBuffer()
			defer putPageBuffer(page)
			data, err = fr.setItems(page, lang, data)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return out.publishRendered(name, data, how)
	}
}

// fill is the framed page data in its frame, made in into; its main is
// made in main with the cards set in, then in text with its text.
func (fr *framer) fill(into, main, text *[]byte, lang string, data []byte) ([]byte, error) {
	line, body, ok := bytes.Cut(data[len(framedMark):], []byte("-->\n"))
	if !ok {
		return nil, fmt.Errorf("a framed page's first line does not end")
	}
	slug, line, _ := bytes.Cut(line, []byte(" "))
	pagePath, title, ok := bytes.Cut(line, []byte(" "))
	if !ok {
		return nil, fmt.Errorf("a framed page's first line names no frame, path and title: %.80q", data)
	}
	segment := []byte(path.Base(string(pagePath)))
	if !pageSegment.Match(segment) {
		return nil, fmt.Errorf("a framed page's path %q does not end in a slug", pagePath)
	}
	body, scripts, ok := bytes.Cut(body, []byte(scriptsMark))
	if !ok {
		return nil, fmt.Errorf("a framed page has no %s", scriptsMark)
	}
	fr.mu.RLock()
	f := fr.frames[lang+"/"+string(slug)]
	fr.mu.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("no frame %s in language %q (the site's own run renders one for each regulator's pages)", slug, lang)
	}
	// (the text last: a circular's own words are never taken for a mark)
	body, err := fr.setCards(main, lang, body)
	if err != nil {
		return nil, err
	}
	if body, err = fr.setText(text, body); err != nil {
		return nil, err
	}
	*into = f.fill(*into, title, segment, body, scripts)
	return *into, nil
}

// setCards is main with each cardsMark replaced by the cards it names,
// in lang, made in into: each rendered by the cards' runs before this
// run, which render every card a page shows.
func (fr *framer) setCards(into *[]byte, lang string, main []byte) ([]byte, error) {
	return fillMarks(into, main, cardsMark, "a framed page", func(out []byte, slug string) ([]byte, error) {
		out, err := fr.cards.AppendTo(out, cardName(lang, slug))
		if err != nil {
			return nil, fmt.Errorf("the card of %s, which the page shows: %w", slug, err)
		}
		return out, nil
	})
}

// setText is main with its textMark replaced by the text it names, made
// in into: each circular's, rendered into the texts' pack before the runs
// (the same in every language).
func (fr *framer) setText(into *[]byte, main []byte) ([]byte, error) {
	return fillMarks(into, main, textMark, "a framed page", func(out []byte, file string) ([]byte, error) {
		name, ok := strings.CutPrefix(file, TextsFolder+"/")
		if !ok {
			return nil, fmt.Errorf("the text %s is not in %s/", file, TextsFolder)
		}
		out, err := fr.texts.AppendTo(out, name)
		if err != nil {
			return nil, fmt.Errorf("the text %s, which the page shows: %w", file, err)
		}
		return out, nil
	})
}

// setItems is page with each itemsMark replaced by the items of the
// circulars it names, in lang, made in into: each its card set in its
// wrapping, both rendered by the cards' runs before this run (cards.go),
// which render the card and the item of every circular a page shows.
func (fr *framer) setItems(into *[]byte, lang string, page []byte) ([]byte, error) {
	item := pageBuffer() // (each item in turn)
	defer putPageBuffer(item)
	return fillMarks(into, page, itemsMark, "a list page", func(out []byte, slug string) ([]byte, error) {
		var err error
		if *item, err = fr.cards.AppendTo((*item)[:0], itemName(lang, slug)); err != nil {
			return nil, fmt.Errorf("the list item of %s, which the page shows: %w", slug, err)
		}
		// (the sentinel is the item's last text: a circular's own words
		// in its fields, before it, are never mistaken for it)
		at := bytes.LastIndex(*item, []byte(ItemCard))
		if at < 0 {
			return nil, fmt.Errorf("the list item of %s has no %s where its card goes", slug, ItemCard)
		}
		out = append(out, (*item)[:at]...)
		if out, err = fr.cards.AppendTo(out, cardName(lang, slug)); err != nil {
			return nil, fmt.Errorf("the card of %s, which the page shows: %w", slug, err)
		}
		return append(out, (*item)[at+len(ItemCard):]...), nil
	})
}

// fillMarks is page with each mark ("MARK SLUG SLUG-->") replaced by what
// add appends for each slug it names, in order, made in into (page itself
// when it has none); what says what the page is, for the error of a mark
// without its end.
func fillMarks(into *[]byte, page []byte, mark, what string, add func(out []byte, slug string) ([]byte, error)) ([]byte, error) {
	if !bytes.Contains(page, []byte(mark)) {
		return page, nil
	}
	out := (*into)[:0]
	defer func() { *into = out[:0] }() // (grown, for the next page)
	rest := page
	for {
		before, after, ok := bytes.Cut(rest, []byte(mark))
		out = append(out, before...)
		if !ok {
			return out, nil
		}
		names, next, ok := bytes.Cut(after, []byte("-->"))
		if !ok {
			return nil, fmt.Errorf("%s has %s without its end", what, mark)
		}
		slugs := strings.Fields(string(names))
		out = slices.Grow(out, len(slugs)*4096+len(next)) // (a card is some 3 KB)
		for _, slug := range slugs {
			var err error
			if out, err = add(out, slug); err != nil {
				return nil, err
			}
		}
		rest = next
	}
}
