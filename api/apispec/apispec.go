// Package apispec describes an HTTP API as data: each operation declared
// once, with its parameters, body and responses, and the parts operations
// share. Package api declares RegPulse's API with it, routes and checks
// requests from it, and package openapigen writes the OpenAPI document
// from it. It holds no behaviour of its own and imports nothing beyond
// the standard library, so the API binary stays small.
package apispec

import (
	"reflect"
	"strconv"
)

// API is the whole description.
type API struct {
	Title, Version, Description string
	Server                      string // the base path every operation's Path is under
	Operations                  []*Operation
	// The parts operations share, each under its component name.
	Params    map[string]*Param
	Headers   map[string]*Header
	Responses map[string]*Response
	Security  map[string]*SecurityScheme
	// Schemas are the Go types the API reads and writes, each a component
	// of its own; Enums the enumerations named as components.
	Schemas map[string]reflect.Type
	Enums   map[string][]string
	// Docs describe the schemas and their properties.
	Docs map[string]SchemaDoc
	// Rules are the checks the API applies to body fields (a field's
	// `check` tag names one), with the bounds the document states.
	Rules map[string]Rule
}

// Operation is one call.
type Operation struct {
	ID, Method, Path     string
	Summary, Description string
	Params               []*Param
	Body                 *Body
	Responses            []*Response
	// Security names the schemes the call accepts, each an alternative;
	// "" among them is none (anyone, or with a scheme's credentials);
	// no name at all: open to anyone, with none.
	Security []string
	// KeyScopes are the scopes of the API keys that may make the call
	// (none: no key): the document's x-regpulse-scopes.
	KeyScopes []string
	// Permission is what a call of one organisation's (its path under
	// /organisations/{id}) asks of the signed-in user's role there, by a
	// name package api gives its rule ("read", "decide", "review",
	// "manage"): the router checks it before the handler runs, and the
	// authorization table tests each role against it. "" for a call of
	// no organisation.
	Permission string
}

// Param is a query or path parameter. Its schema is also its rules: an
// enumeration whose values include "all" is a filter ("", "all" or a value,
// matched in any case); another enumeration is a choice with a default;
// an integer is a whole number within its bounds; a string is at most
// MaxLength characters.
type Param struct {
	Component   string // its name among the shared parameters ("": the operation's own)
	Name, In    string // In: "query" or "path"
	Description string
	Required    bool
	// RequiredMessage ends the message of a required parameter left out
	// ("is required: " + RequiredMessage).
	RequiredMessage string
	// Raw: the handler reads and checks the parameter itself (a page of
	// its own answers a bad one); the declaration only documents it.
	Raw    bool
	Schema Schema
}

// Schema is a parameter's or header's type and bounds.
type Schema struct {
	Type      string // "string", "integer"
	Format    string
	Enum      []string
	Default   any
	Minimum   *int
	Maximum   *int
	MinLength *int
	MaxLength *int
}

// Filter reports whether the parameter is an enumeration filter.
func (s Schema) Filter() bool {
	for _, v := range s.Enum {
		if v == "all" {
			return true
		}
	}
	return false
}

// Values are the enumeration's values but "" and "all".
func (s Schema) Values() []string {
	var out []string
	for _, v := range s.Enum {
		if v != "" && v != "all" {
			out = append(out, v)
		}
	}
	return out
}

// Int is n as a bound.
func Int(n int) *int { return &n }

// Body is a request body.
type Body struct {
	Description string
	Required    bool
	Content     []Content
}

// Content is a body in one media type: the Go type it decodes to, or a
// schema of its own (Raw: e.g. a file's bytes).
type Content struct {
	MediaType string
	Type      reflect.Type
	Raw       map[string]any
}

// Response is one status's answer.
type Response struct {
	Component   string // its name among the shared responses ("": the operation's own)
	Status      int
	Description string
	Content     []Content
	Headers     []*Header
}

// At is the shared response r answering with status.
func (r *Response) At(status int) *Response {
	c := *r
	c.Status = status
	return &c
}

// StatusText is the response's status as the document keys it.
func (r *Response) StatusText() string { return strconv.Itoa(r.Status) }

// Header is a response header.
type Header struct {
	Component   string
	Name        string
	Description string
	Schema      Schema
}

// SecurityScheme is how a call is authenticated.
type SecurityScheme struct {
	Type, Scheme, BearerFormat, Description string
}

// SchemaDoc describes a schema and, by JSON name, its properties.
type SchemaDoc struct {
	Description string
	Properties  map[string]PropertyDoc
}

// PropertyDoc describes a property: what Go's type cannot say.
type PropertyDoc struct {
	Description string
	Format      string
	Minimum     *float64
	Maximum     *float64
}

// Rule is a check of a body field (a string): whether it is trimmed
// first, its bounds in characters (0: none), its format, whether control
// characters or surrounding spaces are refused, and the message of each
// failure, which forms show too. The checks run in that order; the first
// failing one is the message.
type Rule struct {
	Trim                 bool
	MinLength, MaxLength int
	Format               string // "email": zod's e-mail rule
	NoControl            bool
	NoEdgeSpaces         bool
	// Messages by what failed: "required" (empty), "short", "long",
	// "control" (control characters or surrounding spaces), "format".
	Messages map[string]string
}
