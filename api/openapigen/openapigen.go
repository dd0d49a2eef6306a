// Package openapigen writes the API's OpenAPI document from its
// declarations (api.Spec): the paths, parameters and responses as
// declared, the component schemas derived from the Go types the API reads
// and writes (kin-openapi's openapi3gen, with the rules below), and the
// forms' field rules for the islands. `go generate ./api` runs it
// (api/openapigen/write); its test fails when a written file is stale.
// It is a package of its own so that the API binary does not carry
// kin-openapi.
package openapigen

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"

	"regpulse/api"
	"regpulse/api/apispec"
	"regpulse/internal/catalog"
)

// Document is the OpenAPI document of spec, as api/openapi.json holds it.
func Document(spec *apispec.API) ([]byte, error) {
	doc := &openapi3.T{
		OpenAPI: "3.0.3",
		Info:    &openapi3.Info{Title: spec.Title, Version: spec.Version, Description: spec.Description},
		Servers: openapi3.Servers{{URL: spec.Server}},
		Paths:   openapi3.NewPaths(),
		Components: &openapi3.Components{
			Parameters:      openapi3.ParametersMap{},
			Headers:         openapi3.Headers{},
			Responses:       openapi3.ResponseBodies{},
			SecuritySchemes: openapi3.SecuritySchemes{},
		},
	}
	schemas, err := Schemas(spec)
	if err != nil {
		return nil, err
	}
	doc.Components.Schemas = schemas
	types := map[reflect.Type]string{}
	for name, t := range spec.Schemas {
		types[t] = name
	}
	for name, s := range spec.Security {
		doc.Components.SecuritySchemes[name] = &openapi3.SecuritySchemeRef{Value: &openapi3.SecurityScheme{
			Type: s.Type, Scheme: s.Scheme, BearerFormat: s.BearerFormat, Description: s.Description}}
	}
	for name, p := range spec.Params {
		doc.Components.Parameters[name] = &openapi3.ParameterRef{Value: parameter(p)}
	}
	for name, h := range spec.Headers {
		doc.Components.Headers[name] = &openapi3.HeaderRef{Value: header(h)}
	}
	for name, r := range spec.Responses {
		res, err := response(r, types)
		if err != nil {
			return nil, fmt.Errorf("response %s: %w", name, err)
		}
		doc.Components.Responses[name] = &openapi3.ResponseRef{Value: res}
	}
	for _, op := range spec.Operations {
		o, err := operation(op, types)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", op.Method, op.Path, err)
		}
		item := doc.Paths.Value(op.Path)
		if item == nil {
			item = &openapi3.PathItem{}
			doc.Paths.Set(op.Path, item)
		}
		item.SetOperation(op.Method, o)
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

func operation(op *apispec.Operation, types map[reflect.Type]string) (*openapi3.Operation, error) {
	o := &openapi3.Operation{OperationID: op.ID, Summary: op.Summary, Description: op.Description,
		Responses: openapi3.NewResponses()}
	o.Responses.Delete("default")
	for _, p := range op.Params {
		if p.Component != "" {
			o.Parameters = append(o.Parameters, &openapi3.ParameterRef{Ref: "#/components/parameters/" + p.Component})
		} else {
			o.Parameters = append(o.Parameters, &openapi3.ParameterRef{Value: parameter(p)})
		}
	}
	if b := op.Body; b != nil {
		content, err := contents(b.Content, types)
		if err != nil {
			return nil, err
		}
		o.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Description: b.Description, Required: b.Required, Content: content}}
	}
	for _, r := range op.Responses {
		if r.Component != "" {
			o.Responses.Set(r.StatusText(), &openapi3.ResponseRef{Ref: "#/components/responses/" + r.Component})
			continue
		}
		res, err := response(r, types)
		if err != nil {
			return nil, err
		}
		o.Responses.Set(r.StatusText(), &openapi3.ResponseRef{Value: res})
	}
	// Every operation says how it is authenticated: a public one by an
	// empty list (security: []), which a client's generator reads as "send
	// no credentials"; otherwise each scheme is an alternative it accepts,
	// {} among them meaning "or none". OpenAPI 3.0 gives scopes to OAuth 2
	// schemes only, so the scopes of the API keys that may call it are
	// its x-regpulse-scopes (an empty list: no key).
	o.Security = &openapi3.SecurityRequirements{}
	for _, s := range op.Security {
		req := openapi3.SecurityRequirement{}
		if s != "" {
			req[s] = []string{}
		}
		*o.Security = append(*o.Security, req)
	}
	o.Extensions = map[string]any{"x-regpulse-scopes": append([]string{}, op.KeyScopes...)}
	return o, nil
}

func parameter(p *apispec.Param) *openapi3.Parameter {
	return &openapi3.Parameter{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required,
		Schema: openapi3.NewSchemaRef("", schema(p.Schema))}
}

func header(h *apispec.Header) *openapi3.Header {
	return &openapi3.Header{Parameter: openapi3.Parameter{Description: h.Description, Schema: openapi3.NewSchemaRef("", schema(h.Schema))}}
}

func schema(s apispec.Schema) *openapi3.Schema {
	out := &openapi3.Schema{Type: &openapi3.Types{s.Type}, Format: s.Format, Default: s.Default}
	if s.Enum != nil {
		out.Enum = anys(s.Enum)
	}
	if s.Minimum != nil {
		out.Min = ptr(float64(*s.Minimum))
	}
	if s.Maximum != nil {
		out.Max = ptr(float64(*s.Maximum))
	}
	if s.MinLength != nil {
		out.MinLength = uint64(*s.MinLength)
	}
	if s.MaxLength != nil {
		out.MaxLength = ptr(uint64(*s.MaxLength))
	}
	return out
}

func response(r *apispec.Response, types map[reflect.Type]string) (*openapi3.Response, error) {
	res := &openapi3.Response{Description: &r.Description}
	if len(r.Content) > 0 {
		content, err := contents(r.Content, types)
		if err != nil {
			return nil, err
		}
		res.Content = content
	}
	for _, h := range r.Headers {
		if res.Headers == nil {
			res.Headers = openapi3.Headers{}
		}
		if h.Component != "" {
			res.Headers[h.Name] = &openapi3.HeaderRef{Ref: "#/components/headers/" + h.Component}
		} else {
			res.Headers[h.Name] = &openapi3.HeaderRef{Value: header(h)}
		}
	}
	return res, nil
}

// contents is the media types of a body, each by reference to its Go
// type's component (an array of one for a slice) or with its own schema.
func contents(cs []apispec.Content, types map[reflect.Type]string) (openapi3.Content, error) {
	out := openapi3.Content{}
	for _, c := range cs {
		var s *openapi3.SchemaRef
		switch t := c.Type; {
		case t == nil:
			raw, err := json.Marshal(c.Raw)
			if err != nil {
				return nil, err
			}
			var v openapi3.Schema
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, err
			}
			s = openapi3.NewSchemaRef("", &v)
		case t.Kind() == reflect.Slice && types[t.Elem()] != "":
			s = openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"array"},
				Items: &openapi3.SchemaRef{Ref: "#/components/schemas/" + types[t.Elem()]}})
		case types[t] != "":
			s = &openapi3.SchemaRef{Ref: "#/components/schemas/" + types[t]}
		default:
			return nil, fmt.Errorf("%s has no component schema (api's schemaTypes)", t)
		}
		out[c.MediaType] = &openapi3.MediaType{Schema: s}
	}
	return out, nil
}

// Schemas are spec's component schemas: each Go type's, derived, and each
// enumeration's, with spec's docs and the bounds of the field rules.
func Schemas(spec *apispec.API) (openapi3.Schemas, error) {
	out := openapi3.Schemas{}
	for name, values := range spec.Enums {
		out[name] = openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: anys(values),
			Description: spec.Docs[name].Description})
	}
	components := map[reflect.Type]string{}
	for name, t := range spec.Schemas {
		components[t] = name
	}
	gen := openapi3gen.NewGenerator(openapi3gen.SchemaCustomizer(func(_ string, t reflect.Type, tag reflect.StructTag, s *openapi3.Schema) error {
		return customizeSchema(t, tag, s, components, spec)
	}))
	for name, t := range spec.Schemas {
		ref, err := gen.GenerateSchemaRef(t)
		if err != nil {
			return nil, err
		}
		applyDocs(ref.Value, spec.Docs[name])
		// A struct met inside another is its component, by reference.
		linkComponents(ref.Value, name)
		out[name] = openapi3.NewSchemaRef("", ref.Value)
	}
	return out, nil
}

var (
	dateType      = reflect.TypeFor[catalog.Date]()
	optStringType = reflect.TypeFor[catalog.OptString]()
	optIntType    = reflect.TypeFor[catalog.OptInt]()
)

// customizeSchema says what reflection alone cannot: catalog.Date is a
// date; OptString and OptInt are null when absent; an enum tag names the
// allowed values; a check tag's rule bounds a body field; every property
// of a struct is required (absent values are null), except omitempty
// ones; and structs allow no other property.
func customizeSchema(t reflect.Type, tag reflect.StructTag, s *openapi3.Schema, components map[reflect.Type]string, spec *apispec.API) error {
	switch t {
	case dateType:
		s.Type, s.Format, s.Properties = &openapi3.Types{"string"}, "date", nil
	case optStringType, optIntType:
		s.Nullable = true
	}
	if t.Kind() == reflect.Pointer && components[t.Elem()] != "" {
		s.Nullable = true // a nil pointer to a component is null
	}
	// A list's enum tag is its items' (openapi3gen gives them the tag).
	if name := tag.Get("enum"); name != "" && t.Kind() != reflect.Slice {
		values, ok := spec.Enums[name]
		if !ok {
			return fmt.Errorf("enum tag names unknown enumeration %s", name)
		}
		s.Enum = anys(values)
		if s.Nullable {
			// Null is one of the values: a reference to the enumeration
			// could not admit it (OpenAPI 3.0.3), so the values stay here.
			s.Enum = append(s.Enum, nil)
		} else {
			// The property refers to the enumeration's component
			// (linkComponents), so a client's generator makes one named
			// type of it rather than one per property.
			s.Extensions = map[string]any{"x-enum": name}
		}
	}
	if name := tag.Get("check"); name != "" {
		r, ok := spec.Rules[name]
		if !ok {
			return fmt.Errorf("check tag names unknown rule %s", name)
		}
		if r.MinLength > 0 {
			s.MinLength = uint64(r.MinLength)
		} else if r.Messages["required"] != "" {
			s.MinLength = 1
		}
		if r.MaxLength > 0 {
			s.MaxLength = ptr(uint64(r.MaxLength))
		}
		s.Format = r.Format
	}
	if t.Kind() == reflect.Struct && t != dateType && t != reflect.TypeFor[time.Time]() {
		s.Required = nil
		for _, f := range reflect.VisibleFields(t) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous || !f.IsExported() || name == "-" || name == "" || optional(t, f) {
				continue
			}
			s.Required = append(s.Required, name)
		}
		no := false
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: &no}
		if name, ok := components[t]; ok {
			s.Extensions = map[string]any{"x-component": name}
		}
	}
	return nil
}

// optional reports whether f, a field of t, may be left out: its JSON
// tag says omitempty, or that of a struct embedding it does (the requests
// embedding alerts.Filters take each filter as optional, while an Alert
// always has them).
func optional(t reflect.Type, f reflect.StructField) bool {
	for i := 1; i <= len(f.Index); i++ {
		_, opts, _ := strings.Cut(t.FieldByIndex(f.Index[:i]).Tag.Get("json"), ",")
		if slices.Contains(strings.Split(opts, ","), "omitempty") {
			return true
		}
	}
	return false
}

// applyDocs gives s and its properties what d says of them.
func applyDocs(s *openapi3.Schema, d apispec.SchemaDoc) {
	s.Description = d.Description
	for _, name := range slices.Sorted(maps.Keys(d.Properties)) {
		p, doc := s.Properties[name], d.Properties[name]
		if p == nil || p.Value == nil {
			continue
		}
		p.Value.Description = doc.Description
		if doc.Format != "" {
			p.Value.Format = doc.Format
		}
		p.Value.Min, p.Value.Max = doc.Minimum, doc.Maximum
	}
}

// linkComponents replaces the schema of every component met below s (an
// array's items, a property) and of every enumeration a property's enum
// tag names by a reference to it. openapi3gen names every other schema by
// its Go type in Ref, which is no reference: those go.
func linkComponents(s *openapi3.Schema, self string) {
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		ref.Ref = ""
		name, ok := ref.Value.Extensions["x-component"].(string)
		if !ok {
			name, ok = ref.Value.Extensions["x-enum"].(string)
		}
		if ok && name != self {
			*ref = *reference(name, ref.Value)
			return
		}
		children(ref.Value, walk)
	}
	delete(s.Extensions, "x-component")
	if len(s.Extensions) == 0 {
		s.Extensions = nil
	}
	children(s, walk)
}

// reference is a reference to the component name in place of v, its
// schema where a property has it. A reference admits nothing beside it
// (OpenAPI 3.0): a nullable one, or one with the property's description,
// wraps it in allOf. A nullable wrapper states the component's type, as
// nullable means nothing without one (OpenAPI 3.0.3); clients' generators
// read it as the component or null.
func reference(name string, v *openapi3.Schema) *openapi3.SchemaRef {
	ref := openapi3.NewSchemaRef("#/components/schemas/"+name, nil)
	if !v.Nullable && v.Description == "" {
		return ref
	}
	w := &openapi3.Schema{Description: v.Description, AllOf: openapi3.SchemaRefs{ref}}
	if v.Nullable {
		w.Type, w.Nullable = v.Type, true
	}
	return openapi3.NewSchemaRef("", w)
}

// children calls f with every schema directly below s.
func children(s *openapi3.Schema, f func(*openapi3.SchemaRef)) {
	f(s.Items)
	f(s.AdditionalProperties.Schema)
	for _, p := range s.Properties {
		f(p)
	}
}

func anys(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func ptr[T any](v T) *T { return &v }

// RulesTS is islands/src/lib/rules.gen.ts: the field rules of spec, from
// which the forms build their zod schemas.
func RulesTS(spec *apispec.API) ([]byte, error) {
	type rule struct {
		Trim         bool              `json:"trim,omitempty"`
		MinLength    int               `json:"minLength,omitempty"`
		MaxLength    int               `json:"maxLength,omitempty"`
		Format       string            `json:"format,omitempty"`
		NoControl    bool              `json:"noControl,omitempty"`
		NoEdgeSpaces bool              `json:"noEdgeSpaces,omitempty"`
		Messages     map[string]string `json:"messages"`
	}
	rules := map[string]rule{}
	for name, r := range spec.Rules {
		rules[name] = rule{r.Trim, r.MinLength, r.MaxLength, r.Format, r.NoControl, r.NoEdgeSpaces, r.Messages}
	}
	body, err := json.MarshalIndent(rules, "", "  ")
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("// Generated by `go generate ./api` from the API's field rules (api/validate.go): do not edit.\n")
	b.WriteString("// The forms build their zod schemas from these (lib/forms.tsx), so they check what the API checks, with its messages.\n\n")
	b.WriteString("export type Rule = {\n  trim?: boolean;\n  minLength?: number;\n  maxLength?: number;\n  format?: \"email\";\n  noControl?: boolean;\n  noEdgeSpaces?: boolean;\n  messages: Partial<Record<\"required\" | \"short\" | \"long\" | \"control\" | \"format\", string>>;\n};\n\n")
	b.WriteString("export const rules = ")
	b.Write(body)
	b.WriteString(" as const satisfies Record<string, Rule>;\n")
	return []byte(b.String()), nil
}

// Files are the files generation writes, by path from the repository's
// root, as they should be.
func Files() (map[string][]byte, error) {
	spec := api.Spec()
	doc, err := Document(spec)
	if err != nil {
		return nil, err
	}
	rules, err := RulesTS(spec)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"api/openapi.json": doc, "islands/src/lib/rules.gen.ts": rules}, nil
}
