package catalog

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"unicode"

	"regpulse/internal/markdown"
)

func TestTextLang(t *testing.T) {
	for _, c := range []struct {
		name  string
		texts []string
		want  string
	}{
		{"empty", nil, LangEnglish},
		{"English", []string{"Master Direction on KYC", "Regulated entities shall ..."}, LangEnglish},
		{"Hindi", []string{"भारतीय रिज़र्व बैंक परिपत्र", "सभी विनियमित संस्थाएँ"}, LangHindi},
		{"Hindi title with a Latin reference number", []string{"भारिबैं/2020-21/60 डिजिटल भुगतान सुरक्षा नियंत्रण RBI"}, LangHindi},
		{"English with a Hindi word", []string{"UPI लाइट limits raised for small payments"}, LangEnglish},
		{"digits and punctuation only", []string{"2020-21/60 ..."}, LangEnglish},
		{"a Hindi title over an English text", []string{"परिपत्र", "This circular amends the limits of prepaid payment instruments."}, LangEnglish},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := TextLang(c.texts...); got != c.want {
				t.Errorf("TextLang(%q) = %q, want %q", c.texts, got, c.want)
			}
		})
	}
}

func TestWithPreviews_Lang(t *testing.T) {
	cs := WithPreviews([]Circular{{Title: "डिजिटल भुगतान", Content: "सभी **बैंक**"}, {Title: "Digital payments", Content: "All banks"}})
	if cs[0].Lang != LangHindi || cs[1].Lang != LangEnglish {
		t.Errorf("langs %q, %q; want hi, en", cs[0].Lang, cs[1].Lang)
	}
	ns := WithNewsLangs([]NewsItem{{Title: "यूपीआई लाइट", Excerpt: "सीमा बढ़ी"}, {Title: "UPI Lite"}})
	if ns[0].Lang != LangHindi || ns[1].Lang != LangEnglish {
		t.Errorf("news langs %q, %q; want hi, en", ns[0].Lang, ns[1].Lang)
	}
}

// TestTextHead: a circular's language from its text's head (what LoadFS
// makes on every core) is its language from the whole text, around the
// letters TextLang reads.
func TestTextHead(t *testing.T) {
	hindi, english := strings.Repeat("सभी विनियमित संस्थाएँ। ", 300), strings.Repeat("All regulated **entities** shall comply.\n\n", 300)
	for _, body := range []string{
		"", "\n  All banks  \n", "सभी **बैंक**",
		english, hindi, english + hindi, hindi + english,
		// the sample's edge: English up to just under, at and past it, then Hindi
		strings.Repeat("a", langSample-1) + "\n\n" + hindi,
		strings.Repeat("a", langSample) + "\n\n" + hindi,
		"# " + strings.Repeat("ab ", langSample) + "\n\n" + hindi,
	} {
		for _, title := range []string{"", "Digital payments", "डिजिटल भुगतान", strings.Repeat("भुगतान", 400)} {
			c := Circular{Title: title, Content: strings.TrimSpace(body)}
			if got, want := TextLang(title, textHead([]byte(body))), c.TextLang(); got != want {
				t.Errorf("title %.20q, text %.40q…: %q from the head, %q from the text", title, body, got, want)
			}
		}
	}
	// the head stops at the sample's last letter
	if got := textHead([]byte(strings.Repeat("a", 3*langSample))); len(got) != langSample {
		t.Errorf("head of %d letters, want %d", len(got), langSample)
	}
}

// TestTextHead_Start: the head read from a text's start (markdown.Head) is
// the head of the whole text, where a construct could make the two
// differ: the letters are far enough in that the start is parsed alone.
func TestTextHead_Start(t *testing.T) {
	digits := strings.Repeat("12345 ", 1100) // past headBytes, without a letter
	letters := func(w string) string { return strings.Repeat(w+" ", langSample/len(w)+10) }
	for name, body := range map[string]string{
		"plain":               letters("alpha") + "\n\n" + letters("omega"),
		"hindi":               letters("भुगतान") + "\n\n" + letters("omega"),
		"footnote before cut": "Note[^1].\n\n[^1]: " + letters("foot") + "\n\n" + digits + "\n\n" + letters("main"),
		"reference after cut": "See [rules][r].\n\n" + digits[:3000] + "\n\n" + letters("main") + "\n\n" + letters("more") + "\n\n[r]: https://rbi.org.in",
		"fence across cut":    "```\n" + digits + "\n\n" + letters("code") + "\n```\n\n" + letters("main"),
		"comment across cut":  "<!--\n" + digits + "\n\n" + letters("hidden") + "\n-->\n\n" + letters("main"),
		"definition list":     digits + "\n\nTerm\n\n: " + letters("defined"),
		"loose list":          "- " + digits + "\n\n- " + letters("item"),
		"no blank line":       digits + "\n" + letters("main"),
	} {
		if got, want := textHead([]byte(body)), wholeHead(body); got != want {
			t.Errorf("%s: head %.60q…, want the whole text's %.60q…", name, got, want)
		}
	}
}

// wholeHead is textHead from the whole text's plain words.
func wholeHead(body string) string {
	sample, _ := letterSample(markdown.PlainText(strings.TrimSpace(body)))
	return sample
}

// FuzzTextHead: a head read from a text's start is the whole text's.
func FuzzTextHead(f *testing.F) {
	f.Add("Note[^1].\n\n[^1]: foot\n\nmain")
	f.Add("```\ncode\n\nmore\n```\n\ntext")
	f.Fuzz(func(t *testing.T, body string) {
		// the body's start repeated past headBytes, so that a start is cut
		long := strings.Repeat(body+"\n\n", headBytes/(len(body)+2)+1) + body
		if got, want := textHead([]byte(long)), wholeHead(long); got != want {
			t.Errorf("head %.60q…, want %.60q…", got, want)
		}
	})
}

// TestWithLangs: a circular's language known for its file is taken as
// it is (the loader does not read the text for it); an unknown one or
// one not in Langs is found in the text.
func TestWithLangs(t *testing.T) {
	fsys := os.DirFS("testdata/good")
	plain, err := LoadFS(fsys, "content", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Circulars) < 2 {
		t.Fatal("the fixture has fewer than 2 circulars")
	}
	first, second := plain.Circulars[0], plain.Circulars[1]
	other := map[string]string{LangEnglish: LangHindi, LangHindi: LangEnglish}
	rel := func(c Circular) string { return strings.TrimPrefix(c.Path, "content/") }
	known := map[string]string{rel(first): other[first.Lang], rel(second): "xx"}
	cat, err := LoadFS(fsys, "content", nil, WithLangs(func(p string) (string, bool) { l, ok := known[p]; return l, ok }))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cat.Circulars {
		want := c.TextLang()
		if c.Slug == first.Slug {
			want = other[first.Lang]
		}
		if c.Lang != want {
			t.Errorf("%s: Lang %q, want %q", c.Slug, c.Lang, want)
		}
	}
}

// TestMayHoldDevanagari: every Devanagari letter, alone or in English,
// and a numeric reference are seen; texts without one are not, whatever
// else they hold (a rupee sign, a named reference, Latin accents).
func TestMayHoldDevanagari(t *testing.T) {
	seen := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !unicode.Is(unicode.Devanagari, r) {
			continue
		}
		seen++
		for _, body := range []string{string(r), "All banks shall " + string(r), strings.Repeat("ab", 20) + string(r) + "."} {
			if !mayHoldDevanagari([]byte(body)) {
				t.Fatalf("%q (U+%04X): not seen", body, r)
			}
		}
	}
	if seen < 150 {
		t.Fatalf("only %d Devanagari runes", seen)
	}
	for body, want := range map[string]bool{
		"":                                     false,
		"All regulated entities shall comply.": false,
		"A fee of ₹ 500 &amp; GST, café, “quoted”":            false,
		strings.Repeat("Payment & Settlement Systems. ", 100): false,
		"Written as &#2325; or &#x915;":                       true,
		"सभी बैंक":                                            true,
	} {
		if got := mayHoldDevanagari([]byte(body)); got != want {
			t.Errorf("%.40q: %v, want %v", body, got, want)
		}
	}
}

// TestLoad_LangWithoutHead: a circular whose text holds no Devanagari
// letter has the language TextLang gives its title and whole text, its
// head unparsed.
func TestLoad_LangWithoutHead(t *testing.T) {
	for _, tc := range []struct{ title, body, want string }{
		{"Digital payments", "All banks shall comply by **March**.", LangEnglish},
		{"डिजिटल भुगतान", "OK", LangHindi},
		{"डिजिटल भुगतान", strings.Repeat("All banks shall comply. ", 40), LangEnglish},
		{"Digital payments", strings.Repeat("सभी बैंक इसका पालन करेंगे। ", 5), LangHindi},
		{"Digital payments", strings.Repeat("&#2360;&#2349;&#2368; &#2348;&#2376;&#2306;&#2325; ", 10), LangHindi},
	} {
		c := Circular{Title: tc.title, Content: tc.body}
		if got := c.TextLang(); got != tc.want {
			t.Fatalf("%q: TextLang %q, want %q (the case is wrong)", tc.title, got, tc.want)
		}
		file := fmt.Sprintf("---\ntitle: %q\nsource: RBI\ncategory: UPI\npublishedDate: 2026-01-05\nimpactLevel: low\nentityImpact:\n  PSP: low\nsourceUrl: https://example.org/\nsourceKind: report\n---\n%s\n", tc.title, tc.body)
		fsys := fstest.MapFS{"circulars/x.md": {Data: []byte(file)}}
		cat, err := LoadFS(fsys, "content", nil)
		if err != nil {
			t.Fatalf("%q: %v", tc.title, err)
		}
		if got := cat.Circulars[0].Lang; got != tc.want {
			t.Errorf("title %q, text %.30q: loaded as %q, want %q", tc.title, tc.body, got, tc.want)
		}
	}
}
