// Package app assembles RegPulse's API from its configuration: the one
// place that reads the settings both binaries share (flags with the same
// names and the same environment variables), opens the store, syncs the
// catalog into it, loads the secrets, and wires the AI, the rate limits,
// the read cache and the document extractor. `regpulse serve`,
// `regpulse-api` (a server or a function) and the CLIs that need the
// store call it; each main keeps only its own mode (the site, the
// schedules, the Lambda runtime). It must not import the generator: the
// function is built without Hugo.
package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"regpulse/api"
	"regpulse/internal/ai"
	"regpulse/internal/ai/openai"
	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/cms"
	"regpulse/internal/extract"
	"regpulse/internal/mail"
	"regpulse/internal/metrics"
	"regpulse/internal/newsletter"
	"regpulse/internal/obligations"
	"regpulse/internal/readcache"
	"regpulse/internal/sso"
	"regpulse/internal/store"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
	"regpulse/internal/web"
	"regpulse/internal/webhooks"
)

// The environment variables every command reads the same way.
const (
	// DatabaseURLEnv is the PostgreSQL database used instead of SQLite in
	// --data (--database-url's default).
	DatabaseURLEnv = "DATABASE_URL"
	// SiteURLEnv is the site's absolute URL (--site-url's default).
	SiteURLEnv = "REGPULSE_SITE_URL"
	// OpenAI-compatible model: the key only from the environment (a flag's
	// value shows in process lists), the rest as the flags' defaults.
	OpenAIKeyEnv     = "OPENAI_API_KEY"
	OpenAIBaseURLEnv = "OPENAI_BASE_URL"
	OpenAIModelEnv   = "OPENAI_MODEL"
	// SearchSnapshotEnv is the search index's snapshot to start from
	// (--search-snapshot's default).
	SearchSnapshotEnv = "REGPULSE_SEARCH_SNAPSHOT"
	// SearchSnapshotFile is the snapshot's name beside the API's
	// function, where regpulse-api looks for one when neither the flag
	// nor the environment names one.
	SearchSnapshotFile = "search-index.snapshot"
	// SMTPURLEnv is the SMTP server e-mails leave through (smtp://...,
	// as regpulse alerts and digest read it).
	SMTPURLEnv = "SMTP_URL"
)

// InviteFrom sends the organisations' invitations: the alerts' sender.
const InviteFrom = "RegPulse <alerts@regpulse.in>"

// Store says where the data is: PostgreSQL at URL, else SQLite in Data
// (which also keeps the secrets the environment does not give).
type Store struct {
	Data, URL string
}

// Register adds --data and --database-url to fs; dataUsage says what the
// command keeps in --data.
func (s *Store) Register(fs *flag.FlagSet, dataUsage string) {
	fs.StringVar(&s.Data, "data", "./data", dataUsage)
	fs.StringVar(&s.URL, "database-url", os.Getenv(DatabaseURLEnv),
		"PostgreSQL database to use instead of SQLite in --data, postgres://... (default $"+DatabaseURLEnv+")")
}

// Target is what store.Open takes.
func (s Store) Target() (string, error) {
	if s.URL == "" {
		return filepath.Join(s.Data, "regpulse.db"), nil
	}
	if !strings.HasPrefix(s.URL, "postgres://") && !strings.HasPrefix(s.URL, "postgresql://") {
		return "", fmt.Errorf("--database-url: want postgres://... (got %.20q)", s.URL)
	}
	return s.URL, nil
}

// Open opens (and migrates) the store. Its webhooks' events link under
// $REGPULSE_SITE_URL when set (a caller knowing the site sets it again:
// DB.SetSite).
func (s Store) Open(ctx context.Context, opts ...store.Option) (*store.DB, error) {
	t, err := s.Target()
	if err != nil {
		return nil, err
	}
	return store.Open(ctx, t, append([]store.Option{store.WithSite(os.Getenv(SiteURLEnv))}, opts...)...)
}

// Config is every setting of the API both binaries share.
type Config struct {
	Store   Store
	Content string // synced into the store at start; "" none
	Auth    api.AuthFlags
	AI      AI
	// ReadCacheSize answers kept (0: no read cache) for at most
	// ReadCacheTTL.
	ReadCacheSize int
	ReadCacheTTL  time.Duration
	// SearchSnapshot is the search index's snapshot the first search
	// starts from (store.WithSearchSnapshot); "" reads the index from the
	// store.
	SearchSnapshot string
	// MetricsAddr is the address of a listener of its own serving
	// /metrics (Prometheus); "" serves none. Never the public port: the
	// figures are for the operator.
	MetricsAddr string
	// LogLevel is the least level logged (each API request is info).
	LogLevel slog.Level
	// SiteURL is the site's absolute URL, under which the e-mails the API
	// sends (invitations) link and identity providers send people back
	// (single sign-on); "" takes the request's own origin, which
	// a client could set: deployments set it.
	SiteURL string
	// SSOAllowPrivate lets single sign-on reach identity providers on
	// loopback and private addresses (refused by default: an
	// organisation's admin names the provider).
	SSOAllowPrivate bool
	// SSOTrustDomains takes the e-mail domains organisations' admins name
	// as verified, with no DNS record (tests, one operator's own
	// organisations).
	SSOTrustDomains bool
	// WebhooksAllowLoopback lets webhook and chat endpoints be http and
	// on loopback (tests, local development; private ranges stay
	// refused): the API's check of an endpoint's URL and the sender's of
	// the address it dials.
	WebhooksAllowLoopback bool
}

// WebhooksPolicy is the endpoints' address policy of c.
func (c Config) WebhooksPolicy() webhooks.AddressPolicy {
	return webhooks.AddressPolicy{AllowLoopback: c.WebhooksAllowLoopback}
}

// AI is the AI calls' settings.
type AI struct {
	BaseURL, Model string
	Timeout        time.Duration
	RateLimit      int
}

// RegisterModel adds the model's flags to fs (regpulse obligations
// takes them too).
func (a *AI) RegisterModel(fs *flag.FlagSet) {
	fs.StringVar(&a.BaseURL, "openai-base-url", os.Getenv(OpenAIBaseURLEnv),
		"OpenAI-compatible API root, e.g. http://localhost:11434/v1 for Ollama (default $"+OpenAIBaseURLEnv+"; empty with no $"+OpenAIKeyEnv+": the local extractive AI)")
	fs.StringVar(&a.Model, "openai-model", os.Getenv(OpenAIModelEnv), "model name (default $"+OpenAIModelEnv+", else "+openai.DefaultModel+")")
	fs.DurationVar(&a.Timeout, "openai-timeout", 60*time.Second, "time limit of one model request")
}

// Service is the AI service of these settings: the model behind the
// invention guard, or the local provider alone.
func (a AI) Service(getenv func(string) string, log *slog.Logger) (*ai.Service, error) {
	return openai.NewService(openai.Config{APIKey: getenv(OpenAIKeyEnv), BaseURL: a.BaseURL,
		Model: a.Model, Timeout: a.Timeout}, ai.WithLogger(log))
}

// Register adds every shared flag to fs, with its default (from the
// environment where one names it). contentUsage says what --content is
// for in the command.
func (c *Config) Register(fs *flag.FlagSet, contentUsage string) {
	c.Store.Register(fs, "directory of the SQLite database, and of the secrets the environment does not give")
	fs.StringVar(&c.Content, "content", "content", contentUsage)
	c.Auth.Register(fs)
	c.AI.RegisterModel(fs)
	fs.IntVar(&c.AI.RateLimit, "ai-rate-limit", 20, "AI calls each client may make per minute")
	fs.IntVar(&c.ReadCacheSize, "read-cache-size", 4096, "answers of public API reads kept encoded in memory; 0 turns the read cache off")
	fs.DurationVar(&c.ReadCacheTTL, "read-cache-ttl", 30*time.Second,
		"longest time a cached API read is served: bounds how late writes by other instances sharing the store show")
	fs.StringVar(&c.SearchSnapshot, "search-snapshot", os.Getenv(SearchSnapshotEnv),
		"snapshot of the search index to start from (written by regpulse build --search-snapshot): the first search reads only the circulars changed since; one of another database or damaged is ignored (default $"+SearchSnapshotEnv+")")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", "",
		"address of a separate listener serving Prometheus metrics at /metrics, e.g. 127.0.0.1:9090; empty: none (never on the public port)")
	fs.TextVar(&c.LogLevel, "log-level", slog.LevelInfo, "least level logged: debug, info (every API request), warn or error")
	fs.StringVar(&c.SiteURL, "site-url", os.Getenv(SiteURLEnv),
		"absolute URL of the site, for the links of the e-mails the API sends (invitations) and single sign-on's callback (default $"+SiteURLEnv+"; empty: the request's origin)")
	fs.BoolVar(&c.SSOAllowPrivate, "sso-allow-private", false,
		"let single sign-on reach identity providers on loopback and private addresses (for tests and a provider on your own network)")
	fs.BoolVar(&c.SSOTrustDomains, "sso-trust-domains", false,
		"take the e-mail domains organisations name for single sign-on as theirs without a DNS record (for tests and a deployment whose organisations are all yours)")
	allow, _ := strconv.ParseBool(os.Getenv(webhooks.AllowLoopbackEnv))
	fs.BoolVar(&c.WebhooksAllowLoopback, "webhooks-allow-loopback", allow,
		"let webhook, Slack and Teams endpoints be http:// and on loopback addresses, for tests and local development (default $"+webhooks.AllowLoopbackEnv+"; private ranges stay refused)")
}

// Logger is the commands' structured log, in logfmt on w at c.LogLevel.
func (c Config) Logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: c.LogLevel}))
}

// ServeMetrics serves /metrics on c.MetricsAddr until ctx ends, if set.
// The listener is opened before it returns, so a taken address fails the
// command at start rather than later in a log line.
func (c Config) ServeMetrics(ctx context.Context, log *slog.Logger) error {
	if c.MetricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", c.MetricsAddr)
	if err != nil {
		return fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", metrics.Handler())
	log.Info("serving metrics", "addr", ln.Addr().String(), "path", "/metrics")
	go func() {
		if err := web.ServeListener(ctx, ln, mux, log); err != nil {
			log.Error("metrics listener failed", "err", err)
		}
	}()
	return nil
}

// Env is how the API runs: its environment, and whether as a function
// (stateless: nothing on disk, the catalog synced by the build, the
// search index read at the first search).
type Env struct {
	Getenv   func(string) string
	Function bool
	// SearchSnapshot is a snapshot of the search index built into the
	// binary (regpulse-api built with the searchsnapshot tag: mapped from
	// the binary's file, never heap memory), used when Config.SearchSnapshot
	// names no file; nil: none.
	SearchSnapshot []byte
	// CMS answers the editors' web UI (POST /api/cms): regpulse serve
	// --cms-repo's clone. nil: the call answers 503 (a function has no
	// disk to keep a clone on).
	CMS cms.Backend
}

// API is the assembled API.
type API struct {
	DB      *store.DB
	Handler http.Handler // mount at /api
	Reads   *readcache.Cache
	AI      *ai.Service
	// Extraction proposes, in the background, the obligations of the
	// circulars without written ones after each sync (a server's only:
	// nil as a function).
	Extraction *obligations.Extraction
}

// Close stops the extraction, if one runs, and closes the store.
func (a *API) Close() error {
	if a.Extraction != nil {
		a.Extraction.Close()
	}
	return a.DB.Close()
}

// Sync mirrors a catalog into the store: cat, or when nil the one loaded
// from content, logging what changed, then starts the extraction of the
// obligations of the circulars that changed and have none written, in
// the background (obligations.Extraction: a server answers meanwhile). A
// failure is logged, not fatal: the API serves what the store last
// received. The read cache starts a new data version either way. The
// error is the one logged.
func (a *API) Sync(ctx context.Context, cat *catalog.Catalog, content string, log *slog.Logger) error {
	defer a.Reads.Invalidate()
	start, outcome := time.Now(), "ok"
	defer func() { metrics.Since(metrics.SyncDuration, start, outcome) }()
	var err error
	if cat == nil {
		if cat, err = catalog.Load(content); err != nil {
			outcome = "failed"
			log.Error("catalog sync failed; the API serves the last synced data", "content", content, "err", err)
			return err
		}
	}
	stats, err := a.DB.SyncCatalog(ctx, cat)
	if err != nil {
		outcome = "failed"
		log.Error("catalog sync failed; the API serves the last synced data", "content", content, "err", err)
		return err
	}
	log.Info("catalog synced into the store", "changes", stats.String())
	if a.Extraction != nil {
		a.Extraction.Start(cat.Circulars)
	}
	return nil
}

// Check reports the first setting out of its range, naming the flag:
// mains call it right after parsing, before anything is opened.
func (c Config) Check() error {
	if _, err := c.Store.Target(); err != nil {
		return err
	}
	if c.ReadCacheSize < 0 || (c.ReadCacheSize > 0 && c.ReadCacheTTL <= 0) {
		return fmt.Errorf("--read-cache-size %d --read-cache-ttl %s: want a size of 0 or more and a positive time to live", c.ReadCacheSize, c.ReadCacheTTL)
	}
	if c.AI.RateLimit < 1 {
		return fmt.Errorf("--ai-rate-limit %d: want at least 1", c.AI.RateLimit)
	}
	return nil
}

// Open assembles the API of c. A server's store gets the catalog synced
// and its search index read at start; a function's does neither (the
// build synced it; a search reads the index).
func Open(ctx context.Context, c Config, env Env, log *slog.Logger) (*API, error) {
	if env.Function && (c.Store.URL == "" || env.Getenv(auth.SecretEnv) == "") {
		// Nothing on local disk: a function's instances share nothing but
		// the database and the environment.
		return nil, errors.New("as a function, " + DatabaseURLEnv + " and " + auth.SecretEnv + " must be set")
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	authCfg, err := c.Auth.Config(c.Store.Data, env.Getenv)
	if err != nil {
		return nil, err
	}
	tokens, err := newsletter.LoadTokens(c.Store.Data, env.Getenv)
	if err != nil {
		return nil, err
	}
	alertTokens, err := alerts.LoadTokens(c.Store.Data, env.Getenv)
	if err != nil {
		return nil, err
	}
	teamTokens, err := teams.LoadTokens(c.Store.Data, env.Getenv)
	if err != nil {
		return nil, err
	}
	ssoFlows, err := sso.LoadFlows(c.Store.Data, env.Getenv)
	if err != nil {
		return nil, err
	}
	mailer, err := inviteMailer(c.Store.Data, env)
	if err != nil {
		return nil, err
	}
	mentions, err := mentionMailer(c.Store.Data, env)
	if err != nil {
		return nil, err
	}
	svc, err := c.AI.Service(env.Getenv, log)
	if err != nil {
		return nil, err
	}
	snapshot := store.WithSearchSnapshot(c.SearchSnapshot, log)
	if c.SearchSnapshot == "" {
		snapshot = store.WithSearchSnapshotData("the snapshot built into the binary", env.SearchSnapshot, log)
	}
	db, err := c.Store.Open(ctx, snapshot)
	if err != nil {
		return nil, err
	}
	if c.SiteURL != "" {
		db.SetSite(c.SiteURL) // the webhooks' events link under it
	}
	a := &API{DB: db, AI: svc}
	if c.ReadCacheSize > 0 {
		// Per instance: a write through another instance shows here after
		// at most the time to live.
		a.Reads = readcache.New(c.ReadCacheSize, c.ReadCacheTTL)
	}
	opts := []api.Option{api.WithAuth(authCfg), api.WithNewsletter(api.NewsletterConfig{Tokens: tokens}),
		api.WithAlerts(api.AlertsConfig{Tokens: alertTokens,
			Channels: c.WebhooksPolicy()}), api.WithTeams(api.TeamsConfig{Tokens: teamTokens, Mailer: mailer, Mentions: mentions, Site: c.SiteURL}),
		api.WithSSO(api.SSOConfig{Flows: ssoFlows, Site: c.SiteURL, Client: sso.NewClient(sso.HTTPClient(c.SSOAllowPrivate), nil),
			TrustDomains: c.SSOTrustDomains}),
		api.WithWebhookPolicy(c.WebhooksPolicy()),
		api.WithAI(api.AIConfig{Service: svc, RateLimit: c.AI.RateLimit, RateWindow: time.Minute}), api.WithReadCache(a.Reads)}
	if !env.Function {
		a.Extraction = obligations.NewExtraction(db, svc, log)
		opts = append(opts, api.WithExtraction(a.Extraction))
		if c.Content != "" {
			a.Sync(ctx, nil, c.Content, log)
		}
		db.WarmSearch(ctx, log)
		// A function has no OCR tools to find (the pure-Go readers
		// answer), and probing for them would lengthen its cold start.
		opts = append(opts, api.WithExtractor(extract.Installed(log)))
	}
	if c.Store.URL != "" {
		// Instances sharing the database share the limits too.
		opts = append(opts, api.WithSharedRateLimits(db))
	}
	if env.CMS != nil {
		opts = append(opts, api.WithCMS(env.CMS))
	}
	a.Handler = api.New(db, log, opts...)
	return a, nil
}

// inviteMailer sends the invitations as they are made: through
// $SMTP_URL, else into .eml files in DATA/outbox/invites; a function
// without $SMTP_URL has no disk to keep them on, and sends none (nil).
func inviteMailer(data string, env Env) (api.InviteMailer, error) {
	snd, err := mail.NewSender(InviteFrom, "")
	if err != nil {
		return nil, err
	}
	tr, err := oneOffTransport(data, "invites", env)
	if err != nil || tr == nil {
		return nil, err
	}
	return &teams.Mailer{Sender: snd, Transport: tr}, nil
}

// mentionMailer sends the e-mails of the comments' @mentions as they are
// made, as inviteMailer the invitations (DATA/outbox/mentions); nil when
// there is no way out.
func mentionMailer(data string, env Env) (api.MentionMailer, error) {
	snd, err := mail.NewSender(InviteFrom, "")
	if err != nil {
		return nil, err
	}
	tr, err := oneOffTransport(data, "mentions", env)
	if err != nil || tr == nil {
		return nil, err
	}
	return &teammail.Mailer{Sender: snd, Transport: tr}, nil
}

// oneOffTransport opens the way out of the e-mails the API sends as it
// answers: $SMTP_URL, else .eml files in DATA/outbox/DIR; nil for a
// function without $SMTP_URL (no disk to keep them on).
func oneOffTransport(data, dir string, env Env) (func() (mail.Transport, error), error) {
	switch u := env.Getenv(SMTPURLEnv); {
	case u != "":
		if _, err := mail.NewSMTP(u); err != nil { // a bad URL fails the start, not each e-mail
			return nil, err
		}
		return func() (mail.Transport, error) { return mail.NewSMTP(u) }, nil
	case env.Function:
		return nil, nil
	}
	out := mail.Dir{Path: filepath.Join(data, "outbox", dir)}
	return func() (mail.Transport, error) { return out, nil }, nil
}

// Flags are the names of the flags Register adds: every binary serving
// the API takes exactly these, besides the flags of its own mode (their
// tests check it).
func Flags() map[string]bool {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	var c Config
	c.Register(fs, "")
	out := map[string]bool{}
	fs.VisitAll(func(f *flag.Flag) { out[f.Name] = true })
	return out
}
