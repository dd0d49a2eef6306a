// Command regpulse-api serves only the API (/api/*), without the site
// generator, so it stays small enough to deploy as a serverless function
// beside the static site. It does not import the generator (Hugo): a test
// checks its imports and size.
//
// Under a Lambda runtime (a Netlify Go function; AWS_LAMBDA_RUNTIME_API
// is set) it answers API Gateway proxy events with the same router,
// through aws-lambda-go-api-proxy's httpadapter. It is then stateless:
// the data is in PostgreSQL (DATABASE_URL), the secrets in the
// environment, the rate limits counted in the database, and the catalog
// is what the last `regpulse build` synced there. Anywhere else it is a
// plain HTTP server, on SQLite in --data unless --database-url is given.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
	"github.com/go-chi/chi/v5"

	"regpulse/api"
	"regpulse/internal/ai"
	"regpulse/internal/ai/openai"
	"regpulse/internal/auth"
	"regpulse/internal/extract"
	"regpulse/internal/newsletter"
	"regpulse/internal/readcache"
	"regpulse/internal/store"
	"regpulse/internal/web"
)

// lambdaRuntimeEnv is set by a Lambda runtime (and Netlify's) to the
// address of its Runtime API.
const lambdaRuntimeEnv = "AWS_LAMBDA_RUNTIME_API"

// functionPrefix is the function's own path on Netlify: a request that
// reaches it there rather than through the /api/* redirect is served as
// the /api path it stands for.
const functionPrefix = "/.netlify/functions/regpulse-api"

type config struct {
	addr, dataDir, content, databaseURL string
	lambda                              bool
	auth                                api.AuthFlags
	readCacheSize                       int
	readCacheTTL                        time.Duration
}

// started is when the process started, near enough: the cold start's
// stages are logged against it.
var started = time.Now()

func main() {
	var c config
	flag.StringVar(&c.addr, "addr", ":8081", "address to listen on (not under Lambda)")
	flag.StringVar(&c.dataDir, "data", "./data", "directory of the SQLite database, and of the secrets the environment does not give")
	flag.StringVar(&c.content, "content", "content", "content directory, synced into the store at start (not under Lambda: `regpulse build` syncs it)")
	flag.StringVar(&c.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "PostgreSQL database, postgres://... (default $DATABASE_URL); required under Lambda")
	flag.IntVar(&c.readCacheSize, "read-cache-size", 4096, "answers of public API reads kept encoded in memory; 0 turns the read cache off")
	flag.DurationVar(&c.readCacheTTL, "read-cache-ttl", 30*time.Second, "how long a cached read may be served (writes through other instances show after at most this)")
	c.auth.Register(flag.CommandLine)
	flag.Parse()
	c.lambda = os.Getenv(lambdaRuntimeEnv) != ""
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	level := slog.LevelInfo
	if os.Getenv("REGPULSE_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	if err := run(ctx, c, os.Getenv, log); err != nil {
		fmt.Fprintln(os.Stderr, "regpulse-api:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config, getenv func(string) string, log *slog.Logger) error {
	if c.lambda {
		// Nothing on local disk: a function's instances share nothing but
		// the database and the environment.
		if c.databaseURL == "" || getenv(auth.SecretEnv) == "" {
			return errors.New("under Lambda, DATABASE_URL and " + auth.SecretEnv + " must be set")
		}
	}
	authCfg, err := c.auth.Config(c.dataDir, getenv)
	if err != nil {
		return err
	}
	target := filepath.Join(c.dataDir, "regpulse.db")
	if c.databaseURL != "" {
		target = c.databaseURL
	}
	db, err := store.Open(ctx, target)
	if err != nil {
		return err
	}
	defer db.Close()
	log.Debug("store open", "since start", time.Since(started))
	if !c.lambda {
		// A failed sync is logged, not fatal: the store keeps what it last had.
		if stats, err := db.SyncContentDir(ctx, c.content); err != nil {
			log.Error("catalog sync failed; the API serves the last synced data", "content", c.content, "err", err)
		} else {
			log.Info("catalog synced into the store", "changes", stats.String())
		}
		// A function reads the index at its first search instead: a cold
		// start that serves something else should not wait for it.
		db.WarmSearch(ctx, log)
	}
	// The AI's model comes from the OPENAI_* environment variables (see
	// README); without them the local extractive AI answers.
	svc, err := openai.NewService(openai.Config{APIKey: getenv("OPENAI_API_KEY"),
		BaseURL: getenv("OPENAI_BASE_URL"), Model: getenv("OPENAI_MODEL")}, ai.WithLogger(log))
	if err != nil {
		return err
	}
	if !c.lambda {
		svc.Publish("ai") // expvar on a long-lived server only
	}
	tokens, err := newsletter.LoadTokens(c.dataDir, getenv)
	if err != nil {
		return err
	}
	opts := []api.Option{api.WithAuth(authCfg), api.WithNewsletter(api.NewsletterConfig{Tokens: tokens}),
		api.WithAI(api.AIConfig{Service: svc})}
	if !c.lambda {
		// A function has no OCR tools to find (the pure-Go readers
		// answer), and probing for them would lengthen its cold start.
		opts = append(opts, api.WithExtractor(extract.Installed(log)))
	}
	if c.databaseURL != "" {
		opts = append(opts, api.WithSharedRateLimits(db))
	}
	if c.readCacheSize > 0 {
		// Per instance: a write through another instance shows here after at
		// most the time to live.
		opts = append(opts, api.WithReadCache(readcache.New(c.readCacheSize, c.readCacheTTL)))
	}
	h := handler(api.New(db, log, opts...))
	log.Debug("ready", "since start", time.Since(started))
	if c.lambda {
		lambda.StartWithOptions(httpadapter.New(h).ProxyWithContext, lambda.WithContext(ctx))
		return nil
	}
	return web.Serve(ctx, c.addr, h, log)
}

// handler mounts the API at /api, and serves the function's own path as
// /api too.
func handler(apiHandler http.Handler) http.Handler {
	r := chi.NewRouter()
	r.Mount("/api", apiHandler)
	r.NotFound(http.NotFound)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if rest, ok := strings.CutPrefix(req.URL.Path, functionPrefix); ok {
			req.URL.Path = "/api" + rest
			req.URL.RawPath = ""
		}
		r.ServeHTTP(w, req)
	})
}
