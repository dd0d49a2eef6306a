package api

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
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
func portal(b *testing.B, db Store, size int) http.Handler {
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
// fixed time (REGPULSE_LOAD_DURATION, default 5s) each way, without and
// with the read cache, and reports requests per second, the median and
// 95th percentile latencies, and errors. Clients and server share the
// machine's cores, as in issue 18's figures. The server listens on
// REGPULSE_LOAD_ADDR (default a free loopback port).
func BenchmarkLoad(b *testing.B) {
	duration := 5 * time.Second
	if v := os.Getenv("REGPULSE_LOAD_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("REGPULSE_LOAD_DURATION=%q: %v", v, err)
		}
		duration = d
	}
	addr := os.Getenv("REGPULSE_LOAD_ADDR")
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	const clients = 50
	db := contentStore(b)
	for _, bc := range []struct {
		name string
		size int
	}{{"cache=off", 0}, {"cache=on", 4096}} {
		b.Run(bc.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				b.Fatal(err)
			}
			srv := &http.Server{Handler: portal(b, db, bc.size), ReadHeaderTimeout: 10 * time.Second}
			go srv.Serve(ln)
			defer srv.Close()
			url := "http://" + ln.Addr().String() + readTarget
			// The clients ask for gzip, as browsers do, and read the bytes
			// without unzipping them (as wrk does): the machine's cores go
			// to the server, not to the clients' gunzip.
			tr := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients, DisableCompression: true}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
			for b.Loop() {
				res := load(b.Context(), client, url, clients, duration)
				b.ReportMetric(float64(res.n)/res.took.Seconds(), "req/s")
				b.ReportMetric(float64(res.p(50).Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(res.p(95).Microseconds())/1000, "p95-ms")
				b.ReportMetric(float64(res.errors), "errors")
				if res.errors > 0 {
					b.Logf("%d errors; the first: %v", res.errors, res.firstErr)
				}
			}
		})
	}
}

type loadResult struct {
	n, errors int
	took      time.Duration
	latencies []time.Duration // sorted
	firstErr  error
}

// p is the q-th percentile latency.
func (r loadResult) p(q int) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, len(r.latencies)*q/100)]
}

// load has clients goroutines GET url back to back for duration.
func load(ctx context.Context, client *http.Client, url string, clients int, duration time.Duration) loadResult {
	ctx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	var (
		mu  sync.Mutex
		res loadResult
		wg  sync.WaitGroup
	)
	start := time.Now()
	for range clients {
		wg.Go(func() {
			var lat []time.Duration
			var errs int
			var first error
			for ctx.Err() == nil {
				t0 := time.Now()
				err := get(client, url)
				if ctx.Err() != nil {
					break // cut off by the end of the run: not counted
				}
				if err != nil {
					errs++
					if first == nil {
						first = err
					}
					continue
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			defer mu.Unlock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			if res.firstErr == nil {
				res.firstErr = first
			}
		})
	}
	wg.Wait()
	res.took = time.Since(start)
	res.n = len(res.latencies)
	slices.Sort(res.latencies)
	return res
}

func get(client *http.Client, url string) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}
