package generator

import (
	"encoding/json"
	"fmt"
	"maps"
	"path"
	"strings"
	"time"

	"regpulse/generator/render"
	"regpulse/internal/i18n"
)

// Every page of the site is built in each of the site's languages
// (internal/i18n): English at /, Hindi under /hi/ with the same path
// after it. A page in another language is the English page's copy
// (translatePages) rendered in Hugo runs of its language
// (hugoLanguage: T's table, the dates' month names, site.Params.root
// before every link); entries keep the language they are written in.

// localText is a text the generator gives a page (its title) in every
// language: the catalogue's key with its data (whose values may be
// localTexts too), or a name as written in the content (text).
type localText struct {
	key  string
	data map[string]any
	text string
	date time.Time // a date, in the language's month names
}

// keyText is the catalogue's key, with its data.
func keyText(key string, data map[string]any) localText { return localText{key: key, data: data} }

// asWritten is a text the same in every language (a name from content).
func asWritten(s string) localText { return localText{text: s} }

// localDate is day as pages write it (2 January 2006), in each
// language's month names.
func localDate(day time.Time) localText { return localText{date: day} }

// In is the text in the language of code.
func (t localText) In(code string) string {
	if !t.date.IsZero() {
		return i18n.Date(code, t.date, "2 January 2006")
	}
	if t.key == "" {
		return t.text
	}
	var data map[string]any
	if t.data != nil {
		data = make(map[string]any, len(t.data))
		for k, v := range t.data {
			if lt, ok := v.(localText); ok {
				v = lt.In(code)
			}
			data[k] = v
		}
	}
	return i18n.T(code, t.key, data)
}

// MarshalJSON is the English text: a page's front matter holds a
// localText until translatePages gives each language's copy its own.
func (t localText) MarshalJSON() ([]byte, error) { return json.Marshal(t.In(i18n.English.Code)) }

// String is the English text.
func (t localText) String() string { return t.In(i18n.English.Code) }

// inLanguage is a front matter value with every localText in it (the
// value itself, or in its maps: a Master Direction's dates' labels) in
// the language of code, and whether it had any; maps holding none are
// left as they are.
func inLanguage(v any, code string) (any, bool) {
	switch v := v.(type) {
	case localText:
		return v.In(code), true
	case map[string]localText:
		out := make(map[string]string, len(v))
		for k, t := range v {
			out[k] = t.In(code)
		}
		return out, true
	case map[string]any:
		var out map[string]any
		for k, x := range v {
			if y, ok := inLanguage(x, code); ok {
				if out == nil {
					out = maps.Clone(v)
				}
				out[k] = y
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// translatePages are pages in every language of the site: each as it is
// (English, Lang ""), then its copy in each other language: under the
// language's root (url), the title (and any other localText of its front
// matter: an impact list's empty text; inLanguage) in the language, rendered in the
// language's runs (Page.Lang). The copies' files are under the
// language's folder and never a section's _index (a language's runs
// render regular pages only).
func translatePages(pages []render.Page) ([]render.Page, error) {
	out := make([]render.Page, 0, len(pages)*len(i18n.Languages))
	for _, p := range pages {
		if p.Content != nil {
			return nil, fmt.Errorf("translatePages: %s is encoded already", p.File)
		}
		url, err := pageURL(p)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		for _, lang := range i18n.Languages[1:] {
			c := p
			c.Lang = lang.Code
			c.Front = maps.Clone(p.Front)
			for k, v := range p.Front {
				if t, ok := inLanguage(v, lang.Code); ok {
					c.Front[k] = t
				}
			}
			c.Front["url"] = lang.Path(url)
			c.File = lang.Code + "/" + strings.Replace(p.File, "_index.md", "index-page.md", 1)
			out = append(out, c)
		}
	}
	// Hugo's 404 page is the default language's (its own runs alone have
	// the kind): another language's is a page of layout 404, which the
	// server (internal/web: the nearest 404.html) and the CDN's rules
	// (netlify.toml) answer under the language's root.
	for _, lang := range i18n.Languages[1:] {
		out = append(out, render.Page{File: lang.Code + "/404.md", Lang: lang.Code,
			Front: map[string]any{"title": i18n.T(lang.Code, "title.notFound", nil), "layout": "not-found",
				"url": lang.Root + "/404.html"}})
	}
	return out, nil
}

// pageURL is the path of an English page: its front matter's url, or the
// one Hugo gives its file (a section's _index: the section's; an entry:
// section/slug).
func pageURL(p render.Page) (string, error) {
	if u, ok := p.Front["url"].(string); ok && u != "" {
		return u, nil
	}
	dir, file := path.Split(p.File)
	switch {
	case file == "_index.md":
		return "/" + dir, nil
	case p.Front["slug"] != nil:
		return fmt.Sprintf("/%s%s/", dir, p.Front["slug"]), nil
	}
	return "", fmt.Errorf("translatePages: %s has neither url nor slug", p.File)
}

// languageRoutes are routes in every language of the site.
func languageRoutes(routes []string) []string {
	out := make([]string, 0, len(routes)*len(i18n.Languages))
	out = append(out, routes...)
	for _, lang := range i18n.Languages[1:] {
		for _, r := range routes {
			out = append(out, lang.Path(r))
		}
	}
	return out
}
