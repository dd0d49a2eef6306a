package generator

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// notPages are the prefixes of links to what is not a page of a
// language: the API, assets, feeds, media, the editors' UI and the files
// beside the pages. A Hindi page links them as an English one does.
var notPages = []string{"/api/", "/assets/", "/feeds/", "/media/", "/admin", "/search-index.json", "/impact-tracker/entries.json",
	"/sitemap", "/robots.txt"}

// TestLanguages_EveryPage walks the fixture's build: every English page
// has its Hindi page under /hi/ and no other; a Hindi page is lang="hi",
// names both pages as alternates, and links the English page from its
// switcher; every link to a page from a Hindi page stays in Hindi, and
// from an English page in English (the switcher and the alternates
// apart).
func TestLanguages_EveryPage(t *testing.T) {
	out, _ := buildSite(t, fixtureContent, templatesDir)
	var english, hindi []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "admin/") {
			return nil
		}
		if rest, ok := strings.CutPrefix(rel, "hi/"); ok {
			hindi = append(hindi, rest)
		} else {
			english = append(english, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(english, "\n") != strings.Join(hindi, "\n") {
		t.Fatalf("the Hindi pages are not the English ones: %d English, %d Hindi", len(english), len(hindi))
	}
	for _, rel := range english {
		for _, lang := range []string{"en", "hi"} {
			file := rel
			if lang == "hi" {
				file = "hi/" + rel
			}
			page := parseFile(t, filepath.Join(out, file))
			if got, _ := attr(elements(page, "html")[0], "lang"); got != lang {
				t.Errorf("%s: <html lang=%q>, want %q", file, got, lang)
			}
			path := "/" + strings.TrimSuffix(strings.TrimSuffix(rel, "index.html"), "/")
			if strings.HasSuffix(rel, ".html") && !strings.HasSuffix(rel, "index.html") {
				path = "/" + rel
			}
			checkLanguageLinks(t, file, page, lang, path)
		}
	}
}

// checkLanguageLinks checks one page's links: each to a page in the
// page's language, but the switcher's and the alternates (the English
// path in each language).
func checkLanguageLinks(t *testing.T, file string, page *html.Node, lang, path string) {
	t.Helper()
	hiPath := "/hi" + path
	if path == "/" {
		hiPath = "/hi/"
	}
	alternates := map[string]string{}
	for _, l := range elements(page, "link") {
		if rel, _ := attr(l, "rel"); rel == "alternate" {
			if hl, ok := attr(l, "hreflang"); ok {
				href, _ := attr(l, "href")
				alternates[hl] = href
			}
		}
	}
	trim := func(s string) string {
		if i := strings.Index(s, "://"); i >= 0 {
			s = s[strings.Index(s[i+3:], "/")+i+3:]
		}
		if s != "/" && s != "/hi/" {
			s = strings.TrimSuffix(s, "/")
		}
		return s
	}
	if !strings.HasSuffix(path, "404.html") {
		if got := trim(alternates["en-IN"]); got != trim(path) {
			t.Errorf("%s: hreflang en-IN %q, want %q", file, alternates["en-IN"], path)
		}
		if got := trim(alternates["hi-IN"]); got != trim(hiPath) {
			t.Errorf("%s: hreflang hi-IN %q, want %q", file, alternates["hi-IN"], hiPath)
		}
		if alternates["x-default"] != alternates["en-IN"] {
			t.Errorf("%s: x-default %q, want the English page", file, alternates["x-default"])
		}
	}
	switches := findAll(page, "data-language-switch", "*")
	if len(switches) != 1 {
		t.Errorf("%s: %d language switchers, want 1", file, len(switches))
	} else {
		href, _ := attr(switches[0], "href")
		other := hiPath
		if lang == "hi" {
			other = path
		}
		if trim(href) != trim(other) {
			t.Errorf("%s: the switcher links %q, want %q", file, href, other)
		}
	}
	for _, a := range elements(page, "a") {
		if _, sw := attr(a, "data-language-switch"); sw {
			continue
		}
		href, _ := attr(a, "href")
		if !strings.HasPrefix(href, "/") || strings.HasPrefix(href, "//") {
			continue
		}
		skip := false
		for _, p := range notPages {
			skip = skip || strings.HasPrefix(href, p)
		}
		if skip {
			continue
		}
		inHindi := href == "/hi" || strings.HasPrefix(href, "/hi/") || strings.HasPrefix(href, "/hi?") || strings.HasPrefix(href, "/hi#")
		if inHindi != (lang == "hi") {
			t.Errorf("%s: a link to %q (%q) leaves the page's language", file, href, strings.TrimSpace(text(a)))
		}
	}
}
