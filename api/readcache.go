package api

import (
	"context"
	"fmt"
	"net/http"

	"regpulse/internal/readcache"
)

// WithReadCache makes the API answer its public read calls from c (see
// package readcache); by default nothing is cached. Every write through
// the API starts a new data version of c; whoever else changes the store
// (a catalog sync) calls c.Invalidate.
func WithReadCache(c *readcache.Cache) Option {
	return func(h *Handler) { h.reads = c }
}

// invalidateOnWrite starts a new data version after every request that
// may write (any method but GET, HEAD and OPTIONS), whatever its outcome:
// a cheap, safe rule where reads far outnumber writes.
func (h *Handler) invalidateOnWrite(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
		default:
			defer h.reads.Invalidate()
		}
		next.ServeHTTP(w, r)
	})
}

// cacheSlot carries a read's normalised cache key from its handler back
// to cached (see fromCache).
type cacheSlot struct {
	reads *readcache.Cache
	key   readcache.Key
	hit   *readcache.Entry
}

type cacheSlotKey struct{}

// cached serves a public read from the read cache: first by the request
// as sent (origin, path and raw query), then, once the handler has read
// its parameters, by the normalised query (fromCache). Only 200 answers
// are kept; requests carrying credentials are never served from it nor
// kept, so nothing per-user is shared.
func (h *Handler) cached(next http.HandlerFunc) http.HandlerFunc {
	if h.reads == nil {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" || r.Header.Get("Cookie") != "" {
			next(w, r)
			return
		}
		version := h.reads.Version() // before the handler reads any data
		raw := requestKey(r)
		if e, ok := h.reads.Get(raw); ok {
			e.Serve(w, r)
			return
		}
		slot := &cacheSlot{reads: h.reads}
		// The handler must answer in full: the client's If-None-Match is
		// checked against the cached entry's ETag, not the handler's.
		inner := r.WithContext(context.WithValue(r.Context(), cacheSlotKey{}, slot))
		inner.Header = r.Header.Clone()
		inner.Header.Del("If-None-Match")
		rec := readcache.NewRecorder()
		next(rec, inner)
		e := slot.hit
		if e == nil {
			var ok bool
			if e, ok = rec.Entry(version); !ok {
				rec.Flush(w)
				return
			}
			if slot.key.Normalised {
				h.reads.Add(slot.key, e)
			}
		}
		h.reads.Add(raw, e)
		e.Serve(w, r)
	}
}

// requestKey is the request as sent: its origin (feeds hold absolute
// links), path and query.
func requestKey(r *http.Request) readcache.Key {
	return readcache.Key{Scheme: requestScheme(r), Host: r.Host, Path: r.URL.Path, Query: r.URL.RawQuery}
}

// fromCache is called by a cached read once it has read and checked its
// query q (defaults filled in, values in their canonical spelling): it
// reports whether the answer to an equivalent request is cached, and then
// the handler answers nothing more.
func fromCache(r *http.Request, q any) bool {
	slot, _ := r.Context().Value(cacheSlotKey{}).(*cacheSlot)
	if slot == nil {
		return false
	}
	// %#v names the query's type and every field: no two queries of
	// different answers print the same.
	slot.key = readcache.Key{Scheme: requestScheme(r), Host: r.Host, Path: r.URL.Path, Query: fmt.Sprintf("%#v", q), Normalised: true}
	slot.hit, _ = slot.reads.Get(slot.key)
	return slot.hit != nil
}

// recording reports whether a cached read's answer is being recorded for
// the read cache (which keeps it plain and compresses it itself).
func recording(r *http.Request) bool {
	return r.Context().Value(cacheSlotKey{}) != nil
}
