package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"regpulse/internal/catalog"
	"regpulse/internal/search"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// TestSearch_Parts: a search's answer put together from its circulars'
// kept parts is, plain or gzipped, directly or through the whole server,
// the first time or from the parts, byte for byte the answer encoding/json
// makes of the whole (the ETag with it); after a circular, or one
// replacing it, changes, the answer is the changed one.
func TestSearch_Parts(t *testing.T) {
	cat := storetest.Catalog()
	var old, replacing *catalog.Circular
	for i := range cat.Circulars {
		switch cat.Circulars[i].Slug {
		case storetest.SlugUPIFraud:
			old = &cat.Circulars[i]
		case storetest.SlugUPILite:
			replacing = &cat.Circulars[i]
		}
	}
	old.SupersededBy, replacing.Supersedes = []string{replacing.Slug}, []string{old.Slug}
	target := filepath.Join(t.TempDir(), "regpulse.db")
	writer, err := store.Open(t.Context(), target, store.WithNow(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if _, err := writer.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(t.Context(), target, store.WithNow(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h := New(db, discardLog, WithNow(storetest.Clock), cheapAuth)
	servers := map[string]http.Handler{"api": h, "server": portal(t, db, 0)}
	paths := map[string]string{"api": "/search?q=", "server": "/api/search?q="}

	// want is the answer as writeOK made it before the parts.
	want := func(t *testing.T, q string) []byte {
		res, err := db.Search(t.Context(), search.Query{Text: q, Page: 1})
		if err != nil {
			t.Fatal(err)
		}
		cs := catalog.WithPreviews(res.Circulars)
		refs, err := db.CircularRefs(t.Context(), catalog.ReplacingSlugs(cs))
		if err != nil {
			t.Fatal(err)
		}
		res.Circulars = catalog.WithReplacements(cs, refs)
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	check := func(t *testing.T, q string) {
		t.Helper()
		body := want(t, q)
		var etag string
		for _, name := range []string{"api", "server"} {
			for _, gz := range []bool{false, true, true} {
				r := httptest.NewRequest("GET", paths[name]+url.QueryEscape(q), nil)
				if gz {
					r.Header.Set("Accept-Encoding", "gzip")
				}
				rec := httptest.NewRecorder()
				servers[name].ServeHTTP(rec, r)
				res := response{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}
				got, err := res.plainBody()
				if err != nil || res.status != http.StatusOK {
					t.Fatalf("%s, gzip %v: %d %v", name, gz, res.status, err)
				}
				if enc := res.header.Get("Content-Encoding"); gz != (enc == "gzip") {
					t.Errorf("%s, gzip %v: Content-Encoding %q", name, gz, enc)
				}
				if !bytes.Equal(got, body) {
					t.Errorf("%s, gzip %v: the answer differs from the whole's JSON:\n got %.300s\nwant %.300s", name, gz, got, body)
				}
				if etag == "" {
					etag = res.header.Get("ETag")
				} else if e := res.header.Get("ETag"); e != etag {
					t.Errorf("%s, gzip %v: ETag %s, want %s", name, gz, e, etag)
				}
			}
		}
		r := httptest.NewRequest("GET", "/api/search?q="+url.QueryEscape(q), nil)
		r.Header.Set("Accept-Encoding", "gzip")
		r.Header.Set("If-None-Match", etag)
		rec := httptest.NewRecorder()
		servers["server"].ServeHTTP(rec, r)
		if rec.Code != http.StatusNotModified {
			t.Errorf("If-None-Match its ETag: %d, want 304", rec.Code)
		}
	}
	for _, q := range []string{"upi", "fraud", "what is the limit for upi lite wallets", string(old.CircularNumber), "no such word anywhere"} {
		t.Run(q, func(t *testing.T) { check(t, q) })
	}

	for _, tc := range []struct {
		name   string
		change func()
		shows  string
	}{
		{"Changed", func() { old.Title += " (amended)" }, old.Title + " (amended)"},
		{"ReplacingChanged", func() { replacing.Title += " (renamed)" }, replacing.Title + " (renamed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := string(old.CircularNumber)
			check(t, q)
			tc.change()
			if _, err := writer.SyncCatalog(t.Context(), cat); err != nil {
				t.Fatal(err)
			}
			check(t, q)
			if !bytes.Contains(want(t, q), []byte(tc.shows)) {
				t.Errorf("the answer lacks %q", tc.shows)
			}
		})
	}
}
