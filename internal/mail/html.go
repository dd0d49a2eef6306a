package mail

import (
	"embed"
	htmltemplate "html/template"
	"io/fs"

	"regpulse/internal/i18n"
)

//go:embed templates/*.html
var shared embed.FS

// HTMLTemplates parses an e-mail's HTML templates (patterns in fsys)
// after the parts every RegPulse e-mail shares, which they call:
//
//   - "head": the doctype, <head> with the title (the data's Subject)
//     and the styles that follow the reader's dark setting. An e-mail
//     adds dark-mode rules of its own by defining "dark" (indented, one
//     rule a line).
//   - the card every e-mail is: "card-top" (the body, the preheader: the
//     data's Subject, and the card's coloured head, which the e-mail
//     fills with its kicker and title), "card-body" (the content's
//     cell), "card-foot" (the footer's cell) and "card-end".
//
// The templates have the English Funcs (T, lang, date); HTMLByLanguage
// parses them once per language.
func HTMLTemplates(fsys fs.FS, patterns ...string) (*htmltemplate.Template, error) {
	return htmlTemplates(i18n.English.Code, fsys, patterns...)
}

func htmlTemplates(code string, fsys fs.FS, patterns ...string) (*htmltemplate.Template, error) {
	t, err := htmltemplate.New("").Funcs(Funcs(code)).ParseFS(shared, "templates/*.html")
	if err != nil {
		return nil, err
	}
	return t.ParseFS(fsys, patterns...)
}
