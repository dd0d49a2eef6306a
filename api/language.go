package api

import (
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"regpulse/internal/i18n"
)

// A reader's language (issue 48). The islands send Accept-Language with
// their page's language; a signup and a subscription record it as the
// language of the person's e-mails, and the messages of the API's errors
// a person reads (forms, toasts) are in it. Machine-readable parts (the
// status, the fields' names, requestId) never change, and the English
// text is the text the API always sent.

// acceptLanguage is the first of the site's languages an Accept-Language
// header names, by preference (q, then order); English when it names
// none. A tag matches by its primary subtag (hi-IN is Hindi); q=0 and *
// choose nothing.
func acceptLanguage(header string) i18n.Language {
	type choice struct {
		lang i18n.Language
		q    float64
	}
	var choices []choice
	for part := range strings.SplitSeq(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			name, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(name), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					f = 0
				}
				q = f
			}
		}
		primary, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if l, ok := i18n.Lookup(primary); ok && q > 0 {
			choices = append(choices, choice{l, q})
		}
	}
	slices.SortStableFunc(choices, func(a, b choice) int {
		switch {
		case a.q > b.q:
			return -1
		case a.q < b.q:
			return 1
		}
		return 0
	})
	if len(choices) == 0 {
		return i18n.English
	}
	return choices[0].lang
}

// requestLanguage is the language of r's reader (acceptLanguage).
func requestLanguage(r *http.Request) i18n.Language {
	return acceptLanguage(r.Header.Get("Accept-Language"))
}

// messageKeys are the catalogue's keys of the messages the API's errors
// and answers show a person. A message is found by its English text (the
// key's English, a placeholder matching any text), so the handlers keep
// building the English they always did and writeError translates it.
var messageKeys = []string{
	"api.invalidCredentials", "api.signInRequired", "api.usernameTaken", "api.emailTaken", "api.invalidFields",
	"api.usernameShort", "api.usernameLong", "api.usernameControl", "api.usernameRequired",
	"api.passwordShort", "api.passwordLong", "api.passwordRequired", "api.currentPasswordRequired", "api.currentPasswordIncorrect",
	"api.emailInvalid", "api.emailEnter",
	"api.firstNameRequired", "api.firstNameLong", "api.firstNameControl",
	"api.lastNameRequired", "api.lastNameLong", "api.lastNameControl",
	"api.nameRequired", "api.nameLong", "api.nameControl",
	"api.noteLong", "api.commentEmpty", "api.commentLong", "api.linkRequired", "api.linkLong", "api.dueDateLong",
	"api.urlLong", "api.urlControl", "api.searchLong", "api.searchControl",
	"api.tooManyAttempts", "api.tooManyInvitations", "api.tooManyUploads", "api.busy", "api.internalError",
	"api.adminsOnly", "api.keyInvalid",
	"api.subscribed", "api.subscriptionUpdated", "api.subscriptionReactivated",
}

// messagePattern is one message's English as a pattern: its key, the
// whole text with each placeholder a group, and the placeholders' names.
type messagePattern struct {
	key   string
	re    *regexp.Regexp
	names []string
}

var placeholderRe = regexp.MustCompile(`\{\{ \.([A-Z][A-Za-z0-9]*) \}\}`)

var messagePatterns = sync.OnceValue(func() []messagePattern {
	out := make([]messagePattern, 0, len(messageKeys)+len(mailPageKeys))
	for _, key := range slices.Concat(messageKeys, mailPageKeys) {
		en := i18n.T(i18n.English.Code, key, nil) // placeholders left as written
		var names []string
		var b strings.Builder
		b.WriteString("^")
		last := 0
		for _, m := range placeholderRe.FindAllStringSubmatchIndex(en, -1) {
			b.WriteString(regexp.QuoteMeta(en[last:m[0]]))
			b.WriteString("(.+?)")
			names = append(names, en[m[2]:m[3]])
			last = m[1]
		}
		b.WriteString(regexp.QuoteMeta(en[last:]))
		b.WriteString("$")
		out = append(out, messagePattern{key: key, re: regexp.MustCompile(b.String()), names: names})
	}
	return out
})

// translate is the English message msg in lang: the catalogue's text of
// the key whose English it is, its placeholders filled with what msg has
// in their place; msg itself when no key's English is msg.
func translate(lang i18n.Language, msg string) string {
	if lang.Code == i18n.English.Code || msg == "" {
		return msg
	}
	for _, p := range messagePatterns() {
		m := p.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		data := map[string]any{}
		for i, name := range p.names {
			data[name] = m[i+1]
		}
		return i18n.T(lang.Code, p.key, data)
	}
	return msg
}

// localize is e with its message and its fields' messages in r's
// language: a copy (errors are shared values), or e itself in English.
func localize(r *http.Request, e *Error) *Error {
	lang := requestLanguage(r)
	if lang.Code == i18n.English.Code {
		return e
	}
	c := *e
	c.Message = translate(lang, e.Message)
	if e.Fields != nil {
		c.Fields = make(map[string]string, len(e.Fields))
		for k, v := range e.Fields {
			c.Fields[k] = translate(lang, v)
		}
	}
	return &c
}
