package api

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/httprate"
)

// RateStore keeps rate-limit counts where every instance of the API
// sees them (internal/store's rate_limits table), so a limit holds
// however many instances share the store.
type RateStore interface {
	// AddRate adds n to key's count in the window starting at window
	// (windows are length long).
	AddRate(ctx context.Context, key string, window time.Time, n int, length time.Duration) error
	// Rates are key's counts in the windows starting at current and
	// previous.
	Rates(ctx context.Context, key string, current, previous time.Time) (int, int, error)
}

// WithSharedRateLimits makes every rate limit count in rs instead of in
// this process's memory: for several instances (or a function's many
// short-lived ones) behind one address.
func WithSharedRateLimits(rs RateStore) Option { return func(h *Handler) { h.rates = rs } }

// rateLimit allows n requests per window from one client address (see
// clientKey); past that a 429 JSON error says what was limited, with
// Retry-After. name keeps this limit's counts apart from the others'.
func (h *Handler) rateLimit(name string, n int, window time.Duration, what string) func(http.Handler) http.Handler {
	opts := []httprate.Option{httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusTooManyRequests, errorStatus(http.StatusTooManyRequests, what))
	})}
	if h.rates != nil {
		opts = append(opts, httprate.WithLimitCounter(&storeCounter{rates: h.rates, name: name}),
			httprate.WithErrorHandler(func(w http.ResponseWriter, r *http.Request, err error) {
				h.log.Error("rate limit store failed", "limit", name, "err", err)
				writeJSON(w, http.StatusServiceUnavailable, errorStatus(http.StatusServiceUnavailable, "the service is busy; try again later"))
			}))
	}
	return httprate.LimitBy(n, window, clientKey, opts...)
}

// storeCounter is httprate's counter over a RateStore. httprate's
// interface has no context: each call gets a short deadline of its own.
type storeCounter struct {
	rates  RateStore
	name   string
	window time.Duration
}

const rateStoreTimeout = 5 * time.Second

func (c *storeCounter) Config(_ int, window time.Duration) { c.window = window }

func (c *storeCounter) Increment(key string, window time.Time) error {
	return c.IncrementBy(key, window, 1)
}

func (c *storeCounter) IncrementBy(key string, window time.Time, n int) error {
	ctx, cancel := context.WithTimeout(context.Background(), rateStoreTimeout)
	defer cancel()
	return c.rates.AddRate(ctx, c.name+":"+key, window, n, c.window)
}

func (c *storeCounter) Get(key string, current, previous time.Time) (int, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), rateStoreTimeout)
	defer cancel()
	return c.rates.Rates(ctx, c.name+":"+key, current, previous)
}
