package mail_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"regpulse/internal/mail"
)

// TestHTMLTemplates: an e-mail calls the shared head, with its subject
// as title, and adds dark-mode rules by defining "dark"; values are
// escaped as HTML.
func TestHTMLTemplates(t *testing.T) {
	fsys := fstest.MapFS{
		"plain.html": {Data: []byte(`{{template "head" .}}<body></body>`)},
		"dark.html":  {Data: []byte("{{define \"dark\"}}  .x { color: red; }\n{{end -}}\n{{template \"head\" .}}<body></body>")},
	}
	for _, tc := range []struct {
		file    string
		dark    bool
		subject string
	}{{"plain.html", false, "A & B"}, {"dark.html", true, "C"}} {
		t.Run(tc.file, func(t *testing.T) {
			tmpl, err := mail.HTMLTemplates(fsys, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := tmpl.ExecuteTemplate(&b, tc.file, struct{ Subject string }{tc.subject}); err != nil {
				t.Fatal(err)
			}
			got := b.String()
			if !strings.HasPrefix(got, "<!doctype html>\n") || !strings.HasSuffix(got, "</head>\n<body></body>") {
				t.Errorf("not a head then the body:\n%s", got)
			}
			if want := "<title>" + strings.ReplaceAll(tc.subject, "&", "&amp;") + "</title>"; !strings.Contains(got, want) {
				t.Errorf("no %s in\n%s", want, got)
			}
			if strings.Contains(got, ".x { color: red; }\n}\n</style>") != tc.dark {
				t.Errorf("dark rule added %v, want %v:\n%s", !tc.dark, tc.dark, got)
			}
		})
	}
}
