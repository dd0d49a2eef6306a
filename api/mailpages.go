package api

import (
	"bytes"
	"context"
	"html/template"
	"log/slog"
	"net/http"
	"reflect"

	"regpulse/api/apispec"
	"regpulse/internal/i18n"
	"regpulse/internal/mail"
)

// The few pages the newsletter and alert calls answer with HTML, for
// people who follow an e-mail's link or post a form without JavaScript.
// They are self-contained (inline styles, no scripts) and follow the
// reader's light or dark setting.
var mailPage = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{.Title}} · RegPulse</title>
<style>
:root { color-scheme: light dark; }
body { font-family: system-ui, sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border: 1px solid #e2e8f0; border-radius: .75rem; }
h1 { font-size: 1.375rem; margin: 0 0 1rem; }
button { font: inherit; font-weight: 600; padding: .6rem 1.2rem; border: 0; border-radius: .5rem; background: #1d4ed8; color: #fff; cursor: pointer; }
a { color: #1d4ed8; }
@media (prefers-color-scheme: dark) {
  body { background: #020617; color: #e2e8f0; }
  main { background: #0f172a; border-color: #334155; }
  a { color: #93c5fd; }
}
</style>
</head>
<body>
<main>
<h1>{{.Title}}</h1>
<p>{{.Message}}</p>
{{with .Action}}<form method="post" action="{{.}}"><button type="submit">{{$.Button}}</button></form>{{end}}
<p><a href="{{.Back}}">{{.BackText}}</a></p>
</main>
</body>
</html>
`))

type pageData struct {
	Title, Message string // in English: writeMailPage translates them
	Action         string // the one button's form action, if any
	Button         string // its label ("": Unsubscribe)
	Back           string // the English path of the site's page to go back to
	// set by writeMailPage: the page's language, the link's text
	Lang, BackText string
}

// mailPageKeys are the catalogue's keys of the pages' texts (area
// mailPage), found by their English as the API's messages are
// (translate): the handlers write the English.
var mailPageKeys = []string{
	"mailPage.unsubscribe", "mailPage.linkNotValid", "mailPage.confirmAlertTitle", "mailPage.confirmAlertMessage",
	"mailPage.confirmAlertButton", "mailPage.confirmLinkInvalid", "mailPage.alertConfirmedTitle", "mailPage.alertConfirmedMessage",
	"mailPage.alertUnsubscribeInvalid", "mailPage.alertUnsubscribeTitle", "mailPage.alertUnsubscribeMessage",
	"mailPage.unsubscribedTitle", "mailPage.alertUnsubscribedMessage", "mailPage.followLinkInvalid", "mailPage.unfollowTitle",
	"mailPage.unfollowMessage", "mailPage.unfollowButton", "mailPage.unfollowedMessage", "mailPage.subscriptionFailed",
	"mailPage.formUnreadable", "mailPage.newsletterLinkInvalid", "mailPage.newsletterUnsubscribeTitle",
	"mailPage.newsletterUnsubscribeMessage", "mailPage.ssoFailed",
}

// writeMailPage answers status with the page, in the reader's language
// (the request's Accept-Language: a link opened from an e-mail carries
// the browser's), its way back to the site's page in that language. The
// e-mail link's token is in the URL: no referrer leaves the page, and it
// is never cached.
func writeMailPage(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	lang := requestLanguage(r)
	if d.Button == "" {
		d.Button = "Unsubscribe"
	}
	d.Title, d.Message, d.Button = translate(lang, d.Title), translate(lang, d.Message), translate(lang, d.Button)
	d.Lang, d.Back, d.BackText = lang.Code, lang.Path(d.Back), i18n.T(lang.Code, "mailPage.backToSite", nil)
	var b bytes.Buffer
	if err := mailPage.Execute(&b, d); err != nil {
		slog.Error("api: mail page", "err", err)
	}
	hdr := w.Header()
	hdr.Set("Content-Type", "text/html; charset=utf-8")
	hdr.Set("Cache-Control", "no-store")
	hdr.Set("Referrer-Policy", "no-referrer")
	hdr.Set("X-Content-Type-Options", "nosniff")
	hdr.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// rOneClickBody is the body of an e-mail's unsubscribe link's POST: a
// mail client's one-click request (RFC 8058), or the link page's button.
var rOneClickBody = &apispec.Body{Content: []apispec.Content{{MediaType: "application/x-www-form-urlencoded", Raw: map[string]any{"properties": map[string]any{"List-Unsubscribe": map[string]any{"enum": []any{"One-Click"}, "type": "string"}}, "type": "object"}}}}

// unsubscribeLinkResponses are the answers of unsubscribeLink for a
// caller whose done writes a page.
var unsubscribeLinkResponses = []*apispec.Response{
	{Status: 200, Description: "Stopped (or already): JSON for a one-click request, else a page.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[UnsubscribeResponse]()}, {MediaType: "text/html", Raw: map[string]any{"type": "string"}}}},
	{Status: 400, Description: "The token is not valid.",
		Content: []apispec.Content{{MediaType: "application/json", Type: reflect.TypeFor[Error]()}}},
	rInternalError.At(500),
}

// UnsubscribeResponse answers a one-click unsubscribe.
type UnsubscribeResponse struct {
	Status string `json:"status"` // "unsubscribed"
}

// unsubscribeLink is the POST of an e-mail's unsubscribe link
// (?token=), without signing in: parse reads the token's id (its error
// is the 400's message), stop stops what it names (stopping twice is no
// error). A mail client's one-click request (RFC 8058, mail.IsOneClick;
// or a body that is no form) gets 200 JSON; the link page's button
// (another form) gets done's answer.
func (h *Handler) unsubscribeLink(w http.ResponseWriter, r *http.Request, token string, parse func(string) (string, error),
	stop func(ctx context.Context, id string) error, done func(http.ResponseWriter, *http.Request)) {
	id, err := parse(token)
	if err != nil {
		h.writeError(w, r, &Error{Status: http.StatusBadRequest, Message: err.Error(), Fields: map[string]string{"token": "not valid"}})
		return
	}
	oneClick := true
	if isForm(r) {
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		if err := r.ParseForm(); err == nil {
			oneClick = mail.IsOneClick(r.PostForm)
		}
	}
	if err := stop(r.Context(), id); err != nil {
		h.writeError(w, r, err)
		return
	}
	if !oneClick {
		done(w, r)
		return
	}
	writeJSON(w, http.StatusOK, UnsubscribeResponse{Status: "unsubscribed"})
}
