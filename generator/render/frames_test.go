package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testFrame is a frame as the site's run renders one: slug wherever the
// page's path goes, the sentinels where its title, main and scripts go.
func testFrame(slug string) string {
	return `<!doctype html><title>` + FrameTitle + ` · Site</title>` +
		`<link rel="canonical" href="https://x.test/hi/circulars/` + slug + `">` +
		`<a href="/circulars/` + slug + `">English</a><main>` + frameMain + `</main>` +
		`<footer></footer>` + frameScripts + "\n</body>\n"
}

func TestParseFrame(t *testing.T) {
	slug := FrameSlug("RBI")
	tests := []struct {
		name, page, err string
	}{
		{"whole", testFrame(slug), ""},
		{"no main", strings.Replace(testFrame(slug), frameMain, "", 1), "0 mains"},
		{"two titles", testFrame(slug) + FrameTitle, "2 titles"},
		{"no path", strings.ReplaceAll(testFrame(slug), slug, "x"), "0 paths"},
		{"no scripts", strings.Replace(testFrame(slug), frameScripts, "", 1), "0 scripts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := parseFrame(slug, []byte(tt.page))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// empty values give the frame back without its sentinels
			want := strings.NewReplacer(FrameTitle, "", slug, "", frameMain, "", frameScripts, "").Replace(tt.page)
			if got := string(f.fill(nil, nil, nil, nil, nil)); got != want {
				t.Errorf("fill = %q, want %q", got, want)
			}
		})
	}
}

func TestFrameSlug(t *testing.T) {
	for _, key := range []string{"", "RBI", "a b/c"} {
		slug := FrameSlug(key)
		if pageSegment.MatchString(slug) {
			t.Errorf("FrameSlug(%q) = %q, which a page's slug could be", key, slug)
		}
		// a frame's slug is no part of another sentinel, which parseFrame
		// would take for it
		for _, s := range []string{FrameTitle, frameMain, frameScripts} {
			if strings.Contains(s, slug) {
				t.Errorf("FrameSlug(%q) = %q is part of the sentinel %q", key, slug, s)
			}
		}
		if name := "hi/circulars/" + slug + "/index.html"; !isFrame(name, slug) {
			t.Errorf("frameOf(%q) does not name %q", name, slug)
		}
	}
	if _, ok := frameOf("circulars/rbi-2024-1/index.html"); ok {
		t.Error("frameOf takes a circular's page for a frame")
	}
}

func isFrame(name, slug string) bool {
	got, ok := frameOf(name)
	return ok && got == slug
}

// TestFramerTake: a frame is kept, not published; a framed page is
// published in its language's frame, with the cards it names in its
// language, as the page whole; anything else as it is; a framed page
// without its frame or a card, or not as the templates write one, fails
// and names the page.
func TestFramerTake(t *testing.T) {
	dir, out, cards, texts := framerTest(t)
	for _, c := range []struct{ lang, slug, html string }{{"hi", "a-1", "<div>A</div>"}, {"hi", "b-2", "<div>B</div>"}, {"", "a-1", "<div>A en</div>"}} {
		if err := cards.Add(cardName(c.lang, c.slug), []byte(c.html)); err != nil {
			t.Fatal(err)
		}
	}
	// (a text's words that look like a mark of the build stay its words)
	text := "<p>The text, " + cardsMark + "a-1--> as written.</p>"
	if err := texts.Add("rbi-2024-7.html", []byte(text)); err != nil {
		t.Fatal(err)
	}
	fr := newFramer(cards, texts)
	slug := FrameSlug("RBI")
	take := fr.take(out, "hi")
	if err := take("hi/circulars/"+slug+"/index.html", []byte(testFrame(slug))); err != nil {
		t.Fatal(err)
	}
	if out.Has("hi/circulars/" + slug + "/index.html") {
		t.Error("a frame was published")
	}
	framed := framedMark + slug + " /hi/circulars/rbi-2024-7/ A &amp; B &#43; C-->\n<article>Main" + textMark + TextsFolder + "/rbi-2024-7.html-->" +
		"<div>" + cardsMark + "a-1 b-2--></div></article>" + scriptsMark + `<script src="/a.js"></script>`
	if err := take("hi/circulars/rbi-2024-7/index.html", []byte(framed)); err != nil {
		t.Fatal(err)
	}
	want := `<!doctype html><title>A &amp; B &#43; C · Site</title>` +
		`<link rel="canonical" href="https://x.test/hi/circulars/rbi-2024-7">` +
		`<a href="/circulars/rbi-2024-7">English</a><main><article>Main` + text + `<div><div>A</div><div>B</div></div></article></main>` +
		`<footer></footer><script src="/a.js"></script>` + "\n</body>\n"
	got, err := os.ReadFile(filepath.Join(dir, "staging", "hi/circulars/rbi-2024-7/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("the framed page (-want +got):\n%s", diff)
	}
	// as Hugo publishes: each file in a buffer its Close gives back to
	// be reused, so the frame keeps bytes of its own
	pub := newPublishFs(out, take)
	for _, f := range []struct{ name, data string }{
		{"hi/circulars/" + slug + "/index.html", testFrame(slug)},
		{"hi/circulars/rbi-2024-8/index.html", strings.Replace(framed, "rbi-2024-7", "rbi-2024-8", 1)},
	} {
		file, err := pub.Create(f.name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := file.WriteString(f.data); err != nil {
			t.Fatal(err)
		}
		if err := file.Close(); err != nil {
			t.Fatal(err)
		}
	}
	got, err = os.ReadFile(filepath.Join(dir, "staging", "hi/circulars/rbi-2024-8/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.ReplaceAll(want, "rbi-2024-7", "rbi-2024-8"), string(got)); diff != "" {
		t.Errorf("the framed page published through the files (-want +got):\n%s", diff)
	}
	if err := take("hi/about/index.html", []byte("<p>whole</p>")); err != nil || !out.Has("hi/about/index.html") {
		t.Errorf("a page not framed: err %v, published %v", err, out.Has("hi/about/index.html"))
	}
	if n := out.Framed(); n != 2 {
		t.Errorf("Framed() = %d, want 2", n)
	}

	bad := []struct{ name, page, lang, err string }{
		{"other language", framed, "", "no frame"},
		{"unknown frame", strings.Replace(framed, slug, FrameSlug("NPCI"), 1), "hi", "no frame"},
		{"path not a slug", strings.Replace(framed, "rbi-2024-7/", "RBI_7/", 1), "hi", "does not end in a slug"},
		{"no scripts mark", strings.Replace(framed, scriptsMark, "", 1), "hi", "no " + scriptsMark},
		{"line unended", framedMark + slug + " /circulars/a/ T", "hi", "does not end"},
		{"no title", framedMark + slug + "-->\nx" + scriptsMark, "hi", "names no frame, path and title"},
		{"card not rendered", strings.Replace(framed, "b-2", "c-3", 1), "hi", "the card of c-3"},
		{"cards mark unended", strings.Replace(framed, "b-2--></div>", "b-2</div>", 1), "hi", cardsMark + " without its end"},
		{"text not rendered", strings.Replace(framed, "rbi-2024-7.html", "rbi-2024-9.html", 1), "hi", "the text " + TextsFolder + "/rbi-2024-9.html"},
		{"text elsewhere", strings.Replace(framed, TextsFolder+"/rbi-2024-7.html", "rbi-2024-7.html", 1), "hi", "not in " + TextsFolder + "/"},
		{"text mark unended", strings.Replace(framed, "rbi-2024-7.html-->", "rbi-2024-7.html", 1), "hi", textMark + " without its end"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := fr.take(out, tt.lang)("hi/circulars/x/index.html", []byte(tt.page))
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "hi/circulars/x/index.html") {
				t.Errorf("err = %v, want %q naming the page", err, tt.err)
			}
		})
	}
}

// TestFramerSetItems: a list page's items mark is replaced by each
// circular's item in the page's language with its card set in, the page
// is counted, and a missing item or card, or a mark without its end,
// fails naming the page.
func TestFramerSetItems(t *testing.T) {
	dir, out, cards, _ := framerTest(t)
	// a's fields hold the sentinel's words: only the last is the card's place
	for name, data := range map[string]string{
		cardName("hi", "a-1"): "<article>A</article>", itemName("hi", "a-1"): "\n  " + `<div data-fields="` + ItemCard + `">` + ItemCard + `</div>`,
		cardName("hi", "b-2"): "<article>B</article>", itemName("hi", "b-2"): "\n  " + `<div data-fields="b">` + ItemCard + `</div>`,
		cardName("", "a-1"): "<article>A en</article>", itemName("", "a-1"): `<div data-fields="en">` + ItemCard + `</div>`,
		cardName("hi", "c-3"): "<article>C</article>",
		itemName("hi", "d-4"): `<div data-fields="d">` + ItemCard + `</div>`,
		itemName("hi", "e-5"): `<div data-fields="e"></div>`, cardName("hi", "e-5"): "<article>E</article>",
	} {
		if err := cards.Add(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	fr := newFramer(cards, nil)
	page := "<main><div data-list>" + itemsMark + "a-1 b-2-->\n</div></main>"
	if err := fr.take(out, "hi")("hi/circulars/page/2/index.html", []byte(page)); err != nil {
		t.Fatal(err)
	}
	want := "<main><div data-list>" + "\n  " + `<div data-fields="` + ItemCard + `"><article>A</article></div>` + "\n  " + `<div data-fields="b"><article>B</article></div>` + "\n</div></main>"
	got, err := os.ReadFile(filepath.Join(dir, "staging", "hi/circulars/page/2/index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("the list page (-want +got):\n%s", diff)
	}
	if n, f := out.WithItems(), out.Framed(); n != 1 || f != 0 {
		t.Errorf("WithItems() = %d, Framed() = %d; want 1 and 0", n, f)
	}
	bad := []struct{ name, lang, page, err string }{
		{"other language's item", "", strings.Replace(page, "a-1", "b-2", 1), "the list item of b-2"},
		{"no item", "hi", strings.Replace(page, "a-1", "c-3", 1), "the list item of c-3"},
		{"no card", "hi", strings.Replace(page, "a-1", "d-4", 1), "the card of d-4"},
		{"no place for the card", "hi", strings.Replace(page, "a-1", "e-5", 1), "no " + ItemCard},
		{"mark unended", "hi", strings.Replace(page, "b-2-->", "b-2", 1), itemsMark + " without its end"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			err := fr.take(out, tt.lang)("hi/circulars/page/3/index.html", []byte(tt.page))
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "hi/circulars/page/3/index.html") {
				t.Errorf("err = %v, want %q naming the page", err, tt.err)
			}
		})
	}
}

// framerTest is a temporary folder, an output staged in it and empty
// packs of cards and texts, closed when t ends.
func framerTest(t *testing.T) (string, *Output, *Pack, *Pack) {
	t.Helper()
	dir := t.TempDir()
	out, err := NewOutput(filepath.Join(dir, "public"), filepath.Join(dir, "staging"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	cards, err := CreatePack(filepath.Join(dir, "cards.pack"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cards.Close() })
	texts, err := CreatePack(filepath.Join(dir, "texts.pack"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { texts.Close() })
	return dir, out, cards, texts
}
