package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regpulse/internal/metrics"
	"regpulse/internal/schedule"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// Handler is the whole portal on one port: the API under /api and the
// built site everywhere else, gzip-compressed.
// asStored (nil: none) picks the paths sent as they are, never
// compressed: api.SentAsStored, the downloads whose digest header is of
// the bytes stored.
func Handler(site *Site, apiHandler http.Handler, asStored func(path string) bool) http.Handler {
	r := chi.NewRouter()
	r.Use(metrics.Instrument)
	// No middleware.RealIP: it believes X-Forwarded-For, X-Real-IP and
	// True-Client-IP from any client, so anyone could pick their IP.
	// Nothing reads the client IP yet; whatever first does (rate limits)
	// should add middleware.ClientIPFromHeader or ClientIPFromXFF with the
	// trusted proxies' prefixes and read it with middleware.GetClientIP.
	types := []string{"text/html", "text/css", "text/plain", "text/javascript",
		"application/javascript", "application/json", "application/xml", "application/atom+xml",
		"application/feed+json", "image/svg+xml"}
	// The API's answers are compressed as each is made (the read cache
	// keeps its hits compressed already), at the fastest level: on a
	// search's answer (about 90 KB of JSON) it takes a third less CPU a
	// search than level 5 for about a fifth more bytes
	// (BenchmarkSearchLoad, cache off: 4.4 to 2.8 CPU-ms a search).
	siteCompress, apiCompress := middleware.Compress(5, types...), middleware.Compress(1, types...)
	r.Use(func(next http.Handler) http.Handler {
		siteZipped, apiZipped := siteCompress(next), apiCompress(next)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case asStored != nil && asStored(r.URL.Path):
				next.ServeHTTP(w, r)
			case strings.HasPrefix(r.URL.Path, "/api/"):
				apiZipped.ServeHTTP(w, r)
			default:
				siteZipped.ServeHTTP(w, r)
			}
		})
	})
	if apiHandler != nil {
		r.Mount("/api", apiHandler)
	}
	r.Handle("/*", site)
	return r
}

// Serve runs h on addr until ctx is cancelled, then shuts down gracefully,
// giving running requests up to 10 seconds.
func Serve(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeListener(ctx, ln, h, log)
}

// ServeListener is Serve on a listener already open.
func ServeListener(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second, // uploads of up to 10 MB on slow links
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("serving", "addr", ln.Addr().String())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// BuildFunc builds the site into dir. dir may hold an earlier build of
// the site, to be brought up to date in place: a build that fails must
// leave it as it was (the generator commits nothing until it succeeds).
type BuildFunc func(ctx context.Context, dir string) error

// RebuildEvery rebuilds the site every interval into the folder beside
// base not being served (Rebuild) and swaps it in. A failed build keeps
// the last good site and logs why. It returns when ctx is cancelled.
func (s *Site) RebuildEvery(ctx context.Context, interval time.Duration, base string, build BuildFunc, log *slog.Logger, after func()) {
	s.Rebuild(ctx, interval, nil, base, build, log, after)
}

// Kick asks for a rebuild at once (a publish from the editors' web UI),
// besides the interval's: asks made while a rebuild runs make one more
// rebuild after it, not one each, so a publish is always built.
type Kick chan struct{}

// NewKick makes a Kick for Rebuild.
func NewKick() Kick { return make(Kick, 1) }

// Now asks for a rebuild; it never blocks.
func (k Kick) Now() {
	select {
	case k <- struct{}{}:
	default: // one is asked for already
	}
}

// TwinSuffix names the second of the two folders Rebuild builds into:
// base and base+TwinSuffix (public and public.b).
const TwinSuffix = ".b"

// Rebuild is RebuildEvery that also rebuilds at once when kick asks
// (nil: never); an interval of 0 rebuilds only then.
//
// The site lives in two folders, base and its twin (TwinSuffix), and
// each rebuild goes into the one not being served: the first time a new
// folder, then the one served before it, which holds the site before
// last and is brought up to date in place. A good build is swapped in;
// the other folder is kept for the next. (A new folder each time, as
// before, meant a whole tree written or linked at every rebuild and one
// removed: at 100,000 circulars, 230,000 files each way, half of an
// edit's 20 s.) Requests still reading the folder replaced see its
// files whole, old or new: the build replaces each by a rename.
func (s *Site) Rebuild(ctx context.Context, interval time.Duration, kick Kick, base string, build BuildFunc, log *slog.Logger, after func()) {
	type rebuilt struct {
		dir      string
		took     time.Duration
		unusable bool // built, but Swap refused it
	}
	base = filepath.Clean(base)
	every(ctx, interval, kick, func(ctx context.Context) (rebuilt, error) {
		r := rebuilt{dir: base + TwinSuffix}
		if filepath.Clean(s.Dir()) != base {
			r.dir = base
		}
		// (what a failed build left in a folder it made is removed; a
		// folder holding an earlier site is the next build's to update)
		_, err := os.Stat(r.dir)
		made := errors.Is(err, fs.ErrNotExist)
		start := time.Now()
		if err := build(ctx, r.dir); err != nil {
			if made {
				os.RemoveAll(r.dir)
			}
			if ctx.Err() != nil {
				return r, ctx.Err() // shutting down: whatever the build said, it was cancelled
			}
			return r, err
		}
		if err := s.Swap(r.dir); err != nil {
			if made {
				os.RemoveAll(r.dir)
			}
			r.unusable = true
			return r, err
		}
		r.took = time.Since(start)
		return r, nil
	}, func(r rebuilt, err error) {
		switch {
		case r.unusable:
			log.Error("rebuild produced an unusable site; still serving the last good site", "err", err)
			return
		case err != nil:
			log.Error("rebuild failed; still serving the last good site", "dir", s.Dir(), "err", err)
			return
		}
		log.Info("rebuilt site", "dir", r.dir, "took", r.took.Round(time.Millisecond))
		if after != nil {
			after()
		}
	})
}

// every is schedule.Every whose runs kick also starts; interval 0 has no
// ticks.
func every[R any](ctx context.Context, interval time.Duration, kick Kick, run func(context.Context) (R, error), report func(R, error)) {
	if kick == nil {
		if interval > 0 {
			schedule.Every(ctx, interval, run, report)
		}
		return
	}
	var tick <-chan time.Time
	if interval > 0 {
		t := time.NewTicker(interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		case <-kick:
		}
		res, err := run(ctx)
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return
		}
		report(res, err)
	}
}
