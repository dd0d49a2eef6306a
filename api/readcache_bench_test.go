package api

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"regpulse/internal/readcache"
	"regpulse/internal/store"
	"regpulse/internal/web"
)

// readTarget is the read of issue 18's table: what the circulars page
// asks for.
const readTarget = "/api/circulars?limit=20"

// contentStore is a SQLite store in a file, as `regpulse serve` has,
// synced with the real content.
func contentStore(b *testing.B) *store.DB {
	b.Helper()
	db, err := store.Open(b.Context(), filepath.Join(b.TempDir(), "regpulse.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.SyncContentDir(b.Context(), "../content"); err != nil {
		b.Fatal(err)
	}
	return db
}

// portal is the whole server's handler (site and API, compressed) over db,
// with a read cache of size answers or none.
func portal(b testing.TB, db Store, size int) http.Handler {
	b.Helper()
	dir := b.TempDir()
	for _, name := range []string{"index.html", "404.html"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("<!doctype html>"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	site, err := web.NewSite(dir)
	if err != nil {
		b.Fatal(err)
	}
	opts := []Option{cheapAuth}
	if size > 0 {
		opts = append(opts, WithReadCache(readcache.New(size, 30*time.Second)))
	}
	return web.Handler(site, New(db, discardLog, opts...), SentAsStored)
}

// discardWriter is a ResponseWriter that keeps nothing, reused across
// requests, so a benchmark counts the server's allocations only.
type discardWriter struct {
	header http.Header
	status int
}

func (w *discardWriter) Header() http.Header         { return w.header }
func (w *discardWriter) WriteHeader(status int)      { w.status = status }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkReadCache serves GET /api/circulars?limit=20 in process, from
// the SQLite store of the real content, through the whole server's
// handler: without the read cache, and from it, plain and gzipped.
func BenchmarkReadCache(b *testing.B) {
	db := contentStore(b)
	for _, bc := range []struct {
		name           string
		size           int
		acceptEncoding string
	}{
		{"cache=off", 0, ""},
		{"cache=on", 4096, ""},
		{"cache=on/gzip", 4096, "gzip"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			h := portal(b, db, bc.size)
			r := httptest.NewRequest("GET", readTarget, nil)
			if bc.acceptEncoding != "" {
				r.Header.Set("Accept-Encoding", bc.acceptEncoding)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r) // fills the cache
			w := &discardWriter{header: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.header)
				w.status = 0
				h.ServeHTTP(w, r)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
			}
			b.ReportMetric(float64(rec.Body.Len())/1024, "KiB/answer")
		})
	}
}

// BenchmarkLoad runs 50 clients against a real server on loopback for a
// fixed time each way (benchLoad), without and with the read cache, and
// reports requests per second, the median and 95th percentile latencies,
// and errors.
func BenchmarkLoad(b *testing.B) {
	db := contentStore(b)
	for _, bc := range []struct {
		name string
		size int
	}{{"cache=off", 0}, {"cache=on", 4096}} {
		b.Run(bc.name, func(b *testing.B) {
			benchLoad(b, portal(b, db, bc.size), []string{readTarget}, 0)
		})
	}
}
