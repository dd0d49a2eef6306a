package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"regpulse/internal/store/storetest"
)

// readTargets is one successful call of every read endpoint.
var readTargets = []string{
	"/openapi.json",
	"/circulars",
	"/circulars?source=RBI&sort=impact",
	"/circulars?limit=2",
	"/news",
	"/impact-tracking",
	"/fintech-companies",
	"/pii-regulations",
	"/payment-networks",
	"/sibos-events",
	"/dashboard/stats",
}

func TestHandler_ETag(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	for _, target := range readTargets {
		t.Run(strings.TrimPrefix(target, "/"), func(t *testing.T) {
			first := f.get(t, target)
			etag := first.header.Get("ETag")
			if first.status != 200 || !strings.HasPrefix(etag, `W/"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 12 {
				t.Fatalf("GET %s = %d, ETag %q; want 200 with a weak ETag (gzip may re-encode the body)", target, first.status, etag)
			}
			if cc := first.header.Get("Cache-Control"); cc != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", cc)
			}
			if again := f.get(t, target); again.header.Get("ETag") != etag || string(again.body) != string(first.body) {
				t.Errorf("same request, different answer")
			}
			for _, tc := range []struct {
				name, ifNoneMatch string
				status            int
			}{
				{"Match", etag, 304},
				{"StrongFormMatches", strings.TrimPrefix(etag, "W/"), 304},
				{"InList", `"nope", ` + etag, 304},
				{"Star", "*", 304},
				{"Other", `"nope"`, 200},
				{"Unquoted", strings.Trim(etag, `"`), 200},
			} {
				t.Run(tc.name, func(t *testing.T) {
					res := f.get(t, target, "If-None-Match", tc.ifNoneMatch)
					if res.status != tc.status {
						t.Fatalf("If-None-Match %s: status %d, want %d", tc.ifNoneMatch, res.status, tc.status)
					}
					if res.header.Get("ETag") != etag {
						t.Errorf("ETag = %q, want %q", res.header.Get("ETag"), etag)
					}
					if tc.status == 304 && (len(res.body) != 0 || res.header.Get("Cache-Control") != "no-cache") {
						t.Errorf("304 with body %q, Cache-Control %q", res.body, res.header.Get("Cache-Control"))
					}
				})
			}
		})
	}
	t.Run("ChangesWithData", func(t *testing.T) {
		before := f.get(t, "/circulars")
		f.store.cat.Circulars[0].Title = "Retitled"
		res := f.get(t, "/circulars", "If-None-Match", before.header.Get("ETag"))
		if res.status != 200 || res.header.Get("ETag") == before.header.Get("ETag") {
			t.Errorf("after a sync: %d, ETag %q (before %q); want 200 with a new ETag",
				res.status, res.header.Get("ETag"), before.header.Get("ETag"))
		}
	})
	t.Run("ErrorsAreNotCached", func(t *testing.T) {
		res := f.get(t, "/circulars?limit=0")
		if res.header.Get("ETag") != "" || res.header.Get("Cache-Control") != "no-store" {
			t.Errorf("400: ETag %q, Cache-Control %q; want none and no-store", res.header.Get("ETag"), res.header.Get("Cache-Control"))
		}
	})
}

func TestHandler_StoreErrors(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	f.store.err = errBroken
	for _, target := range readTargets {
		if target == "/openapi.json" {
			continue // served from memory
		}
		t.Run(strings.TrimPrefix(target, "/"), func(t *testing.T) {
			res := f.get(t, target)
			var e Error
			if res.status != http.StatusInternalServerError || json.Unmarshal(res.body, &e) != nil || e.Message == "" {
				t.Fatalf("GET %s with a broken store = %d %s; want a JSON 500", target, res.status, res.body)
			}
			if strings.Contains(string(res.body), "secret") {
				t.Errorf("500 leaks the store's error: %s", res.body)
			}
		})
	}
	t.Run("BadParametersStill400", func(t *testing.T) {
		if res := f.get(t, "/circulars?source=nope"); res.status != 400 {
			t.Errorf("bad parameter with a broken store = %d, want 400 (checked first)", res.status)
		}
	})
}
