package buildhook

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestPost(t *testing.T) {
	for _, tc := range []struct {
		status  int
		wantErr bool
	}{{http.StatusOK, false}, {http.StatusCreated, false}, {http.StatusNotFound, true}, {http.StatusInternalServerError, true}} {
		var method string
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			method = r.Method
			w.WriteHeader(tc.status)
		}))
		err := Post(t.Context(), hook.Client(), hook.URL)
		hook.Close()
		if (err != nil) != tc.wantErr || method != http.MethodPost {
			t.Errorf("status %d: err %v, method %q", tc.status, err, method)
		}
	}
	if err := Post(t.Context(), http.DefaultClient, "::not a url"); err == nil {
		t.Error("a bad URL is no error")
	}
}
