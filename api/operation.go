package api

import (
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"regpulse/api/apispec"
	"regpulse/internal/teams"
)

// Every call of the API is declared once, in the file of its handler (its
// area, routes.go): an apispec.Operation (path, parameters, body,
// responses, documentation) bound to its handler. The router, the reading
// and checking of the parameters and the OpenAPI document (package
// openapigen) all come from that declaration; operations.go holds what
// the operations share.

// route is a declared operation bound to its handler.
type route struct {
	op *apispec.Operation
	// serve makes the handler, given the request's parameters decoded.
	serve func(h *Handler) http.HandlerFunc
	// What runs before the handler, outermost first: the read cache, a
	// signed-in user (admin: an administrator), a rate limit.
	cached func(h *Handler) bool
	user   bool
	admin  bool
	limit  func(h *Handler) func(http.Handler) http.Handler
	// leaving lets a member call an organisation's call on themselves
	// (the path's userId their own) whatever its Permission: any member
	// may leave.
	leaving bool
}

// handle declares an operation whose parameters are P's fields (each
// tagged `param:"Name"`, a name of paramDecls or of an area's params; an embedded struct's
// fields count as P's), served by serve. An organisation's call (its
// Permission declared) reaches serve only when the signed-in user is an
// active member of the path's organisation whose role may (orgMember:
// a 404 otherwise, a 403 for a role that may not), so the rule the
// authorization table tests is the one the handler runs under.
func handle[P any](op *apispec.Operation, serve func(h *Handler, w http.ResponseWriter, r *http.Request, in P)) *route {
	fields := paramFields(reflect.TypeFor[P](), nil)
	decl := *op
	decl.Params = nil
	for _, f := range fields {
		decl.Params = append(decl.Params, f.param)
	}
	bodyless := op.Method == http.MethodPost && op.Body == nil
	if bodyless { // noBody's answer to a body it does not take
		decl.Responses = append(slices.Clone(decl.Responses), rBodyNotTaken.At(http.StatusRequestEntityTooLarge))
	}
	may := permission(&decl)
	rt := &route{op: &decl}
	rt.serve = func(h *Handler) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			var in P
			if err := decodeParams(r, fields, reflect.ValueOf(&in).Elem()); err != nil {
				h.writeError(w, r, err)
				return
			}
			if bodyless {
				if err := noBody(w, r); err != nil {
					h.writeError(w, r, err)
					return
				}
			}
			if k, ok := keyOf(r); ok && may != nil {
				// An API key (keyAuth): its organisation, then its scope.
				if err := keyMay(k, chi.URLParam(r, "id"), decl.Permission); err != nil {
					h.writeError(w, r, err)
					return
				}
			} else if may != nil {
				rule := may
				if rt.leaving && chi.URLParam(r, "userId") == userOf(r).ID {
					rule = teams.CanRead
				}
				if _, err := h.orgMember(r, chi.URLParam(r, "id"), rule); err != nil {
					h.writeError(w, r, err)
					return
				}
			}
			serve(h, w, r, in)
		}
	}
	return rt
}

// permissions are the rules an Operation's Permission names, each
// teams' to decide.
var permissions = map[string]func(role string) bool{
	"read":   teams.CanRead,
	"decide": teams.CanDecide,
	"review": teams.CanReviewEvidence,
	"manage": teams.CanManageMembers,
}

// permission is the rule op's Permission names (nil: none). A name of
// no rule, or an organisation's call that declares none (it would be
// open to anyone signed in), is a programming error, found when the
// routes are built.
func permission(op *apispec.Operation) func(role string) bool {
	if op.Permission == "" {
		if strings.HasPrefix(op.Path, "/organisations/{id}") {
			panic(fmt.Sprintf("api: %s is an organisation's call: declare its Permission (read, decide, review or manage)", op.ID))
		}
		return nil
	}
	may, ok := permissions[op.Permission]
	if !ok {
		panic(fmt.Sprintf("api: %s: no permission %q (use one of read, decide, review, manage)", op.ID, op.Permission))
	}
	if !strings.HasPrefix(op.Path, "/organisations/{id}") {
		panic(fmt.Sprintf("api: %s: a permission is an organisation's: its path is under /organisations/{id}", op.ID))
	}
	return may
}

// none is the parameters of a call that takes none.
type none struct{}

// paramField is a field of a parameters struct (by index path) and its
// declaration.
type paramField struct {
	index []int
	param *apispec.Param
}

// paramFields reads t's `param` tags; a tag naming no declared
// parameter is a programming error, found when the routes are built.
func paramFields(t reflect.Type, at []int) []paramField {
	var out []paramField
	for i := range t.NumField() {
		f := t.Field(i)
		index := append(append([]int(nil), at...), i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, paramFields(f.Type, index)...)
			continue
		}
		name, ok := f.Tag.Lookup("param")
		if !ok {
			panic(fmt.Sprintf("api: %s.%s has no param tag", t.Name(), f.Name))
		}
		p, ok := paramDecl(name)
		if !ok {
			panic(fmt.Sprintf("api: %s.%s: no parameter %q is declared", t.Name(), f.Name, name))
		}
		out = append(out, paramField{index, p})
	}
	return out
}

// paramDecl is the declaration a `param` tag names: a shared one or an
// area's own.
func paramDecl(name string) (*apispec.Param, bool) {
	if p, ok := paramDecls[name]; ok {
		return p, true
	}
	for _, a := range areas() {
		if p, ok := a.params[name]; ok {
			return p, true
		}
	}
	return nil, false
}

// decodeParams reads into v (a parameters struct) every declared
// parameter from r, by its declaration's rules, and reports every problem
// at once, parameters the call does not take included.
func decodeParams(r *http.Request, fields []paramField, v reflect.Value) error {
	p := newParams(r)
	for _, f := range fields {
		d := f.param
		field := v.FieldByIndex(f.index)
		var raw string
		if d.In == "path" {
			raw = chi.URLParam(r, d.Name)
		} else {
			raw = p.get(d.Name)
		}
		s := d.Schema
		switch {
		case d.Raw:
			field.SetString(raw)
		case raw == "" && d.Required:
			p.fail(d.Name, "is required: %s", d.RequiredMessage)
		case s.Type == "integer":
			n := intDefault(s.Default)
			if raw != "" {
				n = p.whole(d.Name, raw, s.Minimum, s.Maximum, n)
			}
			field.SetInt(int64(n))
		case s.Filter():
			field.SetString(p.filter(d.Name, raw, s.Values()))
		case len(s.Enum) > 0:
			def, _ := s.Default.(string) // a required one has none
			field.SetString(p.choose(d.Name, raw, def, s.Enum))
		case s.MaxLength != nil:
			field.SetString(p.text(d.Name, raw, *s.MaxLength))
		case s.Format == "date" && raw != "":
			field.SetString(p.date(d.Name, raw))
		default:
			field.SetString(raw)
		}
	}
	return p.err()
}

func intDefault(v any) int {
	if n, ok := v.(int); ok {
		return n
	}
	return 0
}

// mount adds rt to r with what runs before its handler.
func (h *Handler) mount(r chi.Router, rt *route) {
	var handler http.Handler = rt.serve(h)
	if rt.cached != nil && rt.cached(h) {
		handler = h.cached(handler.ServeHTTP)
	}
	if rt.admin {
		handler = h.requireAdmin(handler)
	}
	if rt.user || rt.admin {
		handler = h.requireUser(handler)
	}
	if rt.limit != nil {
		handler = rt.limit(h)(handler)
	}
	// An API key is authenticated first: the rate limits count per key.
	handler = h.keyAuth(rt, handler)
	r.Method(rt.op.Method, rt.op.Path, handler)
}

// Spec is the API as declared, for its OpenAPI document (openapigen).
func Spec() *apispec.API {
	api := &apispec.API{
		Title: "RegPulse API", Version: "1.0.0", Server: "/api", Description: apiDescription,
		Params: map[string]*apispec.Param{}, Headers: map[string]*apispec.Header{}, Responses: map[string]*apispec.Response{},
		Security: map[string]*apispec.SecurityScheme{"bearer": bearerScheme, "apiKey": apiKeyScheme},
		Schemas:  maps.Clone(schemaTypes), Docs: schemaDocs, Rules: rules,
	}
	named := map[reflect.Type]bool{}
	for _, t := range schemaTypes {
		named[t] = true
	}
	for _, rt := range routes() {
		op := keyDeclared(rt)
		api.Operations = append(api.Operations, &op)
		for _, p := range op.Params {
			if p.Component != "" {
				api.Params[p.Component] = p
			}
		}
		if op.Body != nil {
			bodyTypes(api.Schemas, named, op.Body.Content)
		}
		for _, res := range op.Responses {
			if res.Component != "" {
				api.Responses[res.Component] = res
			}
			bodyTypes(api.Schemas, named, res.Content)
			for _, hd := range res.Headers {
				if hd.Component != "" {
					api.Headers[hd.Component] = hd
				}
			}
		}
	}
	api.Enums = schemaEnums(api.Schemas)
	slices.SortFunc(api.Operations, func(a, b *apispec.Operation) int {
		return strings.Compare(a.Path+" "+strconv.Itoa(methodOrder(a.Method)), b.Path+" "+strconv.Itoa(methodOrder(b.Method)))
	})
	return api
}

// bodyTypes names the Go types of bodies that schemaTypes does not name
// after themselves (AlertRequest is the schema AlertRequest): a call's
// request and answer types need no other declaration. Two types of one
// name are a programming error.
func bodyTypes(schemas map[string]reflect.Type, named map[reflect.Type]bool, cs []apispec.Content) {
	for _, c := range cs {
		t := c.Type
		if t == nil {
			continue
		}
		if t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if named[t] {
			continue
		}
		if t.Name() == "" {
			panic(fmt.Sprintf("api: a body of type %s has no name for its schema: name one in schemaTypes", t))
		}
		if other, ok := schemas[t.Name()]; ok && other != t {
			panic(fmt.Sprintf("api: the schema %s is both %s and %s: name one in schemaTypes", t.Name(), other, t))
		}
		schemas[t.Name()] = t
	}
}

func methodOrder(m string) int {
	return slices.Index([]string{"GET", "PUT", "POST", "DELETE", "PATCH"}, m)
}
