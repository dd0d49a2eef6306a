package i18n

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

func TestCatalogue(t *testing.T) {
	if _, err := Load(files); err != nil {
		t.Fatal(err)
	}
}

func TestLoad_Problems(t *testing.T) {
	tests := []struct {
		name, file, want string
	}{
		{"no Hindi", `{"a.b": {"en": "x"}}`, "strings/a.json:1: a.b: missing in हिन्दी (hi)"},
		{"empty Hindi", `{"a.b": {"en": "x", "hi": ""}}`, "missing in हिन्दी (hi)"},
		{"other language", `{"a.b": {"en": "x", "hi": "y", "fr": "z"}}`, `"fr" is not a language of the site`},
		{"placeholders differ", `{"a.b": {"en": "{{ .N }} x", "hi": "{{ .M }} y"}}`, "hi has placeholders [M], English [N]"},
		{"other action", `{"a.b": {"en": "{{ if .N }}x{{ end }}", "hi": "y"}}`, "a placeholder is written {{ .Name }}"},
		{"markup", `{"a.b": {"en": "<b>x</b>", "hi": "y"}}`, "no markup in a string"},
		{"plural in one only", `{"a.b": {"en": {"one": "x", "other": "xs"}, "hi": "y"}}`, "plural forms where English has none"},
		{"plural lacks other", `{"a.b": {"en": {"one": "x"}, "hi": "y"}}`, "plural forms need both one and other"},
		{"bad key", `{"Nav": {"en": "x", "hi": "y"}}`, "a key is area.name"},
		{"other area", `{"b.c": {"en": "x", "hi": "y"}}`, "a key starts with its file's area (a.)"},
		{"line", "{\n\n  \"a.c\": {\"en\": \"x\"}}", "strings/a.json:3: a.c: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(fstest.MapFS{"strings/a.json": {Data: []byte(tt.file)}})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load: %v, want %q", err, tt.want)
			}
		})
	}
	t.Run("twice", func(t *testing.T) {
		_, err := Load(fstest.MapFS{
			"strings/a.json":  {Data: []byte(`{"a.b": {"en": "x", "hi": "y"}}`)},
			"strings/a2.json": {Data: []byte(`{"a.b": {"en": "x", "hi": "y"}}`)},
		})
		if err == nil || !strings.Contains(err.Error(), "a2.json:1: a.b: also in strings/a.json:1") {
			t.Fatalf("Load: %v", err)
		}
	})
}

func TestT(t *testing.T) {
	c, err := Load(fstest.MapFS{"strings/a.json": {Data: []byte(`{
		"a.plain": {"en": "Search", "hi": "खोज"},
		"a.count": {"en": {"one": "{{ .N }} circular", "other": "{{ .N }} circulars"},
		            "hi": {"one": "{{ .N }} परिपत्र", "other": "{{ .N }} परिपत्रों"}},
		"a.name": {"en": "Hello {{ .Name }}, {{ .Name }}", "hi": "नमस्ते {{ .Name }}, {{ .Name }}"}
	}`)}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		lang, key string
		data      map[string]any
		want      string
	}{
		{"en", "a.plain", nil, "Search"},
		{"hi", "a.plain", nil, "खोज"},
		{"fr", "a.plain", nil, "Search"},
		{"en", "a.count", map[string]any{"Count": 1, "N": "1"}, "1 circular"},
		{"en", "a.count", map[string]any{"Count": 0, "N": "0"}, "0 circulars"},
		{"hi", "a.count", map[string]any{"Count": 0, "N": "0"}, "0 परिपत्र"},
		{"hi", "a.count", map[string]any{"Count": 1.0, "N": "1"}, "1 परिपत्र"},
		{"hi", "a.count", map[string]any{"Count": "1,00,000", "N": "1,00,000"}, "1,00,000 परिपत्रों"},
		{"en", "a.name", map[string]any{"Name": "Asha"}, "Hello Asha, Asha"},
		{"hi", "a.name", nil, "नमस्ते {{ .Name }}, {{ .Name }}"},
	}
	for _, tt := range tests {
		if got := c.T(tt.lang, tt.key, tt.data); got != tt.want {
			t.Errorf("T(%s, %s, %v) = %q, want %q", tt.lang, tt.key, tt.data, got, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	tests := []struct {
		lang, en, path string
	}{
		{"en", "/", "/"},
		{"en", "/circulars/x", "/circulars/x"},
		{"hi", "/", "/hi/"},
		{"hi", "/circulars/x", "/hi/circulars/x"},
		{"hi", "/search?q=kyc", "/hi/search?q=kyc"},
	}
	for _, tt := range tests {
		l := Of(tt.lang)
		if got := l.Path(tt.en); got != tt.path {
			t.Errorf("%s.Path(%s) = %s, want %s", tt.lang, tt.en, got, tt.path)
		}
		if en, got := Strip(tt.path); en != tt.en || got != l {
			t.Errorf("Strip(%s) = %s, %s, want %s, %s", tt.path, en, got.Code, tt.en, tt.lang)
		}
	}
	if en, l := Strip("/hindi"); en != "/hindi" || l != English {
		t.Errorf("Strip(/hindi) = %s, %s", en, l.Code)
	}
}

func TestHugoTables(t *testing.T) {
	c, err := Load(fstest.MapFS{"strings/a.json": {Data: []byte(`{
		"a.plain": {"en": "Search", "hi": "खोज"},
		"a.count": {"en": {"one": "{{ .N }} circular", "other": "{{ .N }} circulars"}, "hi": {"one": "{{ .N }} परिपत्र", "other": "{{ .N }} परिपत्र"}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for k, v := range c.HugoTables() {
		got[k] = string(v)
	}
	want := map[string]string{
		"i18n/en.json": `{"a.count":{"one":"{{ .N }} circular","other":"{{ .N }} circulars"},"a.plain":{"other":"Search"}}`,
		"i18n/hi.json": `{"a.count":{"one":"{{ .N }} परिपत्र","other":"{{ .N }} परिपत्र"},"a.plain":{"other":"खोज"}}`,
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Error(d)
	}
}
