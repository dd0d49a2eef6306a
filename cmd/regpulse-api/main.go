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

	"regpulse/internal/app"
	"regpulse/internal/metrics"
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
	addr   string
	lambda bool
	app    app.Config
}

// started is when the process started, near enough: the cold start's
// stages are logged against it.
var started = time.Now()

// flags registers the command's flags on fs: the API's own (app.Config,
// shared with regpulse serve) and the address.
func (c *config) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", ":8081", "address to listen on (not under Lambda)")
	c.app.Register(fs, "content directory, synced into the store at start (not under Lambda: `regpulse build` syncs it)")
}

func main() {
	var c config
	c.flags(flag.CommandLine)
	flag.Parse()
	c.lambda = os.Getenv(lambdaRuntimeEnv) != ""
	if c.app.SearchSnapshot == "" {
		c.app.SearchSnapshot = snapshotBeside(os.Executable)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if os.Getenv("REGPULSE_DEBUG") != "" {
		c.app.LogLevel = slog.LevelDebug
	}
	log := c.app.Logger(os.Stderr)
	if err := run(ctx, c, os.Getenv, log); err != nil {
		fmt.Fprintln(os.Stderr, "regpulse-api:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, c config, getenv func(string) string, log *slog.Logger) error {
	a, err := app.Open(ctx, c.app, app.Env{Getenv: getenv, Function: c.lambda, SearchSnapshot: builtInSnapshot}, log)
	if err != nil {
		return err
	}
	defer a.Close()
	h := metrics.Instrument(handler(a.Handler))
	log.Debug("ready", "since start", time.Since(started))
	if c.lambda {
		lambda.StartWithOptions(httpadapter.New(h).ProxyWithContext, lambda.WithContext(ctx))
		return nil
	}
	if err := c.app.ServeMetrics(ctx, log); err != nil {
		return err
	}
	return web.Serve(ctx, c.addr, h, log)
}

// snapshotBeside is the search index's snapshot shipped beside the
// function's binary (app.SearchSnapshotFile), or "" when there is none.
func snapshotBeside(executable func() (string, error)) string {
	exe, err := executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), app.SearchSnapshotFile)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
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
