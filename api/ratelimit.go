package api

import (
	"context"
	"math"
	"net/http"
	"regpulse/internal/metrics"
	"strconv"
	"time"

	"github.com/go-chi/httprate"
)

// RateStore keeps rate-limit counts where every instance of the API
// sees them (internal/store's rate_limits table), so a limit holds
// however many instances share the store.
type RateStore interface {
	// TakeRate counts one request against key in the window starting at
	// window if fewer than allowance are counted there, atomically; it
	// returns the window's count and whether this one was counted.
	TakeRate(ctx context.Context, key string, window time.Time, allowance int, length time.Duration) (int, bool, error)
	// Rate is key's count in the window starting at window.
	Rate(ctx context.Context, key string, window time.Time) (int, error)
}

// WithSharedRateLimits makes every rate limit count in rs instead of in
// this process's memory: for several instances (or a function's many
// short-lived ones) behind one address.
func WithSharedRateLimits(rs RateStore) Option { return func(h *Handler) { h.rates = rs } }

// rateLimit allows n requests per window from one client address (see
// clientKey), or from one API key (rateKey), over a sliding window (the previous window's count weighted
// by how much of it still overlaps); past that a 429 JSON error says what
// was limited, with Retry-After. name keeps this limit's counts apart
// from the others'. In memory httprate counts (under its own lock); with
// a RateStore the store does, atomically.
func (h *Handler) rateLimit(name string, n int, window time.Duration, what string) func(http.Handler) http.Handler {
	refuse := func(w http.ResponseWriter, r *http.Request) {
		metrics.RateLimited.WithLabelValues(name).Inc()
		writeJSON(w, http.StatusTooManyRequests, localize(r, errorStatus(http.StatusTooManyRequests, what)))
	}
	if h.rates == nil {
		return httprate.LimitBy(n, window, rateKey, httprate.WithLimitHandler(refuse))
	}
	l := &sharedLimit{rates: h.rates, name: name, n: n, window: window}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ok, err := l.take(r.Context(), w, r)
			switch {
			case err != nil:
				h.log.Error("rate limit store failed", "limit", name, "err", err, "request_id", requestID(r.Context()))
				writeJSON(w, http.StatusServiceUnavailable, localize(r, errorStatus(http.StatusServiceUnavailable, "the service is busy; try again later")))
			case !ok:
				refuse(w, r)
			default:
				next.ServeHTTP(w, r)
			}
		})
	}
}

// sharedLimit is a sliding-window limit counted in a RateStore: the
// previous window is closed, so reading it apart is safe; the current
// one is taken in one statement.
type sharedLimit struct {
	rates  RateStore
	name   string
	n      int
	window time.Duration
}

const rateStoreTimeout = 5 * time.Second

// take counts r if the limit allows it, and sets httprate's headers.
func (l *sharedLimit) take(ctx context.Context, w http.ResponseWriter, r *http.Request) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, rateStoreTimeout)
	defer cancel()
	who, _ := rateKey(r)
	key := l.name + ":" + who
	now := time.Now().UTC()
	cur := now.Truncate(l.window)
	prev, err := l.rates.Rate(ctx, key, cur.Add(-l.window))
	if err != nil {
		return false, err
	}
	overlap := float64(l.window-now.Sub(cur)) / float64(l.window)
	allowance := l.n - int(math.Round(float64(prev)*overlap))
	count, ok, err := l.rates.TakeRate(ctx, key, cur, allowance, l.window)
	if err != nil {
		return false, err
	}
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(l.n))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(cur.Add(l.window).Unix(), 10))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, allowance-count)))
	if !ok {
		h.Set("Retry-After", strconv.Itoa(int(l.window.Seconds())))
	}
	return ok, nil
}

// rateKey is whom a rate limit counts a request against: its API key
// ("apikey:" and its id, whatever address it comes from), else its
// client address (clientKey). A key's limits are the address's.
func rateKey(r *http.Request) (string, error) {
	if k, ok := keyOf(r); ok {
		return k.ActorID(), nil
	}
	return clientKey(r)
}
