package generator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// withHindiItems is the fixture with a circular and a news item written in
// Hindi: made-up test content (marked so in its text), the shape of the
// Hindi circulars RBI publishes (भारिबैं/2020-21/60 for RBI/2020-21/60).
func withHindiItems(t *testing.T) string {
	t.Helper()
	content := copyTree(t, fixtureContent)
	for name, text := range map[string]string{
		"circulars/rbi-2021-02-10-hindi-fixture.md": "---\ncircularNumber: भारिबैं/2020-21/60\ntitle: डिजिटल भुगतान सुरक्षा नियंत्रण (परीक्षण)\nsource: RBI\ncategory: Security\n" +
			"publishedDate: 2021-02-10\nimpactLevel: medium\nentityImpact:\n  PSP: medium\nsourceUrl: https://example.org/hindi-fixture\nsourceKind: unofficial\nverification: reported\n---\n\n" +
			"यह परीक्षण के लिए बनाया गया परिपत्र है। सभी विनियमित संस्थाएँ डिजिटल भुगतान के लिए सुरक्षा नियंत्रण लागू करेंगी।\n",
		"news/2021-02-11-hindi-fixture.md": "---\ntitle: रिज़र्व बैंक ने डिजिटल भुगतान सुरक्षा नियम जारी किए (परीक्षण)\nexcerpt: परीक्षण के लिए बनाई गई ख़बर।\nsource: RBI\ncategory: Regulations\n" +
			"region: India\npublishedDate: 2021-02-11\nsourceUrl: https://example.org/hindi-fixture-news\n---\n\nपरीक्षण के लिए बनाई गई ख़बर।\n",
	} {
		if err := os.WriteFile(filepath.Join(content, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return content
}

// TestLang_HindiItems: a circular and a news item in Hindi carry lang="hi"
// on their own text (the page's title and text, the card's title and
// preview, the news card's title and excerpt), the English chrome around
// them and the English items none.
func TestLang_HindiItems(t *testing.T) {
	out, _ := buildSiteAt(t, withHindiItems(t), templatesDir, fixtureNow)
	langs := func(n *html.Node) []string {
		var got []string
		for _, e := range findAll(n, "lang", "*") {
			v, _ := attr(e, "lang")
			got = append(got, e.Data+":"+v+":"+text(e))
		}
		return got
	}

	page := parseFile(t, filepath.Join(out, "circulars", "rbi-2021-02-10-hindi-fixture", "index.html"))
	h1 := elements(page, "h1")[0]
	if v, _ := attr(h1, "lang"); v != "hi" {
		t.Errorf("the Hindi circular's h1 has lang %q, want hi", v)
	}
	if v, _ := attr(find(t, page, "aria-label", "Content"), "lang"); v != "hi" {
		t.Errorf("the Hindi circular's text has lang %q, want hi", v)
	}

	list := parseFile(t, filepath.Join(out, "circulars", "index.html"))
	card := find(t, list, "data-circular", "rbi-2021-02-10-hindi-fixture")
	got := langs(card)
	want := []string{"span:hi:डिजिटल भुगतान सुरक्षा नियंत्रण (परीक्षण)", "p:hi:" + text(find(t, card, "data-preview", "*")),
		"span:hi:डिजिटल भुगतान सुरक्षा नियंत्रण (परीक्षण)"} // the title, the preview, Details' title for screen readers
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the Hindi card's lang attributes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(text(find(t, card, "data-preview", "*")), "परीक्षण") {
		t.Errorf("the Hindi card's preview %q", text(find(t, card, "data-preview", "*")))
	}
	if got := langs(find(t, list, "data-circular", "npci-2024-03-28-upi-ids")); len(got) != 0 {
		t.Errorf("an English card has lang attributes %q", got)
	}
	if v, _ := attr(elements(list, "html")[0], "lang"); v != "en" {
		t.Errorf("the page's lang %q, want en", v)
	}

	tracker := parseFile(t, filepath.Join(out, "impact-tracker", "index.html"))
	var marked []string
	// in the page's main (the header's language switcher names Hindi in Hindi)
	for _, e := range findAll(elements(tracker, "main")[0], "lang", "hi") {
		marked = append(marked, e.Data)
	}
	if strings.Join(marked, " ") != "span p" { // the title and the preview of its entry in the medium list
		t.Errorf("/impact-tracker: lang=hi on %q, want the Hindi circular's title span and preview p", marked)
	}

	news := parseFile(t, filepath.Join(out, "news", "index.html"))
	var hindi, english int
	for _, h := range elements(news, "h3") {
		v, _ := attr(h, "lang")
		switch {
		case strings.Contains(text(h), "परीक्षण") && v == "hi":
			hindi++
		case strings.Contains(text(h), "परीक्षण"):
			t.Errorf("the Hindi news item's title %q has lang %q", text(h), v)
		case v != "":
			t.Errorf("the English news title %q has lang %q", text(h), v)
		default:
			english++
		}
	}
	if hindi == 0 || english == 0 {
		t.Errorf("/news: %d Hindi titles with lang=hi, %d English ones", hindi, english)
	}
}
