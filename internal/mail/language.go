package mail

import (
	htmltemplate "html/template"
	"io/fs"
	"strings"
	texttemplate "text/template"
	"time"

	"regpulse/internal/i18n"
)

// An e-mail in its reader's language (issue 48): the subject and the
// e-mail's own words from the catalogue (internal/i18n), dates with the
// language's month names, links to the language's pages. What the e-mail
// quotes (a circular's title, a name) stays as written.

// Funcs are the template functions of an e-mail in the language of code:
//
//   - T: a key's text, T followed by the quoted key, then the data as
//     name-value pairs ("Name" .Name);
//   - lang: the language's code (<html lang>); upper: strings.ToUpper;
//   - date: a time in a layout of time.Format, months and weekdays named
//     in the language (Date).
func Funcs(code string) map[string]any {
	lang := i18n.Of(code)
	return map[string]any{
		"T": func(key string, pairs ...any) string {
			var data map[string]any
			if len(pairs) > 0 {
				data = map[string]any{}
				for i := 0; i+1 < len(pairs); i += 2 {
					name, _ := pairs[i].(string)
					data[name] = pairs[i+1]
				}
			}
			return i18n.T(lang.Code, key, data)
		},
		"lang":  func() string { return lang.Code },
		"upper": strings.ToUpper,
		"date":  func(t time.Time, layout string) string { return i18n.Date(lang.Code, t, layout) },
	}
}

// HTMLByLanguage parses an e-mail's HTML templates (as HTMLTemplates)
// once per language of the site, each with that language's Funcs: by
// language code.
func HTMLByLanguage(fsys fs.FS, patterns ...string) (map[string]*htmltemplate.Template, error) {
	out := map[string]*htmltemplate.Template{}
	for _, l := range i18n.Languages {
		t, err := htmlTemplates(l.Code, fsys, patterns...)
		if err != nil {
			return nil, err
		}
		out[l.Code] = t
	}
	return out, nil
}

// TextByLanguage parses an e-mail's text templates once per language,
// each with that language's Funcs: by language code.
func TextByLanguage(fsys fs.FS, patterns ...string) (map[string]*texttemplate.Template, error) {
	out := map[string]*texttemplate.Template{}
	for _, l := range i18n.Languages {
		t, err := texttemplate.New("").Funcs(Funcs(l.Code)).ParseFS(fsys, patterns...)
		if err != nil {
			return nil, err
		}
		out[l.Code] = t
	}
	return out, nil
}

// LinkIn is the absolute URL of an English site path in the language of
// code (/hi/… in Hindi), with query.
func (s Site) LinkIn(code, path string, query map[string][]string) string {
	return s.Link(i18n.Of(code).Path(path), query)
}
