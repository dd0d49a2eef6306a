package api

import (
	"slices"
	"testing"

	"regpulse/api/apispec"
)

// TestAreas_Params: every parameter declaration has one name, shared or
// an area's own, and some call takes it; an area's own is taken by that
// area's calls alone, and a shared one by several areas' (else it belongs
// to that area).
func TestAreas_Params(t *testing.T) {
	owner := map[string]int{} // parameter name -> area index, -1 shared
	for name := range paramDecls {
		owner[name] = -1
	}
	for i, a := range areas() {
		for name := range a.params {
			if _, dup := owner[name]; dup {
				t.Errorf("parameter %s is declared twice", name)
			}
			owner[name] = i
		}
	}
	takenBy := map[*apispec.Param][]int{}
	for i, a := range areas() {
		for _, rt := range a.routes() {
			for _, p := range rt.op.Params {
				if !slices.Contains(takenBy[p], i) {
					takenBy[p] = append(takenBy[p], i)
				}
			}
		}
	}
	for name, area := range owner {
		p, _ := paramDecl(name)
		switch areas := takenBy[p]; {
		case len(areas) == 0:
			t.Errorf("parameter %s is declared but no call takes it", name)
		case area >= 0 && !slices.Equal(areas, []int{area}):
			t.Errorf("parameter %s is area %d's own but areas %v take it", name, area, areas)
		case area < 0 && len(areas) == 1:
			t.Errorf("parameter %s is shared but only area %d takes it: declare it there", name, areas[0])
		}
	}
}

// TestRoutes_Security: the document says of every operation what its
// route requires: a signed-in call (signedIn, admin) the bearer scheme,
// any other none (security: []), so a client sends the token where the
// router asks for it and nowhere else.
func TestRoutes_Security(t *testing.T) {
	doc := loadOpenAPI(t)
	for _, rt := range routes() {
		op := doc.Paths.Value(rt.op.Path).GetOperation(rt.op.Method)
		if op == nil {
			t.Errorf("%s %s is not in the document", rt.op.Method, rt.op.Path)
			continue
		}
		if op.Security == nil {
			t.Errorf("%s %s declares no security (a public call says security: [])", rt.op.Method, rt.op.Path)
			continue
		}
		var got []string
		for _, req := range *op.Security {
			if len(req) == 0 {
				got = append(got, "none")
			}
			for name := range req {
				got = append(got, name)
			}
		}
		// A key's alternative where a key may call it (issue 47), and
		// the scopes of the keys that may.
		scopes := rt.keyScopes()
		var want []string
		switch {
		case (rt.user || rt.admin) && len(scopes) > 0:
			want = []string{"bearer", "apiKey"}
		case rt.user || rt.admin:
			want = []string{"bearer"}
		case len(scopes) > 0:
			want = []string{"none", "apiKey"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %s: security %v, want %v", rt.op.Method, rt.op.Path, got, want)
		}
		raw, _ := op.Extensions["x-regpulse-scopes"].([]any)
		gotScopes := []string{}
		for _, s := range raw {
			gotScopes = append(gotScopes, s.(string))
		}
		if !slices.Equal(gotScopes, append([]string{}, scopes...)) {
			t.Errorf("%s %s: x-regpulse-scopes %v, want %v", rt.op.Method, rt.op.Path, gotScopes, scopes)
		}
	}
}
