package api

import (
	"maps"
	"reflect"
	"regpulse/internal/apikeys"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"regpulse/api/apispec"
	"regpulse/internal/decisions"
	"regpulse/internal/register"
	"regpulse/internal/search"
)

// The checks of the bodies' fields, declared once: a request type's
// field names its rule with a `check` tag, checkFields applies them, the
// document states their bounds, and the forms' zod rules are generated
// from them (islands/src/lib/rules.gen.ts, by go generate ./api).
const (
	maxPassword = 128 // argon2id takes any length; this bounds the work a request can ask
	maxName     = 100
	maxEmail    = 254 // RFC 5321's path limit
)

// nameRule is the rule of a person's name labelled label; required or not.
func nameRule(label string, required bool) apispec.Rule {
	r := apispec.Rule{Trim: true, MaxLength: maxName, NoControl: true, Messages: map[string]string{
		"long": label + " too long", "control": label + " must not contain control characters"}}
	if required {
		r.Messages["required"] = label + " is required"
	}
	return r
}

// emailRule is an e-mail address's rule, with message when it is not one.
func emailRule(message string) apispec.Rule {
	return apispec.Rule{Trim: true, MaxLength: maxEmail, Format: "email",
		Messages: map[string]string{"long": message, "format": message}}
}

// required is the rule of a field that must not be empty.
func required(message string) apispec.Rule {
	return apispec.Rule{Messages: map[string]string{"required": message}}
}

// rules are every field rule, by name.
var rules = map[string]apispec.Rule{
	"username": {MinLength: 3, MaxLength: 50, NoControl: true, NoEdgeSpaces: true, Messages: map[string]string{
		"short": "Username must be at least 3 characters", "long": "Username too long",
		"control": "Username must not start or end with spaces or contain control characters"}},
	"password": {MinLength: 6, MaxLength: maxPassword, Messages: map[string]string{
		"short": "Password must be at least 6 characters", "long": "Password too long"}},
	"email":           emailRule("Invalid email address"),
	"firstName":       nameRule("First name", true),
	"lastName":        nameRule("Last name", true),
	"loginUsername":   required("Username is required"),
	"loginPassword":   {MaxLength: 4 * maxPassword, Messages: map[string]string{"required": "Password is required", "long": "Password too long"}},
	"currentPassword": required("Current password is required"),
	"subscriberEmail": emailRule("Please enter a valid email address"),
	"optionalFirst":   nameRule("First name", false),
	"obligationNote":  {Trim: true, MaxLength: register.MaxNote, Messages: map[string]string{"long": "Note too long"}},
	"optionalLast":    nameRule("Last name", false),
	"alertName": {Trim: true, MaxLength: maxName, NoControl: true, Messages: map[string]string{"required": "Name is required",
		"long": "Name too long", "control": "Name must not contain control characters"}},
	"organisationName": {Trim: true, MaxLength: maxName, NoControl: true, Messages: map[string]string{"required": "Name is required",
		"long": "Name too long", "control": "Name must not contain control characters"}},
	"apiKeyName": {Trim: true, MaxLength: apikeys.MaxNameLength, NoControl: true, Messages: map[string]string{"required": "Name is required",
		"long": "Name too long", "control": "Name must not contain control characters"}},
	"inviteEmail":  emailRule("Invalid email address"),
	"inviteToken":  {Trim: true, MaxLength: 300, Messages: map[string]string{"required": "The invitation's token is required", "long": "Token too long"}},
	"decisionNote": {Trim: true, MaxLength: decisions.MaxNote, Messages: map[string]string{"long": "Note too long"}},
	"decisionDue":  {Trim: true, MaxLength: 20, Messages: map[string]string{"long": "Due date too long"}},
	"commentBody": {Trim: true, MaxLength: decisions.MaxNote, Messages: map[string]string{"required": "The comment is empty",
		"long": "Comment too long"}},
	"evidenceLink": {Trim: true, MaxLength: decisions.MaxEvidenceLink, Messages: map[string]string{"required": "The link is required",
		"long": "Link too long"}},
	"reviewDecision": {Trim: true, MaxLength: 20, Messages: map[string]string{"required": "Accept or reject the evidence", "long": "Accepted or rejected"}},
	"memberFrom":     {Trim: true, MaxLength: 64, Messages: map[string]string{"required": "The member whose items move is required", "long": "Not a user id"}},
	"memberTo":       {Trim: true, MaxLength: 64, Messages: map[string]string{"required": "The member who takes them is required", "long": "Not a user id"}},
	"channelUrl": {Trim: true, MaxLength: 2000, NoControl: true, Messages: map[string]string{
		"long": "URL too long", "control": "URL must not contain control characters"}},
	"alertQuery": {Trim: true, MaxLength: search.MaxQueryLength, NoControl: true, Messages: map[string]string{
		"long": "Search too long", "control": "Search must not contain control characters"}},
}

// fieldErrors collects one message per field, the first found.
type fieldErrors map[string]string

func (f fieldErrors) add(field, msg string) {
	if _, ok := f[field]; !ok {
		f[field] = msg
	}
}

// err is a 400 naming every field at fault, or nil.
func (f fieldErrors) err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Status: 400, Message: "invalid " + strings.Join(slices.Sorted(maps.Keys(f)), ", "), Fields: f}
}

func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}

// checkFields trims the string fields of *v (a request body) whose rule
// says so and checks each against its rule (its `check` tag), adding a
// message per field at fault to f.
func checkFields(f fieldErrors, v any) {
	rv := reflect.ValueOf(v).Elem()
	t := rv.Type()
	for i := range t.NumField() {
		name, ok := t.Field(i).Tag.Lookup("check")
		if !ok {
			continue
		}
		r, ok := rules[name]
		if !ok {
			panic("api: no field rule " + name)
		}
		field := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		value := rv.Field(i)
		if r.Trim {
			value.SetString(strings.TrimSpace(value.String()))
		}
		if msg, bad := checkRule(r, value.String()); bad {
			f.add(field, msg)
		}
	}
}

// checkRule checks s against r: the first message that applies.
func checkRule(r apispec.Rule, s string) (string, bool) {
	n := utf8.RuneCountInString(s)
	fail := func(what string) (string, bool) { return r.Messages[what], true }
	switch {
	case s == "" && r.Messages["required"] != "":
		return fail("required")
	case s == "" && r.Format != "":
		return fail("format")
	case r.MinLength > 0 && n < r.MinLength:
		return fail("short")
	case r.MaxLength > 0 && n > r.MaxLength:
		return fail("long")
	case r.NoControl && hasControl(s), r.NoEdgeSpaces && strings.TrimSpace(s) != s:
		return fail("control")
	case r.Format == "email" && !validEmail(s):
		return fail("format")
	}
	return "", false
}

// validEmail is zod's e-mail rule, which the forms use:
// ^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$
func validEmail(s string) bool {
	local, domain, ok := strings.Cut(s, "@")
	if !ok || local == "" || local[0] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(local); i++ {
		c := local[i]
		if !(isAlnum(c) || strings.IndexByte("_'+-.", c) >= 0) {
			return false
		}
	}
	if last := local[len(local)-1]; last == '.' || last == '\'' {
		return false
	}
	labels := strings.Split(domain, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels[:len(labels)-1] {
		if l == "" || !isAlnum(l[0]) {
			return false
		}
		for i := 0; i < len(l); i++ {
			if !isAlnum(l[i]) && l[i] != '-' {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 {
		return false
	}
	for i := 0; i < len(tld); i++ {
		if !(tld[i] >= 'a' && tld[i] <= 'z' || tld[i] >= 'A' && tld[i] <= 'Z') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// checkChoices checks each value of a preference list against allowed.
func checkChoices(f fieldErrors, field string, values, allowed []string) {
	if values == nil {
		f.add(field, "is required (a list, possibly empty)")
		return
	}
	seen := map[string]bool{}
	for _, v := range values {
		if !slices.Contains(allowed, v) {
			f.add(field, "unknown value "+strconv.Quote(v)+"; use any of: "+strings.Join(allowed, ", "))
			return
		}
		if seen[v] {
			f.add(field, "value "+strconv.Quote(v)+" is given twice")
			return
		}
		seen[v] = true
	}
}
