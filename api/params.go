package api

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Query parameters are read by their declarations (operation.go):
//
//   - An absent or empty parameter, or the literal "all" (any case), means
//     no filter (pages send "" for "all").
//   - Enumerated values match case-insensitively and are used in their
//     canonical spelling (source=rbi is source=RBI).
//   - limit is a whole number from 1 to catalog.MaxLimit; each call has a
//     default. offset is a whole number, 0 when absent.
//   - A parameter the call does not know, or one given twice, is an error.
//
// Every problem is reported at once: 400 with a field per bad parameter.
const maxSearchLength = 200 // characters

// params reads and checks a request's query parameters.
type params struct {
	values url.Values
	known  []string
	fields map[string]string
}

func newParams(r *http.Request) *params {
	return &params{values: r.URL.Query(), fields: map[string]string{}}
}

func (p *params) fail(name, format string, args ...any) {
	if _, dup := p.fields[name]; !dup {
		p.fields[name] = fmt.Sprintf(format, args...)
	}
}

// get returns the parameter's trimmed value; "" when absent or empty.
func (p *params) get(name string) string {
	p.known = append(p.known, name)
	vs := p.values[name]
	switch {
	case len(vs) == 0:
		return ""
	case len(vs) > 1:
		p.fail(name, "is given %d times; give it once", len(vs))
		return ""
	case !utf8.ValidString(vs[0]):
		p.fail(name, "is not valid UTF-8")
		return ""
	}
	return strings.TrimSpace(vs[0])
}

// whole reads a whole number within [min, max] (max nil: no bound).
func (p *params) whole(name, v string, minimum, maximum *int, def int) int {
	n, ok := wholeNumber(v)
	lo := 0
	if minimum != nil {
		lo = *minimum
	}
	if ok && n >= lo && (maximum == nil || n <= *maximum) {
		return n
	}
	if maximum == nil {
		p.fail(name, "%q is not a whole number (%d or more)", v, lo)
	} else {
		p.fail(name, "%q is not a whole number from %d to %d", v, lo, *maximum)
	}
	return def
}

// filter returns the canonical spelling of v among allowed, or "" for no
// filter ("" or "all").
func (p *params) filter(name, v string, allowed []string) string {
	if v == "" || strings.EqualFold(v, "all") {
		return ""
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a
		}
	}
	p.fail(name, "unknown %s %q; use one of: %s (or all)", name, v, strings.Join(allowed, ", "))
	return ""
}

// choose is like filter for a parameter with a default and no "all".
func (p *params) choose(name, v, def string, allowed []string) string {
	if v == "" {
		return def
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a
		}
	}
	p.fail(name, "unknown %s %q; use one of: %s", name, v, strings.Join(allowed, ", "))
	return def
}

// text returns v when it is at most max characters.
func (p *params) text(name, v string, maxLength int) string {
	if n := len([]rune(v)); n > maxLength {
		p.fail(name, "is %d characters; use at most %d", n, maxLength)
		return ""
	}
	return v
}

// date returns v when it is a date written YYYY-MM-DD.
func (p *params) date(name, v string) string {
	if _, err := time.Parse(time.DateOnly, v); err != nil || len(v) != len(time.DateOnly) {
		p.fail(name, "%q is not a date (YYYY-MM-DD)", v)
		return ""
	}
	return v
}

// wholeNumber reads digits only: no sign, no spaces, no fraction.
func wholeNumber(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= 0 && strings.TrimLeft(v, "0123456789") == ""
}

// err reports unknown parameters and every problem found, or nil.
func (p *params) err() error {
	takes := "none"
	if len(p.known) > 0 {
		takes = strings.Join(p.known, ", ")
	}
	for name := range p.values {
		if !slices.Contains(p.known, name) {
			p.fail(name, "unknown parameter; this call takes: %s", takes)
		}
	}
	if len(p.fields) == 0 {
		return nil
	}
	names := make([]string, 0, len(p.fields))
	for n := range p.fields {
		names = append(names, n)
	}
	slices.Sort(names)
	word := "parameter"
	if len(names) > 1 {
		word = "parameters"
	}
	return &Error{Status: http.StatusBadRequest, Message: "invalid query " + word + ": " + strings.Join(names, ", "), Fields: p.fields}
}
