package api

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/readcache"
	"regpulse/internal/store/storetest"
)

// countingStore counts the list calls that reach the store: a read served
// from the cache does not. It serialises them, as fakeStore records each
// call's query.
type countingStore struct {
	*fakeStore
	reads atomic.Int64
	mu    sync.Mutex
}

func (s *countingStore) ListCirculars(ctx context.Context, q catalog.CircularQuery) ([]catalog.Circular, int, error) {
	s.reads.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.fakeStore.ListCirculars(ctx, q)
}

func cachedFixture(t testing.TB) (*fixture, *countingStore, *readcache.Cache) {
	t.Helper()
	s := &countingStore{fakeStore: newFakeStore(storetest.Catalog())}
	c := readcache.New(64, time.Minute)
	return &fixture{store: s.fakeStore, api: New(s, discardLog, WithNow(storetest.Clock), cheapAuth, WithReadCache(c))}, s, c
}

func TestHandler_ReadCache(t *testing.T) {
	const target = "/circulars?limit=20"
	// reads serves each request in turn (a nil one is a write through the
	// API) and reports how many reached the store.
	reads := func(t *testing.T, steps []func(f *fixture) response) int64 {
		f, s, _ := cachedFixture(t)
		for _, step := range steps {
			step(f)
		}
		return s.reads.Load()
	}
	get := func(target string, headers ...string) func(f *fixture) response {
		return func(f *fixture) response { return f.get(t, target, headers...) }
	}
	write := func(f *fixture) response {
		return f.post(t, "/circulars/"+circularID(storetest.SlugUPIFraud)+"/summarize", "", "")
	}
	for _, tc := range []struct {
		name  string
		steps []func(f *fixture) response
		want  int64
	}{
		{"Repeated", []func(*fixture) response{get(target), get(target), get(target)}, 1},
		{"Normalised", []func(*fixture) response{get(target), get("/circulars?source=all&limit=20&sort=date"), get("/circulars?limit=20&search=+")}, 1},
		{"DefaultLimit", []func(*fixture) response{get("/circulars"), get("/circulars?limit=50")}, 1},
		{"OtherQuery", []func(*fixture) response{get(target), get("/circulars?limit=20&source=rbi"), get("/circulars?limit=20&source=RBI")}, 2},
		{"ErrWrite", []func(*fixture) response{get(target), write, get(target)}, 2},
		{"ErrAuthorization", []func(*fixture) response{get(target), get(target, "Authorization", "Bearer x"), get(target, "Authorization", "Bearer x")}, 3},
		{"ErrCookie", []func(*fixture) response{get(target), get(target, "Cookie", "session=x"), get(target, "Cookie", "session=x")}, 3},
		{"ErrBadQuery", []func(*fixture) response{get("/circulars?limit=0"), get("/circulars?limit=0")}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := reads(t, tc.steps); got != tc.want {
				t.Errorf("%d reads reached the store, want %d", got, tc.want)
			}
		})
	}

	t.Run("ErrSync", func(t *testing.T) {
		f, s, c := cachedFixture(t)
		f.get(t, target)
		c.Invalidate() // what a catalog sync calls
		f.get(t, target)
		if got := s.reads.Load(); got != 2 {
			t.Errorf("%d reads reached the store, want 2", got)
		}
	})

	t.Run("SameAnswer", func(t *testing.T) {
		f, _, _ := cachedFixture(t)
		plain := newFixture(t, storetest.Catalog())
		want := plain.get(t, target)
		for range 2 {
			got := f.get(t, target)
			if got.status != 200 || !bytes.Equal(got.body, want.body) {
				t.Fatalf("cached answer %d %s, want %d %s", got.status, got.body, want.status, want.body)
			}
			for _, h := range []string{"Content-Type", "X-Total-Count", "Link", "X-Content-Type-Options", "Cache-Control"} {
				if got.header.Get(h) != want.header.Get(h) {
					t.Errorf("%s %q, want %q", h, got.header.Get(h), want.header.Get(h))
				}
			}
			if got.header.Get("Vary") != "Accept-Encoding" {
				t.Errorf("Vary %q", got.header.Get("Vary"))
			}
		}
	})

	t.Run("NotModified", func(t *testing.T) {
		f, s, _ := cachedFixture(t)
		etag := f.get(t, target).header.Get("ETag")
		if len(etag) < 3 || etag[0] != '"' {
			t.Fatalf("ETag %q, want a strong one", etag)
		}
		res := f.get(t, target, "If-None-Match", etag)
		if res.status != http.StatusNotModified || len(res.body) != 0 || res.header.Get("ETag") != etag {
			t.Errorf("revalidation = %d, %d bytes, ETag %q; want 304, none, %q", res.status, len(res.body), res.header.Get("ETag"), etag)
		}
		// a client whose first request revalidates gets 304 too, from the
		// answer the handler computed in full
		f2, _, _ := cachedFixture(t)
		if res := f2.get(t, target, "If-None-Match", etag); res.status != http.StatusNotModified {
			t.Errorf("revalidation on a cold cache = %d, want 304", res.status)
		}
		if res := f.get(t, target, "If-None-Match", `"stale"`); res.status != http.StatusOK || len(res.body) == 0 {
			t.Errorf("stale revalidation = %d with %d bytes, want 200 and the body", res.status, len(res.body))
		}
		if got := s.reads.Load(); got != 1 {
			t.Errorf("%d reads reached the store, want 1", got)
		}
	})

	t.Run("Gzip", func(t *testing.T) {
		f, _, _ := cachedFixture(t)
		plain := f.get(t, target)
		for range 2 {
			res := f.get(t, target, "Accept-Encoding", "gzip")
			if res.header.Get("Content-Encoding") != "gzip" {
				t.Fatalf("Content-Encoding %q, want gzip", res.header.Get("Content-Encoding"))
			}
			zr, err := gzip.NewReader(bytes.NewReader(res.body))
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(body, plain.body) {
				t.Fatalf("gunzipped %.60q (%v), want %.60q", body, err, plain.body)
			}
			if res.header.Get("ETag") == plain.header.Get("ETag") {
				t.Error("the gzipped and plain answers share a strong ETag")
			}
		}
	})

	t.Run("ErrStoreFailure", func(t *testing.T) {
		f, _, _ := cachedFixture(t)
		f.store.err = errBroken
		if res := f.get(t, target); res.status != http.StatusInternalServerError {
			t.Fatalf("status %d, want 500", res.status)
		}
		f.store.err = nil
		if res := f.get(t, target); res.status != http.StatusOK {
			t.Errorf("after the store recovered: %d %s, want 200 (an error was cached)", res.status, res.body)
		}
	})

	t.Run("Uncached", func(t *testing.T) {
		// Every public read answers the same with and without the cache.
		f, _, _ := cachedFixture(t)
		plain := newFixture(t, storetest.Catalog())
		for _, target := range append(readTargets, "/search?q=upi", "/search/feed?q=upi") {
			want := plain.get(t, target)
			for range 2 {
				if got := f.get(t, target); got.status != want.status || !bytes.Equal(got.body, want.body) {
					t.Errorf("GET %s = %d %.80s, want %d %.80s", target, got.status, got.body, want.status, want.body)
				}
			}
		}
	})
}

// TestHandler_ReadCacheConcurrent reads and writes from many goroutines;
// run with -race. Every read answers 200 with a whole list.
func TestHandler_ReadCacheConcurrent(t *testing.T) {
	f, _, _ := cachedFixture(t)
	want := f.get(t, "/circulars?limit=20").body
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 40 {
				if g == 0 && i%10 == 0 {
					f.post(t, "/circulars/"+circularID(storetest.SlugUPIFraud)+"/summarize", "", "")
					continue
				}
				headers := []string{}
				if i%2 == 0 {
					headers = append(headers, "Accept-Encoding", "gzip")
				}
				res := f.get(t, "/circulars?limit=20", headers...)
				body, err := res.plainBody()
				if err != nil {
					t.Error(err)
					return
				}
				if res.status != 200 || !bytes.Equal(body, want) {
					t.Errorf("GET = %d %.60q", res.status, body)
					return
				}
			}
		})
	}
	wg.Wait()
}
