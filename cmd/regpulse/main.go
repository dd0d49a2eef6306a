// Command regpulse builds and serves the RegPulse portal.
//
//	regpulse build              check content and build the site into public/
//	regpulse serve              serve public/ and the API on one port
//	regpulse check [dir]        validate content (for editors and CI)
//	regpulse new KIND SLUG      write a new content entry to fill in
//	regpulse ingest             write unpublished circulars from the regulators' feeds
//	regpulse ingest status      each feed's last success, staleness, next poll
//	regpulse ingest direction   read a Master Direction's official text into a draft version
//	regpulse ingest pull        write the drafts queued in the store as files
//	regpulse users list         list the accounts
//	regpulse users promote NAME make an account an admin
//	regpulse users cms-role NAME editor|reviewer|none  the account's role in the editors' web UI
//	regpulse cms                the editors' web UI (/admin) on your own working tree
//	regpulse digest             send a month's newsletter digest
//	regpulse backup --out FILE  a consistent copy of the store, online
//	regpulse restore FILE       a backup into an empty store (SQLite or PostgreSQL)
//	regpulse version            print the build's version
//	regpulse alerts ...         send alerts; list them, their counts, bouncing addresses; resend
//	regpulse obligations ...    propose (extract) or accept circulars' obligations
//	regpulse audit verify       check the organisations' audit chains
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"regpulse/api"
	"regpulse/generator"
	"regpulse/generator/render"
	"regpulse/internal/app"
	"regpulse/internal/buildinfo"
	"regpulse/internal/catalog"
	"regpulse/internal/datecheck"
	"regpulse/internal/ingest"
	"regpulse/internal/jobs"
	"regpulse/internal/web"
	"regpulse/internal/webhooks"
)

const usage = `usage: regpulse <command> [flags]

commands:
  build              check content and build the site into public/
  serve              serve the site and the API on one port
  check [dir]        validate content (default dir: content)
  new KIND SLUG      write a new entry content/KIND/SLUG.md to fill in
  ingest             write unpublished circulars from the regulators' feeds due (feeds.yaml);
                     ingest status: each source's last success, next poll, 304 share;
                     ingest direction SLUG: a Master Direction's official text as a draft version;
                     ingest pull: the drafts queued in the store written as files
  users list         list the accounts (username, e-mail, role, last sign-in)
  users promote NAME give the account NAME the admin role
  users cms-role NAME editor|reviewer|none
                     give NAME a role in the editors' web UI (/admin), or take it: an editor saves
                     drafts, a reviewer also publishes (never their own change)
  cms                the editors' web UI (/admin) over your own working tree, on 127.0.0.1:8081
  digest             send a month's newsletter digest (SMTP_URL, or .eml files)
  backup --out FILE  write a consistent copy of the store (SQLite or PostgreSQL) while it runs
  restore FILE       copy a backup into an empty store, of either kind
  version            print this build's version, revision and Go version
  alerts ...         send what alerts are due; list, stats, bouncing, resend
  obligations extract  propose and store the obligations of circulars without written ones
  obligations accept C accept the extracted obligations of circular C (slug or id)
  audit verify       check every organisation's audit trail (hash chain); --org ID for one
  export             an organisation's register for an inspection, xlsx or pdf; prints its SHA-256

Run "regpulse <command> -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "regpulse:", err)
	}
	os.Exit(exitCode(err))
}

// exitCode is 0 for success and for help asked for (-h, --help: the
// usage was printed as requested), 1 for any failure.
func exitCode(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 1
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	switch args[0] {
	case "build":
		return cmdBuild(ctx, args[1:], stderr)
	case "serve":
		return cmdServe(ctx, args[1:], stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "new":
		return cmdNew(args[1:], stdout, stderr)
	case "ingest":
		return cmdIngest(ctx, args[1:], stdout, stderr)
	case "users":
		return cmdUsers(ctx, args[1:], stdout, stderr)
	case "cms":
		return cmdCMS(ctx, args[1:], stderr)
	case "digest":
		return cmdDigest(ctx, args[1:], stdout, stderr)
	case "backup":
		return cmdBackup(ctx, args[1:], stdout, stderr)
	case "restore":
		return cmdRestore(ctx, args[1:], stdout, stderr)
	case "version":
		return cmdVersion(args[1:], stdout, stderr)
	case "alerts":
		return cmdAlerts(ctx, args[1:], stdout, stderr)
	case "obligations":
		return cmdObligations(ctx, args[1:], stdout, stderr)
	case "audit":
		return cmdAudit(ctx, args[1:], stdout, stderr)
	case "export":
		return cmdExport(ctx, args[1:], stdout, stderr, time.Now)
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

func cmdVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("version", stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	in := buildinfo.Read()
	fmt.Fprintf(stdout, "regpulse %s", in.Version)
	if in.Revision != "" {
		fmt.Fprintf(stdout, " (revision %s, %s)", in.Revision, in.Time)
	}
	fmt.Fprintf(stdout, " built with %s\n", in.Go)
	return nil
}

// isHelp reports whether arg asks for help, as the flag package takes it.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// newFlagSet is a command's flags, whose errors and help go to stderr.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// buildFlags are the generator's inputs, shared by build and serve.
type buildFlags struct {
	content, templates, assets, baseURL, supportEmail string
}

// register adds the flags; serve's --content is app.Config's, which
// registers it (content false).
func (b *buildFlags) register(fs *flag.FlagSet, content bool) {
	if content {
		fs.StringVar(&b.content, "content", "content", "content directory")
	}
	fs.StringVar(&b.templates, "templates", "templates", "Hugo layouts directory")
	fs.StringVar(&b.assets, "assets", "islands/dist", "built islands (Vite output with .vite/manifest.json)")
	fs.StringVar(&b.baseURL, "base-url", "http://localhost:8080/", "absolute URL of the site, for feeds and the sitemap")
	fs.StringVar(&b.supportEmail, "support-email", "support@regpulse.in", "address of the sidebar's Contact Us link")
}

func (b *buildFlags) options(out string) generator.Options {
	return generator.Options{ContentDir: b.content, TemplatesDir: b.templates, AssetsDir: b.assets,
		OutDir: out, BaseURL: b.baseURL, SupportEmail: b.supportEmail}
}

func cmdBuild(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("build", stderr)
	var b buildFlags
	b.register(fs, true)
	out := fs.String("out", "public", "output directory (on success, only files whose bytes changed are written; an unchanged build writes nothing)")
	asOf := fs.String("as-of", "", "build as of this date, YYYY-MM-DD (what the impact tracker counts as active); default today")
	unpublished := fs.Bool("unpublished", false, "include circulars marked published: false, to preview them (fails while one lacks a required field)")
	verbose := fs.Bool("v", false, "log each step of the build and how long it took (on stderr)")
	memLimit := fs.Int("memory-limit-mib", render.MemoryLimitMiB, "soft memory limit of the build in MiB (the Go runtime collects garbage harder near it; the build raises it by 5 KiB a content file, and to one and a half times the heap it holds, plus 512 MiB, when that is more, since below the live heap the collector never pauses); 0 none; GOMEMLIMIT, when set, wins")
	var sf app.Store
	sf.Register(fs, "directory of the SQLite database whose stored AI summaries pages show, if it exists")
	snapshot := fs.String("search-snapshot", "", "after syncing the catalog into --database-url, write the search index's snapshot there, for the API's function to start from (beside its binary as "+app.SearchSnapshotFile+", or named by $"+app.SearchSnapshotEnv+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *snapshot != "" && sf.URL == "" {
		return fmt.Errorf("--search-snapshot: needs --database-url (the snapshot is of the database the function reads)")
	}
	if *memLimit < 0 {
		return fmt.Errorf("--memory-limit-mib %d: want 0 (none) or more", *memLimit)
	}
	if *memLimit > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(*memLimit) << 20)
	}
	opts := b.options(*out)
	opts.IncludeUnpublished = *unpublished
	if *verbose {
		opts.Log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if *asOf != "" {
		day, err := time.Parse(time.DateOnly, *asOf)
		if err != nil {
			return fmt.Errorf("--as-of %q: want a date YYYY-MM-DD", *asOf)
		}
		opts.Now = func() time.Time { return day }
	}
	done, err := storedInputs(ctx, sf, &opts)
	if err != nil {
		return err
	}
	opts.ReleaseContent = sf.URL == "" // nothing to sync the texts into
	res, err := generator.Build(ctx, opts)
	done()
	if err != nil || sf.URL == "" {
		return err
	}
	// A deployed API (a function without the content folder) serves the
	// catalog the last build synced into the shared store.
	db, err := sf.Open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if opts.BaseURL != "" {
		db.SetSite(opts.BaseURL) // the webhooks' events link under it
	}
	stats, err := db.SyncCatalog(ctx, res.Catalog)
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "catalog synced into the store:", stats)
	if *snapshot == "" {
		return nil
	}
	st, size, err := db.WriteSearchSnapshot(ctx, *snapshot)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "search index snapshot written to %s: %d circulars, %d keys, version %d\n", *snapshot, size.Docs, size.Keys, st.Version)
	return nil
}

func cmdServe(ctx context.Context, args []string, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	var c app.Config
	c.Register(fs, "content directory: built into the site and synced into the store")
	var b buildFlags
	b.register(fs, false)
	addr := fs.String("addr", ":8080", "address to listen on")
	public := fs.String("public", "./public", "built site to serve")
	every := fs.Duration("rebuild-every", 0, "rebuild the site in-process this often (e.g. 15m); 0 never")
	rebuildMem := fs.Int("rebuild-memory-limit-mib", render.MemoryLimitMiB, "soft memory limit of an in-process rebuild in MiB, above the heap the server holds when it starts (the build raises it as regpulse build does); 0 none; GOMEMLIMIT, when set, wins")
	var in ingestFlags
	in.register(fs, "ingest-timeout")
	ingestEvery := fs.Duration("ingest-every", 0, "look for feeds due this often (e.g. 1m), polling each on its cadence (feeds.yaml; 15m in busy hours IST, 1h otherwise); 0 never")
	digestSchedule := fs.Bool("digest-schedule", false, "send the previous month's newsletter digest on the first day of each month (once across processes sharing --data)")
	var df digestFlags
	df.register(fs)
	alertsEvery := fs.Duration("alerts-every", 0, "send alerts this often (e.g. 1m): immediate ones at each run, daily digests from 07:00 UTC, weekly ones on Mondays; 0 never")
	webhooksEvery := fs.Duration("webhooks-every", 5*time.Second, "send the webhook, Slack and Teams deliveries due this often (their retries too); 0 never (leave it to the regpulse-webhooks function)")
	webhooksScale := fs.Float64("webhooks-retry-scale", 1, "multiply the webhooks' retry schedule (5 s to 14 h over ~a day) by this, e.g. 0.001 to see retries in seconds in tests")
	var cf cmsFlags
	cf.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cf.repo != "" {
		content, err := cf.content(c.Content, flagSet(fs, "content"))
		if err != nil {
			return err
		}
		c.Content = content
	}
	b.content = c.Content
	if c.SiteURL == "" {
		c.SiteURL = b.baseURL // the site this process serves
	}
	if err := c.Check(); err != nil {
		return err
	}
	if *ingestEvery != 0 && *ingestEvery < time.Minute {
		return fmt.Errorf("--ingest-every %s is too short: the regulators' servers are not ours to poll", *ingestEvery)
	}
	if *ingestEvery > 0 && in.timeout <= 0 {
		return fmt.Errorf("--ingest-timeout %s: want a positive duration", in.timeout)
	}
	if *alertsEvery != 0 && *alertsEvery < time.Second {
		return fmt.Errorf("--alerts-every %s is too short", *alertsEvery)
	}
	if *every != 0 && *every < time.Second {
		return fmt.Errorf("--rebuild-every %s is too short", *every)
	}
	if *rebuildMem < 0 {
		return fmt.Errorf("--rebuild-memory-limit-mib %d: want 0 (none) or more", *rebuildMem)
	}
	if *webhooksEvery != 0 && *webhooksEvery < 100*time.Millisecond {
		return fmt.Errorf("--webhooks-every %s is too short", *webhooksEvery)
	}
	if *webhooksScale <= 0 || *webhooksScale > 1 {
		return fmt.Errorf("--webhooks-retry-scale %v: want more than 0, at most 1", *webhooksScale)
	}
	log := c.Logger(stderr)
	site, err := web.NewSite(*public)
	if err != nil {
		return err
	}
	env := app.Env{Getenv: os.Getenv}
	var kick web.Kick // a publish in the editors' web UI rebuilds at once
	if cf.repo != "" {
		kick = web.NewKick()
		if env.CMS, err = cf.open(cf.published(ctx, kick.Now, log), log); err != nil {
			return err
		}
	}
	a, err := app.Open(ctx, c, env, log)
	if err != nil {
		return err
	}
	defer a.Close()
	if err := c.ServeMetrics(ctx, log); err != nil {
		return err
	}
	// the scheduled jobs' runs, as the functions of a static host run them
	jenv := jobs.Env{DB: a.DB, Holder: jobs.NewHolder(), Getenv: os.Getenv, Log: log, BaseURL: b.baseURL, Data: c.Store.Data,
		Content: b.content, Mail: df.mail()}
	if *digestSchedule {
		scheduleDigest(ctx, jenv)
	}
	if *alertsEvery > 0 {
		scheduleAlerts(ctx, *alertsEvery, jenv)
	}
	if *webhooksEvery > 0 {
		scheduleWebhooks(ctx, *webhooksEvery, c.WebhooksPolicy(), webhooks.DefaultSchedule.Scale(*webhooksScale), jenv)
	}
	if *every > 0 || kick != nil {
		r := &siteRebuilds{
			options: func(ctx context.Context, dir string) (generator.Options, error) {
				opts := b.options(dir)
				return opts, setStoredInputs(ctx, a.DB, &opts)
			},
			served: site.Dir, build: generator.Build,
			sync:           func(ctx context.Context) error { return a.Sync(ctx, nil, b.content, log) },
			memoryLimitMiB: int64(*rebuildMem),
		}
		go site.Rebuild(ctx, *every, kick, *public, r.rebuild, log, func() { r.afterSwap(ctx) })
	}
	if *ingestEvery > 0 {
		// The feeds file is read at each run, so an editor's change to it
		// needs no restart. Ingested files are unpublished: the site does
		// not change until an editor publishes one and it is rebuilt.
		// Each tick polls only the sources due (their cadence, the store).
		op, err := in.operator(c.Store.Data, os.Getenv)
		if err != nil {
			return err
		}
		// The run is the regpulse-ingest function's (jobs.Ingest), under the
		// same lock: serve beside a function, or two servers, poll once.
		ienv := jenv
		ienv.Ingest = jobs.IngestEnv{Feeds: func() ([]ingest.Feed, error) { return ingest.LoadFeeds(in.feeds) },
			State: a.DB, Items: a.DB, Operator: op, Timeout: in.timeout, Contact: b.supportEmail}
		go ingest.Every(ctx, *ingestEvery, func(ctx context.Context) (ingest.Report, error) {
			res, err := jobs.Ingest(ctx, ienv)
			if res.HeldBy != "" {
				log.Info(res.String())
			}
			return res.Report, err
		}, log, nil)
	}
	return web.Serve(ctx, *addr, web.Handler(site, a.Handler, api.SentAsStored), log)
}

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// buildOutcome is how metrics.BuildDuration labels a build.
func buildOutcome(res *generator.Result, err error) string {
	switch {
	case err != nil:
		return "failed"
	case res.Unchanged:
		return "unchanged"
	}
	return "ok"
}

func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", stderr)
	asOf := fs.String("as-of", "", "check what is no longer true on this date, YYYY-MM-DD; default today")
	if err := fs.Parse(args); err != nil {
		return err
	}
	dir := "content"
	if fs.NArg() > 0 {
		dir = fs.Arg(0)
	}
	now := time.Now()
	if *asOf != "" {
		day, err := time.Parse(time.DateOnly, *asOf)
		if err != nil {
			return fmt.Errorf("--as-of %q: want a date YYYY-MM-DD", *asOf)
		}
		now = day
	}
	cat, err := catalog.Load(dir)
	var problems catalog.Problems
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Fprintln(stderr, p)
		}
		return fmt.Errorf("%d problem(s) in %s", len(problems), dir)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: ok: %d circulars, %d news, %d companies, %d regulations, %d networks, %d sibos, %d events, %d bodies, %d ads, %d ad slots, %d videos, %d master directions (%d versions)\n",
		dir, len(cat.Circulars), len(cat.News), len(cat.Companies), len(cat.Regulations), len(cat.Networks),
		len(cat.Sibos), len(cat.Events), len(cat.Bodies), len(cat.Ads), len(cat.AdSlots), len(cat.Videos),
		len(cat.Directions), countVersions(cat.Directions))
	reportLinks(stdout, cat)
	reportDerivedVerifications(stdout, cat)
	defer reportUnpublished(stdout, cat)
	// What the date has made untrue: warnings for prose, errors for the
	// structured fields that pages read as facts.
	reports := datecheck.Check(cat, os.DirFS(filepath.Dir(filepath.Clean(dir))), now)
	for _, r := range reports {
		fmt.Fprintln(stdout, r)
	}
	if n := datecheck.Errors(reports); n > 0 {
		return fmt.Errorf("%d field(s) in %s no longer true on %s (and %d warning(s))", n, dir, now.Format(time.DateOnly), len(reports)-n)
	}
	if len(reports) > 0 {
		fmt.Fprintf(stdout, "%d warning(s) of sentences the date may have made untrue (as of %s)\n", len(reports), now.Format(time.DateOnly))
	}
	return nil
}

// reportUnpublished lists the circulars an editor has yet to complete.
func reportUnpublished(stdout io.Writer, cat *catalog.Catalog) {
	if len(cat.Unpublished) > 0 {
		// Not failures: an editor completes these before publishing them.
		fmt.Fprintf(stdout, "%d unpublished circular(s) (published: false), left out of the site; still to complete:\n", len(cat.Unpublished))
		for _, c := range cat.Unpublished {
			var lacks []string
			for _, p := range cat.Pending {
				if p.Path == c.Path {
					lacks = append(lacks, p.Field)
				}
			}
			if len(lacks) == 0 {
				fmt.Fprintf(stdout, "  %s: complete; delete its published: false line to publish it\n", c.Path)
				continue
			}
			fmt.Fprintf(stdout, "  %s: lacks %s\n", c.Path, strings.Join(lacks, ", "))
		}
	}
}

// reportLinks prints what check warns of (links that say not what they
// are, circulars of a regulator with no official link) and the official
// links matched at medium confidence, for an editor to review: none of
// it fails the check.
func reportLinks(stdout io.Writer, cat *catalog.Catalog) {
	for _, w := range cat.Warnings {
		fmt.Fprintf(stdout, "warning: %s\n", w)
	}
	var medium []string
	for _, c := range cat.Circulars {
		if c.OfficialURLConfidence == "medium" {
			medium = append(medium, c.Path)
		}
	}
	if len(medium) > 0 {
		fmt.Fprintf(stdout, "%d official link(s) matched at medium confidence (officialUrlConfidence: medium), to review against the regulator's page:\n", len(medium))
		for _, p := range medium {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
}

// reportDerivedVerifications says how many circulars' verification the
// loader derived from their links, for an editor to read and state.
func reportDerivedVerifications(stdout io.Writer, cat *catalog.Catalog) {
	counts := map[catalog.OptString]int{}
	n := 0
	for _, c := range cat.Circulars {
		if c.VerificationDerived {
			counts[c.Verification]++
			n++
		}
	}
	if n > 0 {
		fmt.Fprintf(stdout, "%d circular(s) state no verification; derived from their links: %d pending (an official link, its text not yet read), %d reported (reports only). Read the regulator's text and state verification: checked.\n",
			n, counts["pending"], counts["reported"])
	}
}

func cmdNew(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("new", stderr)
	content := fs.String("content", "content", "content directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("usage: regpulse new KIND SLUG (KIND one of %v)", catalog.Kinds())
	}
	kind, slug := fs.Arg(0), fs.Arg(1)
	text, err := catalog.Skeleton(kind, time.Now())
	if err != nil {
		return err
	}
	if err := catalog.CheckSlug(slug); err != nil {
		return err
	}
	path := filepath.Join(*content, kind, slug+".md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err // includes "file exists": never overwrite an entry
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, path)
	return nil
}

func countVersions(ds []catalog.MasterDirection) int {
	n := 0
	for _, d := range ds {
		n += len(d.Versions)
	}
	return n
}
