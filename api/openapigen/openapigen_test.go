package openapigen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"regpulse/api/apispec"
)

// TestFiles fails when a generated file is not what the declarations
// give: run `go generate ./api`.
func TestFiles(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range files {
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./api\n%s", path, firstDifference(got, want))
		}
	}
}

// TestDocument_Valid: the document is a valid OpenAPI 3 document.
func TestDocument_Valid(t *testing.T) {
	files, err := Files()
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(files["api/openapi.json"])
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("not a valid OpenAPI document: %v", err)
	}
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
			return "first difference at line " + strconv.Itoa(i+1) + " (- file, + declarations):\n" + b.String()
		}
	}
	return ""
}

// TestOptional: a field may be left out when its tag or the tag of a
// struct embedding it says omitempty.
func TestOptional(t *testing.T) {
	type inner struct {
		A []string `json:"a"`
		B []string `json:"b,omitempty"`
	}
	type req struct {
		inner `json:",omitempty"`
		C     string `json:"c"`
	}
	type answer struct {
		inner
		C string `json:"c"`
	}
	cases := []struct {
		name string
		t    reflect.Type
		want map[string]bool // field name: optional
	}{
		{"EmbeddedOptional", reflect.TypeFor[req](), map[string]bool{"A": true, "B": true, "C": false}},
		{"EmbeddedRequired", reflect.TypeFor[answer](), map[string]bool{"A": false, "B": true, "C": false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range reflect.VisibleFields(tc.t) {
				if f.Anonymous {
					continue
				}
				if got := optional(tc.t, f); got != tc.want[f.Name] {
					t.Errorf("%s: optional %v, want %v", f.Name, got, tc.want[f.Name])
				}
			}
		})
	}
}

// TestOperation_Security: a public operation says so (security: []), a
// signed-in one names its scheme; a client's generator reads either.
func TestOperation_Security(t *testing.T) {
	cases := []struct {
		name     string
		security []string
		want     string
	}{
		{"Public", nil, `[]`},
		{"SignedIn", []string{"bearer"}, `[{"bearer":[]}]`},
		{"SignedInOrKey", []string{"bearer", "apiKey"}, `[{"bearer":[]},{"apiKey":[]}]`},
		{"PublicOrKey", []string{"", "apiKey"}, `[{},{"apiKey":[]}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, err := operation(&apispec.Operation{ID: "x", Method: "GET", Path: "/x", Security: tc.security, KeyScopes: []string{"read"}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := json.Marshal(o)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Security json.RawMessage `json:"security"`
				Scopes   json.RawMessage `json:"x-regpulse-scopes"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if string(got.Security) != tc.want {
				t.Errorf("security = %s, want %s", got.Security, tc.want)
			}
			if string(got.Scopes) != `["read"]` {
				t.Errorf("x-regpulse-scopes = %s", got.Scopes)
			}
		})
	}
}

// TestReference: a component where a property has it is a bare
// reference, or wrapped in allOf when the property is nullable (stating
// the type, which nullable needs in OpenAPI 3.0) or described.
func TestReference(t *testing.T) {
	object := &openapi3.Types{"object"}
	cases := []struct {
		name string
		v    *openapi3.Schema
		want string
	}{
		{"Bare", &openapi3.Schema{Type: object}, `{"$ref":"#/components/schemas/C"}`},
		{"Described", &openapi3.Schema{Type: object, Description: "d"},
			`{"allOf":[{"$ref":"#/components/schemas/C"}],"description":"d"}`},
		{"Nullable", &openapi3.Schema{Type: object, Nullable: true},
			`{"allOf":[{"$ref":"#/components/schemas/C"}],"nullable":true,"type":"object"}`},
		{"NullableDescribed", &openapi3.Schema{Type: &openapi3.Types{"string"}, Nullable: true, Description: "d"},
			`{"allOf":[{"$ref":"#/components/schemas/C"}],"description":"d","nullable":true,"type":"string"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw, err := json.Marshal(reference("C", tc.v))
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != tc.want {
				t.Errorf("got %s\nwant %s", raw, tc.want)
			}
		})
	}
}
