package readcache

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func entry(version uint64, body string) *Entry {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Total-Count", "3")
	h.Set("Set-Cookie", "never=kept") // not a header of the body
	return NewEntry(version, h, []byte(body))
}

func TestCache_Get(t *testing.T) {
	t.Run("Hit", func(t *testing.T) {
		c := New(8, time.Minute)
		c.Add(Key{Path: "k"}, entry(c.Version(), "[]"))
		if _, ok := c.Get(Key{Path: "k"}); !ok {
			t.Fatal("Get after Add missed")
		}
	})
	t.Run("ErrInvalidated", func(t *testing.T) {
		c := New(8, time.Minute)
		c.Add(Key{Path: "k"}, entry(c.Version(), "[]"))
		c.Invalidate()
		if _, ok := c.Get(Key{Path: "k"}); ok {
			t.Fatal("Get after Invalidate hit")
		}
	})
	t.Run("ErrOldVersion", func(t *testing.T) {
		// A read that started before a write finishes after it: its
		// answer is of the old data and must not be kept.
		c := New(8, time.Minute)
		v := c.Version()
		c.Invalidate()
		c.Add(Key{Path: "k"}, entry(v, "[]"))
		if _, ok := c.Get(Key{Path: "k"}); ok || c.Len() != 0 {
			t.Fatalf("an answer of a past version was kept (%d entries)", c.Len())
		}
	})
	t.Run("ErrExpired", func(t *testing.T) {
		// Not in a synctest bubble: the LRU's expiry goroutine never ends.
		// A slower machine only lets more time pass, so this cannot flake.
		c := New(8, 10*time.Millisecond)
		c.Add(Key{Path: "k"}, entry(c.Version(), "[]"))
		time.Sleep(50 * time.Millisecond)
		if _, ok := c.Get(Key{Path: "k"}); ok {
			t.Fatal("hit after the time to live")
		}
	})
	t.Run("ErrEvicted", func(t *testing.T) {
		c := New(2, time.Minute)
		for _, k := range []string{"a", "b", "c"} {
			c.Add(Key{Path: k}, entry(c.Version(), k))
		}
		if _, ok := c.Get(Key{Path: "a"}); ok {
			t.Fatal("the least recently used entry stayed beyond the size")
		}
	})
	t.Run("Nil", func(t *testing.T) {
		var c *Cache
		c.Add(Key{Path: "k"}, entry(0, "[]"))
		c.Invalidate()
		if _, ok := c.Get(Key{Path: "k"}); ok {
			t.Fatal("a nil cache hit")
		}
	})
}

func TestEntry_Serve(t *testing.T) {
	body := strings.Repeat(`{"id":"x"},`, 100)
	e := entry(0, body)
	for _, tc := range []struct {
		name     string
		headers  map[string]string
		status   int
		gzipped  bool
		wantETag string
	}{
		{name: "Plain", status: 200, wantETag: e.ETag(false)},
		{name: "Gzip", headers: map[string]string{"Accept-Encoding": "gzip, deflate, br"}, status: 200, gzipped: true, wantETag: e.ETag(true)},
		{name: "GzipRefused", headers: map[string]string{"Accept-Encoding": "gzip;q=0, deflate"}, status: 200, wantETag: e.ETag(false)},
		{name: "NotModified", headers: map[string]string{"If-None-Match": e.ETag(false)}, status: 304, wantETag: e.ETag(false)},
		{name: "NotModifiedGzip", headers: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": `"x", ` + e.ETag(true)}, status: 304, wantETag: e.ETag(true)},
		{name: "ErrOtherRepresentation", headers: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": e.ETag(false)}, status: 200, gzipped: true, wantETag: e.ETag(true)},
		{name: "ErrStale", headers: map[string]string{"If-None-Match": `"old"`}, status: 200, wantETag: e.ETag(false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/api/circulars", nil)
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			e.Serve(w, r)
			res := w.Result()
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
			}
			got := map[string]string{"ETag": res.Header.Get("ETag"), "Vary": res.Header.Get("Vary"), "Cache-Control": res.Header.Get("Cache-Control")}
			want := map[string]string{"ETag": tc.wantETag, "Vary": "Accept-Encoding", "Cache-Control": "no-cache"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("headers (-want +got):\n%s", diff)
			}
			if tc.status == 304 {
				if w.Body.Len() != 0 {
					t.Errorf("304 with a body of %d bytes", w.Body.Len())
				}
				return
			}
			if h := res.Header.Get("Set-Cookie"); h != "" {
				t.Errorf("Set-Cookie %q was kept", h)
			}
			if h := res.Header.Get("X-Total-Count"); h != "3" {
				t.Errorf("X-Total-Count %q, want 3", h)
			}
			got2 := w.Body.Bytes()
			if enc := res.Header.Get("Content-Encoding"); (enc == "gzip") != tc.gzipped {
				t.Fatalf("Content-Encoding %q, gzipped %v", enc, tc.gzipped)
			}
			if tc.gzipped {
				zr, err := gzip.NewReader(bytes.NewReader(got2))
				if err != nil {
					t.Fatal(err)
				}
				if got2, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			}
			if string(got2) != body {
				t.Errorf("body %.40q..., want %.40q...", got2, body)
			}
		})
	}
}

func TestNewEntry_ETag(t *testing.T) {
	a, b := entry(0, "[1]"), entry(0, "[2]")
	if a.ETag(false) == b.ETag(false) || a.ETag(false) == a.ETag(true) {
		t.Errorf("ETags not distinct: %s %s %s", a.ETag(false), b.ETag(false), a.ETag(true))
	}
	if strings.HasPrefix(a.ETag(false), "W/") {
		t.Errorf("ETag %s is weak", a.ETag(false))
	}
	h := http.Header{"X-Total-Count": {"4"}}
	if NewEntry(0, h, []byte("[1]")).ETag(false) == a.ETag(false) {
		t.Error("the ETag ignores the list's total")
	}
}

func TestNoneMatch(t *testing.T) {
	const etag = `"abc"`
	for _, tc := range []struct {
		headers []string
		want    bool
	}{
		{nil, false},
		{[]string{`"abc"`}, true},
		{[]string{`W/"abc"`}, true},
		{[]string{`"x", "abc"`}, true},
		{[]string{`"x"`, `"abc"`}, true},
		{[]string{`*`}, true},
		{[]string{`"abcd"`}, false},
		{[]string{`abc`}, false},
		{[]string{``}, false},
	} {
		if got := NoneMatch(tc.headers, etag); got != tc.want {
			t.Errorf("NoneMatch(%q) = %v, want %v", tc.headers, got, tc.want)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"deflate, gzip;q=1.0, *;q=0.5", true},
		{"GZIP", true},
		{"x-gzip", true},
		{"*", true},
		{"br", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"identity", false},
	} {
		if got := AcceptsGzip([]string{tc.header}); got != tc.want {
			t.Errorf("AcceptsGzip(%q) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

// TestCache_Concurrent reads, adds and invalidates from many goroutines;
// run with -race.
// TestCache_Concurrent reads, adds and invalidates from many goroutines
// (run under -race by make test): every hit serves its own key's answer,
// the cache stays within its size, and an invalidation drops everything.
func TestCache_Concurrent(t *testing.T) {
	c := New(16, time.Minute)
	var wg sync.WaitGroup
	var hits, misses atomic.Int64
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				key := Key{Path: string(rune('a' + (g+i)%20))}
				if e, ok := c.Get(key); ok {
					hits.Add(1)
					rec := httptest.NewRecorder()
					e.Serve(rec, httptest.NewRequest("GET", "/", nil))
					if rec.Code != http.StatusOK || rec.Body.String() != key.Path {
						t.Errorf("%s: served %d %q", key.Path, rec.Code, rec.Body)
					}
				} else {
					misses.Add(1)
					c.Add(key, entry(c.Version(), key.Path))
				}
				if n := c.lru.Len(); n > 16 {
					t.Errorf("%d answers kept, size 16", n)
				}
				if i%50 == 0 {
					c.Invalidate()
				}
			}
		})
	}
	wg.Wait()
	if hits.Load() == 0 || misses.Load() == 0 {
		t.Errorf("hits %d, misses %d: want both", hits.Load(), misses.Load())
	}
	c.Invalidate()
	for r := 'a'; r < 'a'+20; r++ {
		if _, ok := c.Get(Key{Path: string(r)}); ok {
			t.Errorf("%c: kept after Invalidate", r)
		}
	}
}
