// Package readcache keeps the answers of public read calls encoded once,
// plain and gzipped, with their strong ETags, so a repeated read costs a
// map lookup. Entries belong to a data version: Invalidate starts a new
// one (every write through the API, every catalog sync), and the time to
// live bounds what this process cannot see (writes by another instance
// sharing the store, the passing of time for date windows).
package readcache

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"regpulse/internal/metrics"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
)

// Cache is an LRU of answers with a time to live, safe for concurrent use.
// A nil *Cache caches nothing.
type Cache struct {
	lru     *expirable.LRU[Key, *Entry]
	version atomic.Uint64
}

// Key names an answer: the origin it was asked of (answers may hold
// absolute links), the path, and the query, as sent or (Normalised) as the
// caller read it. A struct, so a lookup builds no string.
type Key struct {
	Scheme, Host, Path, Query string
	Normalised                bool
}

// New returns a cache of at most size answers, each kept at most ttl.
func New(size int, ttl time.Duration) *Cache {
	return &Cache{lru: expirable.NewLRU[Key, *Entry](size, nil, ttl)}
}

// Version is the current data version: an answer computed from data read
// after this call belongs to it.
func (c *Cache) Version() uint64 {
	if c == nil {
		return 0
	}
	return c.version.Load()
}

// Invalidate starts a new data version and drops every answer. Call it
// after the data changed (not before: a read running meanwhile would cache
// the old data under the new version).
func (c *Cache) Invalidate() {
	if c == nil {
		return
	}
	c.version.Add(1)
	c.lru.Purge()
}

// Get returns the answer kept under key for the current data version.
func (c *Cache) Get(key Key) (*Entry, bool) {
	if c == nil {
		return nil, false
	}
	e, ok := c.lru.Get(key)
	if !ok || e.version != c.version.Load() {
		metrics.ReadCache.WithLabelValues("miss").Inc()
		return nil, false
	}
	metrics.ReadCache.WithLabelValues("hit").Inc()
	return e, true
}

// Add keeps e under key unless its data version has passed already.
func (c *Cache) Add(key Key, e *Entry) {
	if c == nil || e.version != c.version.Load() {
		return
	}
	c.lru.Add(key, e)
}

// Len is the number of answers kept (expired ones included until removed).
func (c *Cache) Len() int {
	if c == nil {
		return 0
	}
	return c.lru.Len()
}

// kept are the headers of an answer that belong to its body (a list's
// total and next page); the rest are set by Serve.
var kept = []string{"Content-Type", "X-Content-Type-Options", "X-Total-Count", "Link", "X-Newest-Circular", "X-Catalog-Updated"}

// Entry is one 200 answer, ready to send plain or gzipped.
type Entry struct {
	version   uint64
	header    http.Header
	plain     representation
	gzipped   representation
	gzipValue []string
}

type representation struct {
	body   []byte
	etag   []string // one value, the strong ETag
	length []string // one value, Content-Length
}

var (
	varyValue    = []string{"Accept-Encoding"}
	noCacheValue = []string{"no-cache"}
	gzipValue    = []string{"gzip"}
)

// NewEntry encodes an answer of data version: body with the headers that
// go with it (only those in kept are used). The ETag hashes the body and
// those headers, so it changes when a list's total does.
func NewEntry(version uint64, header http.Header, body []byte) *Entry {
	e := &Entry{version: version, header: http.Header{}}
	sum := sha256.New()
	sum.Write(body)
	for _, k := range kept {
		for _, v := range header.Values(k) {
			sum.Write([]byte{0})
			sum.Write([]byte(k + ": " + v))
		}
		if vs := header.Values(k); len(vs) > 0 {
			e.header[k] = slices.Clip(slices.Clone(vs)) // clipped: an Add by a later writer copies
		}
	}
	tag := base64.RawURLEncoding.EncodeToString(sum.Sum(nil)[:18])
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(body) // writes to a bytes.Buffer do not fail
	zw.Close()
	e.plain = representation{body: body, etag: []string{`"` + tag + `"`}, length: []string{strconv.Itoa(len(body))}}
	// A strong ETag names exact bytes, so the gzipped bytes have their own.
	e.gzipped = representation{body: gz.Bytes(), etag: []string{`"` + tag + `-gz"`}, length: []string{strconv.Itoa(gz.Len())}}
	e.gzipValue = gzipValue
	return e
}

// ETag is the strong ETag of the answer, plain or gzipped.
func (e *Entry) ETag(gzipped bool) string {
	if gzipped {
		return e.gzipped.etag[0]
	}
	return e.plain.etag[0]
}

// Serve answers r with the entry: gzipped when r accepts gzip, 304 without
// a body when r's If-None-Match already names it. Cache-Control: no-cache
// lets clients keep the body but makes them ask each time, so a change
// shows at once.
func (e *Entry) Serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h["Vary"] = varyValue
	h["Cache-Control"] = noCacheValue
	rep := &e.plain
	gz := AcceptsGzip(r.Header["Accept-Encoding"])
	if gz {
		rep = &e.gzipped
	}
	h["Etag"] = rep.etag
	if NoneMatch(r.Header["If-None-Match"], rep.etag[0]) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	for k, v := range e.header {
		h[k] = v
	}
	if gz {
		h["Content-Encoding"] = e.gzipValue
	}
	h["Content-Length"] = rep.length
	w.WriteHeader(http.StatusOK)
	w.Write(rep.body)
}

// NoneMatch reports whether If-None-Match header values name etag. The
// comparison is weak, as RFC 9110 section 13.1.2 asks: W/"x" matches "x".
func NoneMatch(headers []string, etag string) bool {
	etag = strings.TrimPrefix(etag, "W/")
	for _, h := range headers {
		for tag := range strings.SplitSeq(h, ",") {
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// AcceptsGzip reports whether Accept-Encoding header values accept gzip
// (by name or by *), with a quality above zero.
func AcceptsGzip(headers []string) bool {
	for _, h := range headers {
		for part := range strings.SplitSeq(h, ",") {
			coding, params, _ := strings.Cut(part, ";")
			coding = strings.TrimSpace(coding)
			if !strings.EqualFold(coding, "gzip") && !strings.EqualFold(coding, "x-gzip") && coding != "*" {
				continue
			}
			if q, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
				if f, err := strconv.ParseFloat(strings.TrimSpace(q), 64); err != nil || f == 0 {
					return false
				}
			}
			return true
		}
	}
	return false
}

// Recorder is a ResponseWriter that keeps what a handler answered, for
// NewEntry or to send on unchanged (Flush) when it is not a 200.
type Recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

// NewRecorder returns an empty Recorder.
func NewRecorder() *Recorder { return &Recorder{header: http.Header{}} }

func (rec *Recorder) Header() http.Header { return rec.header }

func (rec *Recorder) WriteHeader(status int) {
	if rec.status == 0 {
		rec.status = status
	}
}

func (rec *Recorder) Write(p []byte) (int, error) {
	rec.WriteHeader(http.StatusOK)
	return rec.body.Write(p)
}

// Entry is the recorded answer as an Entry of version, if it is a 200.
func (rec *Recorder) Entry(version uint64) (*Entry, bool) {
	if rec.status != http.StatusOK {
		return nil, false
	}
	return NewEntry(version, rec.header, rec.body.Bytes()), true
}

// Flush sends the recorded answer to w as it was.
func (rec *Recorder) Flush(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range rec.header {
		h[k] = v
	}
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(rec.body.Bytes())
}
