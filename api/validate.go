package api

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The accounts' validation rules and messages, the same as the sign-in and
// sign-up forms show before sending.
const (
	minUsername = 3
	maxUsername = 50
	minPassword = 6
	maxPassword = 128 // argon2id takes any length; this bounds the work a request can ask
	maxName     = 100
	maxEmail    = 254 // RFC 5321's path limit
)

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

func checkUsername(f fieldErrors, username string) {
	n := utf8.RuneCountInString(username)
	switch {
	case n < minUsername:
		f.add("username", "Username must be at least 3 characters")
	case n > maxUsername:
		f.add("username", "Username too long")
	case hasControl(username) || strings.TrimSpace(username) != username:
		f.add("username", "Username must not start or end with spaces or contain control characters")
	}
}

func checkPassword(f fieldErrors, field, password string) {
	n := utf8.RuneCountInString(password)
	switch {
	case n < minPassword:
		f.add(field, "Password must be at least 6 characters")
	case n > maxPassword:
		f.add(field, "Password too long")
	}
}

func checkEmail(f fieldErrors, email string) {
	if len(email) > maxEmail || !validEmail(email) {
		f.add("email", "Invalid email address")
	}
}

func checkName(f fieldErrors, field, label, name string) {
	switch {
	case strings.TrimSpace(name) == "":
		f.add(field, label+" is required")
	case utf8.RuneCountInString(name) > maxName:
		f.add(field, label+" too long")
	case hasControl(name):
		f.add(field, label+" must not contain control characters")
	}
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
