package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestTrigger(t *testing.T) {
	var posts int
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		posts++
	}))
	defer hook.Close()
	if err := trigger(t.Context(), hook.Client(), hook.URL); err != nil || posts != 1 {
		t.Errorf("trigger: %v, %d posts; want one", err, posts)
	}
	t.Run("ErrNoHook", func(t *testing.T) {
		if err := trigger(t.Context(), hook.Client(), ""); err == nil {
			t.Error("trigger without a hook succeeded")
		}
	})
	t.Run("ErrHookRefuses", func(t *testing.T) {
		refuse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
		}))
		defer refuse.Close()
		if err := trigger(t.Context(), refuse.Client(), refuse.URL); err == nil {
			t.Error("a 404 from the hook was taken for success")
		}
	})
}
