package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/dashboard"
	"regpulse/internal/extract"
	"regpulse/internal/impact"
	"regpulse/internal/newsletter"
	"regpulse/internal/search"
)

var update = flag.Bool("update", false, "rewrite openapi.json's generated schemas from the Go types")

// schemaTypes are the components of openapi.json generated from Go types:
// the API writes exactly these types, so their schemas are derived, never
// written by hand. Everything else in the document (paths, parameters,
// headers, responses, and the description of each schema and property) is
// written by hand and kept as it is.
var schemaTypes = map[string]reflect.Type{
	"Circular":       reflect.TypeFor[catalog.Circular](),
	"EntityImpact":   reflect.TypeFor[catalog.EntityImpact](),
	"NewsItem":       reflect.TypeFor[catalog.NewsItem](),
	"Company":        reflect.TypeFor[catalog.Company](),
	"Regulation":     reflect.TypeFor[catalog.Regulation](),
	"Network":        reflect.TypeFor[catalog.Network](),
	"SibosEvent":     reflect.TypeFor[catalog.SibosEvent](),
	"ImpactRecord":   reflect.TypeFor[impact.Record](),
	"DashboardStats": reflect.TypeFor[dashboard.Stats](),
	"Error":          reflect.TypeFor[Error](),
	"ExtractResult":  reflect.TypeFor[extract.Result](),
	"ExtractJob":     reflect.TypeFor[extract.Job](),
	"Health":         reflect.TypeFor[Health](),

	"User":               reflect.TypeFor[auth.User](),
	"Preferences":        reflect.TypeFor[auth.Preferences](),
	"SignupRequest":      reflect.TypeFor[SignupRequest](),
	"LoginRequest":       reflect.TypeFor[LoginRequest](),
	"TokenResponse":      reflect.TypeFor[TokenResponse](),
	"MeResponse":         reflect.TypeFor[MeResponse](),
	"ProfileRequest":     reflect.TypeFor[ProfileRequest](),
	"PasswordRequest":    reflect.TypeFor[PasswordRequest](),
	"PreferencesRequest": reflect.TypeFor[PreferencesRequest](),
	"SearchResponse":     reflect.TypeFor[search.Response](),
	"Answer":             reflect.TypeFor[search.Answer](),
	"AnswerSource":       reflect.TypeFor[search.Source](),
	"Span":               reflect.TypeFor[search.Span](),
	"AnswerFact":         reflect.TypeFor[search.Fact](),
	"Pagination":         reflect.TypeFor[search.Pagination](),
	"Facets":             reflect.TypeFor[search.Facets](),
	"Correction":         reflect.TypeFor[search.Correction](),

	"Subscriber":          reflect.TypeFor[newsletter.Subscriber](),
	"SubscribeRequest":    reflect.TypeFor[SubscribeRequest](),
	"SubscribeResponse":   reflect.TypeFor[SubscribeResponse](),
	"UnsubscribeResponse": reflect.TypeFor[UnsubscribeResponse](),
	"GeneratedSummary":    reflect.TypeFor[catalog.GeneratedSummary](),
	"ImpactAnalysis":      reflect.TypeFor[catalog.ImpactAnalysis](),
	"ImpactRequest":       reflect.TypeFor[ImpactRequest](),
	"SummarizeRequest":    reflect.TypeFor[SummarizeRequest](),
}

// schemaEnums are the enumerations openapi.json names as schemas of their
// own (the islands' types use them): the entry types' enum tags name them.
func schemaEnums() map[string][]string {
	out := map[string][]string{"Band": impact.Bands, "Role": auth.Roles,
		"NewsletterSource": newsletter.Sources, "NewsletterStatus": newsletter.Statuses,
		"DocumentKind": extract.Kinds, "JobStatus": extract.JobStatuses}
	for name, values := range catalog.Enums {
		out[name] = values
	}
	var sorts []string
	for _, s := range catalog.CircularSorts {
		sorts = append(sorts, string(s))
	}
	out["CircularSort"] = sorts
	out["AnswerMethod"] = search.AnswerMethods
	out["AnswerType"] = search.AnswerTypes
	out["ModelFallback"] = search.ModelFallbacks
	return out
}

// TestOpenAPIDocument checks that openapi.json's schemas are those of the
// Go types the API writes. Run with -update to rewrite them after changing
// a type (go test ./api -run TestOpenAPIDocument -update).
func TestOpenAPIDocument(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	generated, err := generateSchemas(doc.Components.Schemas)
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range generated {
		doc.Components.Schemas[name] = s
	}
	want, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if bytes.Equal(want, openAPIDoc) {
		return
	}
	if *update {
		if err := os.WriteFile("openapi.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Log("rewrote openapi.json")
		return
	}
	t.Errorf("openapi.json is not what the Go types say; run: go test ./api -run TestOpenAPIDocument -update\n%s",
		firstDifference(openAPIDoc, want))
}

// generateSchemas derives schemaTypes and schemaEnums, keeping the
// descriptions old (the document's current schemas) gives them.
func generateSchemas(old openapi3.Schemas) (openapi3.Schemas, error) {
	out := openapi3.Schemas{}
	enums := schemaEnums()
	for name, values := range enums {
		out[name] = openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: anys(values)})
	}
	components := map[reflect.Type]string{}
	for name, t := range schemaTypes {
		components[t] = name
	}
	gen := openapi3gen.NewGenerator(openapi3gen.SchemaCustomizer(func(_ string, t reflect.Type, tag reflect.StructTag, s *openapi3.Schema) error {
		return customizeSchema(t, tag, s, components, enums)
	}))
	for name, t := range schemaTypes {
		ref, err := gen.GenerateSchemaRef(t)
		if err != nil {
			return nil, err
		}
		// A struct met inside another is its component, by reference.
		linkComponents(ref.Value, name)
		out[name] = openapi3.NewSchemaRef("", ref.Value)
	}
	for name, s := range out {
		keepDescriptions(s.Value, old[name])
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
// allowed values; every property of a struct is required (absent values
// are null), except omitempty ones; and structs allow no other property.
func customizeSchema(t reflect.Type, tag reflect.StructTag, s *openapi3.Schema, components map[reflect.Type]string, enums map[string][]string) error {
	switch t {
	case dateType:
		s.Type, s.Format, s.Properties = &openapi3.Types{"string"}, "date", nil
	case optStringType, optIntType:
		s.Nullable = true
	}
	if t.Kind() == reflect.Pointer && components[t.Elem()] != "" {
		s.Nullable = true // a nil pointer to a component is null
	}
	if name := tag.Get("enum"); name != "" {
		values, ok := enums[name]
		if !ok {
			return &unknownEnumError{name}
		}
		s.Enum = anys(values)
		if s.Nullable {
			s.Enum = append(s.Enum, nil)
		}
	}
	if t.Kind() == reflect.Struct && t != dateType && t != reflect.TypeFor[time.Time]() {
		s.Required = nil
		for _, f := range reflect.VisibleFields(t) {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous || !f.IsExported() || name == "-" || name == "" || slices.Contains(strings.Split(opts, ","), "omitempty") {
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

type unknownEnumError struct{ name string }

func (e *unknownEnumError) Error() string { return "enum tag names unknown enumeration " + e.name }

// linkComponents replaces the schema of every component met below s (an
// array's items, a property) by a reference to it. openapi3gen names every
// other schema by its Go type in Ref, which is no reference: those go.
func linkComponents(s *openapi3.Schema, self string) {
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		ref.Ref = ""
		if name, ok := ref.Value.Extensions["x-component"].(string); ok && name != self {
			if ref.Value.Nullable {
				// A reference admits nothing beside it: a nullable one wraps it.
				ref.Value = &openapi3.Schema{Nullable: true, AllOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("#/components/schemas/"+name, nil)}}
				return
			}
			ref.Ref, ref.Value = "#/components/schemas/"+name, nil
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

// children calls f with every schema directly below s.
func children(s *openapi3.Schema, f func(*openapi3.SchemaRef)) {
	f(s.Items)
	f(s.AdditionalProperties.Schema)
	for _, p := range s.Properties {
		f(p)
	}
}

// keepDescriptions copies what old, the schema's previous version, says by
// hand onto s and its properties: descriptions, and the formats and bounds
// of values that Go's types do not carry (a uuid, a score from 0 to 100).
func keepDescriptions(s *openapi3.Schema, old *openapi3.SchemaRef) {
	if old == nil || old.Value == nil {
		return
	}
	s.Description = old.Value.Description
	for name, p := range s.Properties {
		o := old.Value.Properties[name]
		if o == nil || o.Value == nil || p.Value == nil {
			continue
		}
		p.Value.Description = o.Value.Description
		if p.Value.Format == "" {
			p.Value.Format = o.Value.Format
		}
		p.Value.Min, p.Value.Max, p.Value.Pattern = o.Value.Min, o.Value.Max, o.Value.Pattern
	}
}

func anys(xs []string) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// firstDifference shows where two texts first differ, a few lines around.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			from, to := max(0, i-3), min(max(len(g), len(w)), i+4)
			var b strings.Builder
			for j := from; j < to; j++ {
				gl, wl := "", ""
				if j < len(g) {
					gl = g[j]
				}
				if j < len(w) {
					wl = w[j]
				}
				if gl == wl {
					b.WriteString("  " + gl + "\n")
				} else {
					b.WriteString("- " + gl + "\n+ " + wl + "\n")
				}
			}
			return "first difference at line " + strconv.Itoa(i+1) + " (- file, + Go types):\n" + b.String()
		}
	}
	return ""
}

// TestOpenAPIDocument_Parameters checks the hand-written parameters against
// the Go values the API reads them with: every enumeration (plus "" and,
// for filters, "all"), and the page size's bounds and defaults.
func TestOpenAPIDocument_Parameters(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	var sorts []string
	for _, s := range catalog.CircularSorts {
		sorts = append(sorts, string(s))
	}
	filter := func(values []string) []any { return anys(append([]string{"", "all"}, values...)) }
	for name, want := range map[string][]any{
		"Source":           filter(catalog.Sources),
		"CircularCategory": filter(catalog.CircularCategories),
		"Filter":           filter(catalog.ImpactLevels),
		"DocumentType":     filter(catalog.DocumentTypes),
		"NewsCategory":     filter(catalog.NewsCategories),
		"Region":           filter(catalog.Regions),
		"CompanyCategory":  filter(catalog.CompanyCategories),
		"Country":          filter(catalog.RegulationCountries),
		"Status":           filter(catalog.RegulationStatuses),
		"Sort":             anys(append([]string{""}, sorts...)),
	} {
		p := doc.Components.Parameters[name]
		if p == nil || p.Value == nil || p.Value.Schema == nil {
			t.Errorf("parameter %s is not documented", name)
			continue
		}
		if diff := cmp.Diff(want, p.Value.Schema.Value.Enum); diff != "" {
			t.Errorf("parameter %s's enum (-Go +openapi.json):\n%s", name, diff)
		}
	}
	for name, def := range map[string]int{"Limit50": defaultListLimit, "Limit100": catalog.MaxLimit} {
		s := doc.Components.Parameters[name].Value.Schema.Value
		if s.Max == nil || *s.Max != catalog.MaxLimit || s.Default != float64(def) {
			t.Errorf("parameter %s: maximum %v default %v, want %d and %d", name, s.Max, s.Default, catalog.MaxLimit, def)
		}
	}
}
