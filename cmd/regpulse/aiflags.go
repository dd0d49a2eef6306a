package main

import (
	"flag"
	"log/slog"
	"os"
	"time"

	"regpulse/api"
	"regpulse/internal/ai"
	"regpulse/internal/ai/openai"
)

// aiFlags configure the AI calls. The model's settings default to the
// OPENAI_* environment variables; the key is read from OPENAI_API_KEY
// only, because a flag's value shows in every process list.
type aiFlags struct {
	baseURL, model string
	timeout        time.Duration
	rateLimit      int
}

func (a *aiFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.baseURL, "openai-base-url", os.Getenv("OPENAI_BASE_URL"),
		"OpenAI-compatible API root, e.g. http://localhost:11434/v1 for Ollama (default $OPENAI_BASE_URL; empty with no OPENAI_API_KEY: the local extractive AI)")
	fs.StringVar(&a.model, "openai-model", os.Getenv("OPENAI_MODEL"), "model name (default $OPENAI_MODEL, else "+openai.DefaultModel+")")
	fs.DurationVar(&a.timeout, "openai-timeout", 60*time.Second, "time limit of one model request")
	fs.IntVar(&a.rateLimit, "ai-rate-limit", 20, "AI calls each client may make per minute")
}

// config builds the AI calls' configuration; its counters are published
// through expvar under "ai".
func (a *aiFlags) config(log *slog.Logger) (api.AIConfig, error) {
	svc, err := openai.NewService(openai.Config{APIKey: os.Getenv("OPENAI_API_KEY"), BaseURL: a.baseURL,
		Model: a.model, Timeout: a.timeout}, ai.WithLogger(log))
	if err != nil {
		return api.AIConfig{}, err
	}
	svc.Publish("ai")
	return api.AIConfig{Service: svc, RateLimit: a.rateLimit, RateWindow: time.Minute}, nil
}
