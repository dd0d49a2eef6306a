package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

// Content written in English on a Hindi page (templates/_partials/
// content-lang.html): the directories' entries, a body's profile, a Master
// Direction's title and provisions. A screen reader reads it in an English
// voice only when an element around it says lang="en"; an interface label
// inside such an element would be read in the wrong voice.

// nearestLang is the lang of n or of its nearest ancestor that has one.
func nearestLang(n *html.Node) string {
	for p := n; p != nil; p = p.Parent {
		if p.Type != html.ElementNode {
			continue
		}
		if v, ok := attr(p, "lang"); ok {
			return v
		}
	}
	return ""
}

func devanagari(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Devanagari, r) {
			return true
		}
	}
	return false
}

// contentLike is a text of at least two words in Latin letters and no
// Devanagari: written in English, not a number, code or host name.
func contentLike(s string) bool {
	if devanagari(s) {
		return false
	}
	words := 0
	for _, f := range strings.Fields(s) {
		if strings.IndexFunc(f, func(r rune) bool { return unicode.In(r, unicode.Latin) }) >= 0 {
			words++
		}
	}
	return words >= 2
}

// textNodes are the texts under n (spaces collapsed), outside scripts.
func textNodes(n *html.Node) []*html.Node {
	var out []*html.Node
	for d := range n.Descendants() {
		if d.Type != html.TextNode || strings.TrimSpace(d.Data) == "" {
			continue
		}
		if p := d.Parent; p != nil && (p.Data == "script" || p.Data == "style" || p.Data == "template") {
			continue
		}
		out = append(out, d)
	}
	return out
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

func mainOf(t *testing.T, doc *html.Node) *html.Node {
	t.Helper()
	m := elements(doc, "main")
	if len(m) != 1 {
		t.Fatalf("%d <main> elements, want 1", len(m))
	}
	return m[0]
}

// checkNoMislabel: no text whose nearest lang is English holds Devanagari
// (an interface label marked as English content).
func checkNoMislabel(t *testing.T, out, rel string) {
	t.Helper()
	doc := parseFile(t, filepath.Join(out, rel))
	for _, d := range textNodes(doc) {
		if l := nearestLang(d); strings.HasPrefix(l, "en") && devanagari(d.Data) {
			t.Errorf("%s: %q is in lang=%q but is Hindi (an interface label inside content marked English?)", rel, collapse(d.Data), l)
		}
	}
}

// pill is a badge or tag (a category, a type, a status): a label decided in
// Go, which the interface translates, never marked as content.
func pill(n *html.Node) bool {
	c, _ := attr(n, "class")
	return n.Data == "span" && strings.Contains(c, "rounded-full")
}

// checkMarked: every text of the Hindi page's <main> that is written in
// English and reads the same on the English page (content, which is not
// translated) is inside an element with lang="en".
func checkMarked(t *testing.T, out, rel string) {
	t.Helper()
	en := map[string]bool{}
	for _, d := range textNodes(mainOf(t, parseFile(t, filepath.Join(out, rel)))) {
		en[collapse(d.Data)] = true
	}
	hiRel := filepath.Join("hi", rel)
	marked := 0
	for _, d := range textNodes(mainOf(t, parseFile(t, filepath.Join(out, hiRel)))) {
		s := collapse(d.Data)
		if !contentLike(s) || !en[s] || pill(d.Parent) {
			continue
		}
		if l := nearestLang(d); !strings.HasPrefix(l, "en") {
			t.Errorf("%s: English content %q has lang %q, want en", hiRel, s, l)
			continue
		}
		marked++
	}
	if marked == 0 {
		t.Errorf("%s: no English content marked lang=en", hiRel)
	}
}

// checkSelected: the elements the test names (by an attribute, then tag
// under it) that hold English text are marked lang="en" on the Hindi page;
// want is how many at least.
func checkSelected(t *testing.T, out, rel, key, val, tag string, want int) {
	t.Helper()
	doc := parseFile(t, filepath.Join(out, "hi", rel))
	got := 0
	for _, e := range findAll(doc, key, val) {
		targets := []*html.Node{e}
		if tag != "" {
			targets = elements(e, tag)
		}
		for _, x := range targets {
			if !contentLike(text(x)) {
				continue
			}
			got++
			if l := nearestLang(x); l != "en" {
				t.Errorf("hi/%s: <%s> %q under [%s=%s] has lang %q, want en", rel, x.Data, text(x), key, val, l)
			}
		}
	}
	if got < want {
		t.Errorf("hi/%s: %d content elements under [%s=%s] %s, want at least %d", rel, got, key, val, tag, want)
	}
}

// directoryPages are the pages whose <main> holds the directories' entries
// and the translated interface only.
var directoryPages = []string{
	"payment-networks/index.html",
	"pii-regulations/index.html",
	"fintech-events/index.html",
	"sibos-events/index.html",
	"learning-videos/index.html",
	"fintech-leaders/index.html",
	"global-fintech/index.html",
}

func TestContentLang(t *testing.T) {
	t.Run("Fixture", func(t *testing.T) {
		out, _ := buildSite(t, fixtureContent, templatesDir)
		for _, rel := range directoryPages {
			checkMarked(t, out, rel)
		}
		nets, err := filepath.Glob(filepath.Join(out, "hi", "payment-networks", "*", "index.html"))
		if err != nil || len(nets) == 0 {
			t.Fatalf("no network pages under hi/payment-networks (%v)", err)
		}
		for _, p := range nets {
			rel, _ := filepath.Rel(filepath.Join(out, "hi"), p)
			checkMarked(t, out, rel)
		}
		// A body's name, profile text and key functions.
		checkSelected(t, out, "payment-body/rbi/index.html", "aria-labelledby", "functions", "li", 1)
		checkSelected(t, out, "payment-body/rbi/index.html", "aria-labelledby", "profile", "p", 1)
		// The sidebar's payment networks (its links by ?filter=).
		doc := parseFile(t, filepath.Join(out, "hi", "pii-regulations", "index.html"))
		n := 0
		for _, a := range findAll(find(t, doc, "data-sidebar", ""), "href", "*") {
			if h, _ := attr(a, "href"); strings.Contains(h, "/payment-networks?filter=") {
				n++
				if l := nearestLang(elements(a, "span")[0]); l != "en" {
					t.Errorf("sidebar: %q has lang %q, want en", text(a), l)
				}
			}
		}
		if n == 0 {
			t.Error("sidebar: no payment network links")
		}
		checkHindiPages(t, out)
	})
	t.Run("Content", func(t *testing.T) {
		out, _ := buildSiteAt(t, "../content", templatesDir, fixtureNow)
		for _, rel := range directoryPages {
			checkMarked(t, out, rel)
		}
		checkSelected(t, out, "master-directions/index.html", "data-direction", "*", "a", 1)
		dirs, err := filepath.Glob(filepath.Join(out, "hi", "master-directions", "*", "index.html"))
		if err != nil || len(dirs) == 0 {
			t.Fatalf("no direction pages under hi/master-directions (%v)", err)
		}
		for _, p := range dirs {
			rel, _ := filepath.Rel(filepath.Join(out, "hi"), p)
			doc := parseFile(t, p)
			// The title.
			if h1 := elements(mainOf(t, doc), "h1"); len(h1) != 1 || nearestLang(h1[0]) != "en" {
				t.Errorf("hi/%s: the direction's title is not lang=en", rel)
			}
			// Each provision's heading and text.
			for _, pr := range findAll(doc, "data-provision", "*") {
				for _, tag := range []string{"h3", "p"} {
					x := elements(pr, tag)[0]
					if nearestLang(x) != "en" {
						t.Errorf("hi/%s: a provision's <%s> %q has no lang=en", rel, tag, text(x))
					}
				}
			}
		}
		// Each changed provision's redline.
		compares, _ := filepath.Glob(filepath.Join(out, "hi", "master-directions", "*", "compare", "*", "*", "index.html"))
		redlines := 0
		for _, p := range compares {
			for _, r := range findAll(parseFile(t, p), "data-redline-text", "*") {
				redlines++
				if nearestLang(r) != "en" {
					t.Errorf("%s: a redline %q has no lang=en", p, text(r))
				}
			}
		}
		if redlines == 0 {
			t.Error("no redlines on the Hindi compare pages")
		}
		checkHindiPages(t, out)
	})
}

// checkHindiPages: on no Hindi page does an element marked lang="en" hold
// Devanagari text.
func checkHindiPages(t *testing.T, out string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(out, "hi"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		checkNoMislabel(t, out, rel)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no Hindi pages")
	}
}
