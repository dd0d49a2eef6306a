// Package i18n is RegPulse's one catalogue of strings: every text a page,
// an island, an e-mail or an API message shows a reader, in each of the
// site's languages. Hugo reads it (the generator writes it as Hugo's
// i18n tables, HugoTables), the Go code reads it (T, N) and the islands
// import its files as they are (islands/src/lib/i18n.ts): no layer keeps
// a copy of its own.
//
// The strings are in strings/*.json, one file per area of the product,
// each key with every language side by side, so that a translator sees
// the English beside the Hindi and a review sees a string added in one
// language only:
//
//	"nav.search": {"en": "Search", "hi": "खोज"}
//	"list.count": {"en": {"one": "{{ .N }} circular", "other": "{{ .N }} circulars"},
//	               "hi": {"one": "{{ .N }} परिपत्र", "other": "{{ .N }} परिपत्र"}}
//
// A value is text, or its plural forms (CLDR's categories of the
// language: one and other for English and Hindi) chosen by the data's
// Count. Placeholders are {{ .Name }}, the one form Hugo's T, Go's T and
// the islands' t all fill alike; a string holds no other template action
// and no markup.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Language is one language of the site.
type Language struct {
	Code string // the page's lang and the catalogue's key: en, hi
	Tag  string // BCP 47 with the region, for numbers and dates: en-IN, hi-IN
	Name string // in itself, as the language switcher shows it
	// Short is Name where a phone's header has no room for it: EN, हि.
	Short string
	// Root is the language's pages' prefix: "" for English at /, "/hi".
	Root string
}

// The site's languages; the first is the default, at the site's root.
var (
	English   = Language{Code: "en", Tag: "en-IN", Name: "English", Short: "EN", Root: ""}
	Hindi     = Language{Code: "hi", Tag: "hi-IN", Name: "हिन्दी", Short: "हि", Root: "/hi"}
	Languages = []Language{English, Hindi}
)

// Lookup is the language of code, and whether the site has it.
func Lookup(code string) (Language, bool) {
	for _, l := range Languages {
		if l.Code == code {
			return l, true
		}
	}
	return Language{}, false
}

// Of is the language of code, English when the site has no such language.
func Of(code string) Language {
	if l, ok := Lookup(code); ok {
		return l
	}
	return English
}

// Path is the path of an English page path p (starting with /) in the
// language: /circulars in Hindi is /hi/circulars, / is /hi/.
func (l Language) Path(p string) string {
	if l.Root == "" {
		return p
	}
	if p == "/" || p == "" {
		return l.Root + "/"
	}
	return l.Root + p
}

// Strip is the English path of a path p of any language, and that
// language: /hi/circulars is /circulars in Hindi.
func Strip(p string) (string, Language) {
	for _, l := range Languages[1:] {
		if p == l.Root || p == l.Root+"/" {
			return "/", l
		}
		if rest, ok := strings.CutPrefix(p, l.Root+"/"); ok {
			return "/" + rest, l
		}
	}
	return p, English
}

// Message is one key's text in one language: Other alone, or with One
// for a Count of one (CLDR: English 1; Hindi 0 and 1).
type Message struct {
	One, Other string
}

// UnmarshalJSON reads "text" or {"one": ..., "other": ...}.
func (m *Message) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		m.Other = s
		return nil
	}
	var p struct {
		One   *string `json:"one"`
		Other *string `json:"other"`
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("a text, or {\"one\", \"other\"}: %w", err)
	}
	if p.One == nil || p.Other == nil {
		return fmt.Errorf("plural forms need both one and other")
	}
	m.One, m.Other = *p.One, *p.Other
	return nil
}

// Plural says whether m has plural forms.
func (m Message) Plural() bool { return m.One != "" }

// Entry is one key: its message in each language, and where it is.
type Entry struct {
	Key      string
	File     string // strings/{area}.json
	Line     int
	Messages map[string]Message // by Language.Code
}

// Catalogue is every key, in file and then key order.
type Catalogue struct {
	Entries []Entry
	byKey   map[string]int
}

//go:embed strings/*.json
var files embed.FS

// Files are the catalogue's files, for the islands' tests and the
// generator's inputs' hash.
func Files() fs.FS { return files }

var (
	loadOnce sync.Once
	loaded   *Catalogue
	loadErr  error
)

// Default is the embedded catalogue. It panics on a catalogue that does
// not load: the tests load it (TestCatalogue), so a build never ships one.
func Default() *Catalogue {
	loadOnce.Do(func() { loaded, loadErr = Load(files) })
	if loadErr != nil {
		panic(loadErr)
	}
	return loaded
}

var keyRe = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+$`)

// placeholderRe is a placeholder; actionRe any template action.
var (
	placeholderRe = regexp.MustCompile(`\{\{ \.([A-Z][A-Za-z0-9]*) \}\}`)
	actionRe      = regexp.MustCompile(`\{\{.*?\}\}`)
)

// Load reads and checks the catalogue in fsys's strings/*.json: every key
// in every language, the same placeholders in each, no key twice. Each
// problem names its file, line and key.
func Load(fsys fs.FS) (*Catalogue, error) {
	names, err := fs.Glob(fsys, "strings/*.json")
	if err != nil {
		return nil, err
	}
	c := &Catalogue{byKey: map[string]int{}}
	var problems []string
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		entries, err := parseFile(name, b)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, e := range entries {
			where := fmt.Sprintf("internal/i18n/%s:%d: %s", e.File, e.Line, e.Key)
			if i, dup := c.byKey[e.Key]; dup {
				first := c.Entries[i]
				problems = append(problems, fmt.Sprintf("%s: also in %s:%d", where, first.File, first.Line))
				continue
			}
			problems = append(problems, check(e, where)...)
			c.byKey[e.Key] = len(c.Entries)
			c.Entries = append(c.Entries, e)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("i18n: %d problem(s) in the catalogue:\n%s", len(problems), strings.Join(problems, "\n"))
	}
	return c, nil
}

// parseFile reads one file's keys in order, with their lines.
func parseFile(name string, b []byte) ([]Entry, error) {
	var raw map[string]map[string]Message
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("internal/i18n/%s: %w", name, err)
	}
	var out []Entry
	for key, msgs := range raw {
		out = append(out, Entry{Key: key, File: name, Line: lineOf(b, key), Messages: msgs})
	}
	slices.SortFunc(out, func(a, b Entry) int { return a.Line - b.Line })
	return out, nil
}

// lineOf is the line of key's first occurrence as an object key in b.
func lineOf(b []byte, key string) int {
	q, _ := json.Marshal(key)
	at := strings.Index(string(b), string(q)+":")
	if at < 0 {
		return 1
	}
	return strings.Count(string(b[:at]), "\n") + 1
}

// check is what is wrong with one entry.
func check(e Entry, where string) []string {
	var problems []string
	if !keyRe.MatchString(e.Key) {
		problems = append(problems, where+": a key is area.name in camelCase, dot separated (nav.search)")
	} else if area := strings.TrimSuffix(path.Base(e.File), ".json"); !strings.HasPrefix(e.Key, area+".") {
		problems = append(problems, fmt.Sprintf("%s: a key starts with its file's area (%s.)", where, area))
	}
	for code := range e.Messages {
		if _, ok := Lookup(code); !ok {
			problems = append(problems, fmt.Sprintf("%s: %q is not a language of the site", where, code))
		}
	}
	en, ok := e.Messages[English.Code]
	if !ok {
		return append(problems, where+": no English (en)")
	}
	want := placeholders(en)
	for _, l := range Languages {
		m, ok := e.Messages[l.Code]
		if !ok || m.Other == "" {
			problems = append(problems, fmt.Sprintf("%s: missing in %s (%s)", where, l.Name, l.Code))
			continue
		}
		if m.Plural() != en.Plural() {
			problems = append(problems, fmt.Sprintf("%s: %s has plural forms where English has none, or none where it has", where, l.Code))
		}
		for _, text := range []string{m.One, m.Other} {
			if a := actionRe.FindAllString(text, -1); len(a) != len(placeholderRe.FindAllString(text, -1)) {
				problems = append(problems, fmt.Sprintf("%s: %s: a placeholder is written {{ .Name }}, nothing else: %q", where, l.Code, a))
			}
			if strings.ContainsAny(text, "<>") {
				problems = append(problems, fmt.Sprintf("%s: %s: no markup in a string", where, l.Code))
			}
		}
		if got := placeholders(m); !slices.Equal(got, want) {
			problems = append(problems, fmt.Sprintf("%s: %s has placeholders %v, English %v", where, l.Code, got, want))
		}
	}
	return problems
}

// placeholders are the names a message fills, sorted, once each.
func placeholders(m Message) []string {
	var names []string
	for _, text := range []string{m.One, m.Other} {
		for _, sub := range placeholderRe.FindAllStringSubmatch(text, -1) {
			names = append(names, sub[1])
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	// the plural forms may leave Count out (Hindi "one": "एक परिपत्र")
	return slices.DeleteFunc(names, func(n string) bool { return n == "Count" })
}

// Has says whether the catalogue has key.
func (c *Catalogue) Has(key string) bool { _, ok := c.byKey[key]; return ok }

// Keys are the catalogue's keys in its order.
func (c *Catalogue) Keys() []string {
	out := make([]string, len(c.Entries))
	for i, e := range c.Entries {
		out[i] = e.Key
	}
	return out
}

// T is key's text in the language of code (English for a language the
// site lacks), its placeholders filled from data (Name: value, printed
// with %v); a plural message takes its form from data's Count. A key the
// catalogue lacks panics: the key check (TestUsage) finds every key the
// code names, so one missing is a programming error.
func (c *Catalogue) T(code, key string, data map[string]any) string {
	i, ok := c.byKey[key]
	if !ok {
		panic("i18n: no key " + strconv.Quote(key))
	}
	lang := Of(code)
	m := c.Entries[i].Messages[lang.Code]
	text := m.Other
	if m.Plural() && pluralOne(lang.Code, data["Count"]) {
		text = m.One
	}
	if !strings.Contains(text, "{{") {
		return text
	}
	return placeholderRe.ReplaceAllStringFunc(text, func(ph string) string {
		name := placeholderRe.FindStringSubmatch(ph)[1]
		if v, ok := data[name]; ok {
			return fmt.Sprint(v)
		}
		return ph
	})
}

// T is key's text from the embedded catalogue (Catalogue.T).
func T(code, key string, data map[string]any) string { return Default().T(code, key, data) }

// pluralOne says whether count takes the form "one" in the language
// (CLDR for integers: English n = 1; Hindi n = 0 or 1).
func pluralOne(code string, count any) bool {
	var n float64
	switch v := count.(type) {
	case int:
		n = float64(v)
	case int64:
		n = float64(v)
	case float64:
		n = v
	case string:
		f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		if err != nil {
			return false
		}
		n = f
	default:
		return false
	}
	if code == Hindi.Code {
		return n == 0 || n == 1
	}
	return n == 1
}

// HugoTables are the catalogue as Hugo's i18n tables, one file per
// language (i18n/en.json, i18n/hi.json): go-i18n's JSON, a key's text or
// its plural forms.
func (c *Catalogue) HugoTables() map[string][]byte {
	out := map[string][]byte{}
	for _, l := range Languages {
		table := map[string]any{}
		for _, e := range c.Entries {
			m := e.Messages[l.Code]
			if m.Plural() {
				table[e.Key] = map[string]string{"one": m.One, "other": m.Other}
			} else {
				table[e.Key] = map[string]string{"other": m.Other}
			}
		}
		b, err := json.Marshal(table)
		if err != nil {
			panic(err) // strings only
		}
		out[path.Join("i18n", l.Code+".json")] = b
	}
	return out
}
