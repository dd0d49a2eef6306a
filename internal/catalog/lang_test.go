package catalog

import "testing"

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
