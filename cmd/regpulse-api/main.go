// Command regpulse-api serves only the API (/api/*), without the site
// generator, so it stays small enough to deploy as a serverless function
// beside the static site. It does not import the generator (Hugo).
//
// The Netlify Functions wrapper (a Lambda-style handler around the same
// api.New router) comes with the deployment issue; until then this binary
// runs the API as a plain HTTP server behind any proxy.
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
	"syscall"

	"github.com/go-chi/chi/v5"

	"regpulse/api"
	"regpulse/internal/ai"
	"regpulse/internal/ai/openai"
	"regpulse/internal/extract"
	"regpulse/internal/newsletter"
	"regpulse/internal/store"
	"regpulse/internal/web"
)

func main() {
	addr := flag.String("addr", ":8081", "address to listen on")
	dataDir := flag.String("data", "./data", "directory of the SQLite database")
	content := flag.String("content", "content", "content directory, synced into the store at start")
	var af api.AuthFlags
	af.Register(flag.CommandLine)
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	authCfg, err := af.Config(*dataDir, os.Getenv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "regpulse-api:", err)
		os.Exit(1)
	}
	if err := run(ctx, *addr, *dataDir, *content, authCfg, log); err != nil {
		fmt.Fprintln(os.Stderr, "regpulse-api:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, addr, dataDir, content string, authCfg api.AuthConfig, log *slog.Logger) error {
	db, err := store.Open(ctx, filepath.Join(dataDir, "regpulse.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	// A failed sync is logged, not fatal: the store keeps what it last had.
	if stats, err := db.SyncContentDir(ctx, content); err != nil {
		log.Error("catalog sync failed; the API serves the last synced data", "content", content, "err", err)
	} else {
		log.Info("catalog synced into the store", "changes", stats.String())
	}
	// The AI's model comes from the OPENAI_* environment variables (see
	// README); without them the local extractive AI answers.
	svc, err := openai.NewService(openai.Config{APIKey: os.Getenv("OPENAI_API_KEY"),
		BaseURL: os.Getenv("OPENAI_BASE_URL"), Model: os.Getenv("OPENAI_MODEL")}, ai.WithLogger(log))
	if err != nil {
		return err
	}
	svc.Publish("ai")
	r := chi.NewRouter()
	tokens, err := newsletter.LoadTokens(dataDir, os.Getenv)
	if err != nil {
		return err
	}
	r.Mount("/api", api.New(db, log, api.WithAuth(authCfg), api.WithNewsletter(api.NewsletterConfig{Tokens: tokens}),
		api.WithExtractor(extract.Installed(log)), api.WithAI(api.AIConfig{Service: svc})))
	r.NotFound(http.NotFound)
	return web.Serve(ctx, addr, r, log)
}
