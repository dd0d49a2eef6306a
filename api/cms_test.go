package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/auth"
	"regpulse/internal/cms"
)

// fakeCMS answers every action by its name: "fail-NNN" is a *cms.Error of
// status NNN, "crash" a plain error, anything else echoes who asked and
// what.
type fakeCMS struct {
	mu    sync.Mutex
	calls []cmsCall
}

type cmsCall struct {
	Who    cms.Person
	Action string
	Params string
}

func (f *fakeCMS) Do(_ context.Context, who cms.Person, req cms.Request) (any, error) {
	f.mu.Lock()
	f.calls = append(f.calls, cmsCall{who, req.Action, string(req.Params)})
	f.mu.Unlock()
	if status, ok := strings.CutPrefix(req.Action, "fail-"); ok {
		return nil, cms.Errorf(atoi(status), "refused: %s", status)
	}
	switch req.Action {
	case "crash":
		return nil, errors.New("the repository is on fire")
	case "nothing":
		return nil, nil
	}
	return map[string]any{"action": req.Action, "name": who.Name}, nil
}

func (f *fakeCMS) last() cmsCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[len(f.calls)-1]
}

func TestCMS(t *testing.T) {
	backend := &fakeCMS{}
	f := newAuthFixture(t, AuthConfig{}, WithCMS(backend))
	ctx := t.Context()
	editor := f.signup(t, "asha")
	nobody := f.signup(t, "ravi")
	if _, err := f.db.SetCMSRole(ctx, "asha", cms.RoleEditor, "test"); err != nil {
		t.Fatal(err)
	}

	res := f.call(t, "POST", "/cms", `{"action":"getEntry","params":{"path":"content/circulars/x.md"},"branch":"main"}`, bearer(editor)...)
	if res.status != 200 || !strings.Contains(string(res.body), `"name":"Asha Rao"`) {
		t.Fatalf("getEntry = %d %s", res.status, res.body)
	}
	u, _ := f.db.UserByUsername(ctx, "asha")
	want := cmsCall{Who: cms.Person{ID: u.ID, Name: "Asha Rao", Email: "asha@example.com", Role: cms.RoleEditor},
		Action: "getEntry", Params: `{"path":"content/circulars/x.md"}`}
	if diff := cmp.Diff(want, backend.last()); diff != "" {
		t.Errorf("backend asked (-want +got):\n%s", diff)
	}
	if res := f.call(t, "POST", "/cms", `{"action":"nothing"}`, bearer(editor)...); res.status != 200 || strings.TrimSpace(string(res.body)) != "{}" {
		t.Errorf("an answer of nil = %d %s, want {}", res.status, res.body)
	}

	big := `{"action":"persistMedia","params":{"asset":{"content":"` + strings.Repeat("A", maxCMSBody) + `"}}}`
	for _, tc := range []struct {
		name, token, body, contentType string
		status                         int
		message                        string
	}{
		{"SignedOut", "", `{"action":"getEntry"}`, "", 401, ""},
		{"NoRole", nobody, `{"action":"getEntry"}`, "", 403, "regpulse users cms-role ravi editor"},
		{"NoAction", editor, `{"params":{}}`, "", 400, "invalid field: action"},
		{"ParamsNotObject", editor, `{"action":"getEntry","params":"x"}`, "", 400, "invalid field: params"},
		{"UnknownField", editor, `{"action":"getEntry","token":"x"}`, "", 400, "unknown field: token"},
		{"NotJSON", editor, `action=getEntry`, "application/x-www-form-urlencoded", 415, ""},
		{"TooLarge", editor, big, "", 413, "over 14 MiB"},
		{"BackendBadPath", editor, `{"action":"fail-400"}`, "", 400, "refused: 400"},
		{"BackendForbidden", editor, `{"action":"fail-403"}`, "", 403, "refused: 403"},
		{"BackendNotFound", editor, `{"action":"fail-404"}`, "", 404, "refused: 404"},
		{"BackendConflict", editor, `{"action":"fail-409"}`, "", 409, "refused: 409"},
		{"BackendTooLarge", editor, `{"action":"fail-413"}`, "", 413, "refused: 413"},
		{"BackendMediaType", editor, `{"action":"fail-415"}`, "", 415, "refused: 415"},
		{"BackendInvalid", editor, `{"action":"fail-422"}`, "", 422, "refused: 422"},
		{"BackendPush", editor, `{"action":"fail-502"}`, "", 502, "refused: 502"},
		{"BackendCrash", editor, `{"action":"crash"}`, "", 500, "internal server error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var headers []string
			if tc.token != "" {
				headers = bearer(tc.token)
			}
			if tc.contentType != "" {
				headers = append(headers, "Content-Type", tc.contentType)
			}
			res := f.call(t, "POST", "/cms", tc.body, headers...)
			var e Error
			if err := json.Unmarshal(res.body, &e); err != nil || res.status != tc.status || !strings.Contains(e.Message, tc.message) {
				t.Errorf("= %d %.300s, want %d with %q", res.status, res.body, tc.status, tc.message)
			}
		})
	}
	if !strings.Contains(f.logs.String(), "on fire") {
		t.Error("a backend's plain error is not logged")
	}

	t.Run("NotConfigured", func(t *testing.T) {
		off := newAuthFixture(t, AuthConfig{})
		token := off.signup(t, "meera")
		res := off.call(t, "POST", "/cms", `{"action":"getEntry"}`, bearer(token)...)
		if res.status != 503 || !strings.Contains(string(res.body), "not configured") {
			t.Errorf("= %d %s", res.status, res.body)
		}
	})
}

func TestCMSPerson(t *testing.T) {
	for _, tc := range []struct {
		first, last, want string
	}{{"Asha", "Rao", "Asha Rao"}, {"Asha", "", "Asha"}, {"", "", "asha"}, {" ", " ", "asha"}} {
		u := auth.User{ID: "u1", Username: "asha", Email: "asha@example.com", FirstName: tc.first, LastName: tc.last}
		if got := cmsPerson(u, cms.RoleReviewer); got.Name != tc.want || got.Role != cms.RoleReviewer || got.Email != u.Email {
			t.Errorf("%q %q: %+v", tc.first, tc.last, got)
		}
	}
}

func TestLocalCMS(t *testing.T) {
	backend := &fakeCMS{}
	who := cms.Person{Name: "Asha Rao", Email: "asha@example.com", Role: cms.RoleEditor}
	h := LocalCMS(backend, who, discardLog)
	for _, tc := range []struct {
		method, body string
		status       int
	}{
		{"POST", `{"action":"getMedia","params":{"mediaFolder":"media"}}`, 200},
		{"POST", `{"action":"fail-422"}`, 422},
		{"POST", `{}`, 400},
		{"GET", ``, 405},
	} {
		req := httptest.NewRequest(tc.method, "/api/cms", strings.NewReader(tc.body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tc.status || rec.Header().Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("%s %s = %d %s", tc.method, tc.body, rec.Code, rec.Body)
		}
	}
	if got := backend.last(); got.Who != who || got.Action != "fail-422" {
		t.Errorf("backend asked %+v", got)
	}
}
