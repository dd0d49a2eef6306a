# RegPulse: `make run` builds everything and serves http://localhost:8080;
# `make test` runs every test. Both work on a fresh machine with Go, Node
# and npm (browser tests install Debian's chromium when run as root; both
# install the document tools, poppler, tesseract, antiword and catdoc, when
# run as root and they are missing: without them the server still starts
# and logs which document formats degrade).

# bash, for the stages' timing (make test)
SHELL   := /bin/bash
GO      ?= go
NPM     ?= npm
ADDR    ?= :8080
BIN     := bin/regpulse
E2E_PORT ?= 18080

GO_SOURCES      := $(shell find . -name '*.go' -not -path './islands/*' -not -path './e2e/*' 2>/dev/null) go.mod go.sum \
                   $(shell find internal api cmd generator -type f -not -name '*.go' -not -path '*/testdata/*' 2>/dev/null)
# (with the files the binary embeds: the catalogue of strings, the search
# terms, the migrations, the e-mails' templates)
ISLAND_SOURCES  := $(shell find islands/src templates -type f -not -name '*.gen.ts' 2>/dev/null) islands/vite.config.ts islands/scripts/build.mjs islands/scripts/font-subset.mjs islands/scripts/font-range.json islands/package-lock.json api/openapi.json $(wildcard internal/i18n/strings/*.json)
# (templates/ is listed because Tailwind generates the CSS from the classes
# used there too; api/openapi.json because the islands' API types come from
# it; the catalogue of strings because the islands import its files)
SITE_SOURCES    := $(shell find content templates media -type f 2>/dev/null)
# The island tests run on the pages the generator builds from its own test
# content, so a template change that breaks the data-* contract with the
# islands fails them (islands/src/test/fixture.ts reads this folder). It is
# built as of 2021-03-01, the generator tests' date, when the fixture's
# payment aggregator guidelines are a currently active circular.
FIXTURE_SITE    := islands/.fixture-site
FIXTURE_SOURCES := $(shell find generator/testdata/content templates -type f 2>/dev/null)

.PHONY: all build run test vet lint lint-api check-content go-test islands-test e2e bench bench-build bench-build-100k bench-search bench-lighthouse fuzz check clean chromium chromium-browser debian-packages doctools postgres cc functions

all: build

build: public/index.html

run: build doctools
	$(BIN) serve --addr $(ADDR) --public public --data data

islands/node_modules/.package-lock.json: islands/package-lock.json
	cd islands && $(NPM) ci --no-audit --no-fund
	@touch $@

islands/dist/.vite/manifest.json: islands/node_modules/.package-lock.json $(ISLAND_SOURCES)
	cd islands && $(NPM) run build

# -buildvcs=auto stamps the commit into the binary (regpulse version,
# /api/health, the metrics) even where GOFLAGS turns it off, and builds
# without it outside a git checkout.
# Decap CMS for /admin (cms/package.json): its built files only, which the
# generator copies to public/admin; no install scripts run.
cms/node_modules/.package-lock.json: cms/package-lock.json
	cd cms && $(NPM) ci --ignore-scripts --no-audit --no-fund
	@touch $@

$(BIN): $(GO_SOURCES)
	$(GO) build -buildvcs=auto -o $@ ./cmd/regpulse

bin/regpulse-api: $(GO_SOURCES)
	$(GO) build -buildvcs=auto -o $@ ./cmd/regpulse-api

# The Netlify functions (netlify.toml): the API, the scheduled rebuild,
# and the scheduled jobs (ingest, alerts, digest: one binary,
# cmd/regpulse-jobs, under each job's name, which picks the job), static
# Linux binaries. Build outputs: ignored by git.
JOB_FUNCTIONS := netlify/functions/regpulse-ingest netlify/functions/regpulse-alerts netlify/functions/regpulse-digest netlify/functions/regpulse-webhooks
FUNCTIONS := netlify/functions/regpulse-api netlify/functions/regpulse-rebuild $(JOB_FUNCTIONS)
functions: $(FUNCTIONS)

FUNCTION_BUILD = CGO_ENABLED=0 GOOS=linux GOARCH=amd64 $(GO) build -buildvcs=auto -trimpath -ldflags='-s -w'

netlify/functions/%: $(GO_SOURCES)
	$(FUNCTION_BUILD) -o $@ ./cmd/$*

# A deploy's build (DATABASE_URL set) writes the search index's snapshot
# of the database it synced, and the API's function is built with it
# inside (the searchsnapshot tag): its cold start reads the index in place
# from its own binary and only the rows changed since from the database
# (docs/ARCHITECTURE.md, "The search index's snapshot"). Without
# DATABASE_URL there is no snapshot and the function reads the database.
SEARCH_SNAPSHOT := cmd/regpulse-api/search-index.snapshot
netlify/functions/regpulse-api: $(GO_SOURCES) $(wildcard $(SEARCH_SNAPSHOT))
	$(FUNCTION_BUILD) $$(test -f $(SEARCH_SNAPSHOT) && echo -tags searchsnapshot) -o $@ ./cmd/regpulse-api

# (feeds.yaml is built into the ingest function)
$(JOB_FUNCTIONS): $(GO_SOURCES) feeds.yaml
	$(FUNCTION_BUILD) -o $@ ./cmd/regpulse-jobs

public/index.html: $(BIN) islands/dist/.vite/manifest.json cms/node_modules/.package-lock.json $(SITE_SOURCES)
	$(BIN) build --out public $(if $(DATABASE_URL),--search-snapshot $(SEARCH_SNAPSHOT))

check: $(BIN)
	$(BIN) check content

# check-content: everything check does, as of today (CHECK_AS_OF=YYYY-MM-DD
# to ask of another day): what the date has made untrue, warnings for
# sentences, errors for the structured fields pages read as facts. A
# stage of make test, so CI runs it.
check-content: $(BIN)
	$(BIN) check $(if $(CHECK_AS_OF),--as-of $(CHECK_AS_OF)) content

# make test runs each stage in turn and reports its wall time and the CPU
# time (user and system) of its processes: on a shared machine the CPU
# time is the steadier figure. A failing stage stops the run, with the
# times so far.
TEST_STAGES := doctools postgres vet lint lint-api check-content go-test islands-test e2e
test:
	@t0=$$(date +%s); report=""; tf=$$(mktemp); TIMEFORMAT="%R %U %S"; \
	for s in $(TEST_STAGES); do \
	  if ! { time $(MAKE) --no-print-directory $$s 2>&3; } 3>&2 2>$$tf; then \
	    printf "make test: stage $$s FAILED after %.0f s\n$$report" "$$(cut -d' ' -f1 $$tf)"; rm -f $$tf; exit 1; \
	  fi; \
	  report="$$report$$(awk -v s=$$s '{printf "  %-13s %4.0f s wall %5.0f s CPU", s, $$1, $$2+$$3}' $$tf)\n"; \
	done; \
	rm -f $$tf; printf "make test: every stage passed\n$$report  total         %4s s\n" "$$(( $$(date +%s) - t0 ))"

vet:
	$(GO) vet ./...

# staticcheck is a tool dependency in go.mod: `go tool` builds it, no install.
lint:
	$(GO) tool staticcheck ./...

# lint-api: Redocly's linter with its recommended rules (redocly.yaml) on
# the generated OpenAPI document, the contract clients are generated
# from: an error fails, warnings are printed. @redocly/cli is pinned in
# apilint/ (one bundled package, no install scripts), an npm project of
# its own so the build's install (islands/) does not carry it. It runs
# offline: no telemetry, no update check.
apilint/node_modules/.package-lock.json: apilint/package-lock.json
	cd apilint && $(NPM) ci --ignore-scripts --no-audit --no-fund
	@touch $@

lint-api: apilint/node_modules/.package-lock.json
	cd apilint && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(NPM) run --silent lint-api

# Every package is tested once, under the race detector: most start
# goroutines (the build's runs and batches, the catalog's loader, the
# store, the API, the servers, the schedules, the senders, the
# extractor), and one build of every package for the tests costs less
# than two (race and plain) of the packages they share. -race needs cgo,
# hence a C compiler. The generator's package is the exception: its
# tests build whole sites with Hugo, some forty builds in two languages,
# which the race detector makes seven times slower (1,380 s against
# 190 s on this 2-core machine, past go test's 10 minutes). Its
# goroutines are generator/render's, tested under -race in that package
# and here through two whole builds (RACE_GENERATOR); every test of the
# package runs without it.
RACE_GENERATOR := ^(TestBuild_Golden|TestLanguages_EveryPage)$$
go-test: islands/dist/.vite/manifest.json postgres cc
	CGO_ENABLED=1 $(GO) test -race $$($(GO) list ./... | grep -vx regpulse/generator)
	CGO_ENABLED=1 $(GO) test -race -run '$(RACE_GENERATOR)' ./generator/
	$(GO) test ./generator/

# Debian's package lists are fetched once for all the installs below (a
# fresh machine's make test needs four): again only when over an hour old.
APT_UPDATE = { [ -n "$$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -60 2>/dev/null | head -1)" ] || apt-get update -qq; }

# A C compiler for the race detector (Debian's gcc).
cc:
	@if ! command -v gcc >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's gcc for the race detector"; \
	    $(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev >/dev/null; \
	  else \
	    echo "The race detector needs a C compiler: run 'sudo apt-get install -y gcc libc6-dev' (or make test as root)." >&2; exit 1; \
	  fi; \
	fi

$(FIXTURE_SITE)/index.html: $(BIN) islands/dist/.vite/manifest.json $(FIXTURE_SOURCES)
	$(BIN) build --content generator/testdata/content --out $(FIXTURE_SITE) --as-of 2021-03-01

# The islands' runtime dependencies are audited too (islands/scripts/audit.mjs:
# high or critical advisories fail; an unreachable advisory endpoint is
# reported, not failed).
islands-test: islands/node_modules/.package-lock.json $(FIXTURE_SITE)/index.html
	cd islands && $(NPM) run typecheck && $(NPM) test && $(NPM) run audit

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && $(NPM) ci --no-audit --no-fund
	@touch $@

# Debian's Chromium: the browser tests drive its headless shell
# (chromium-headless-shell, the engine of /usr/bin/chromium without the
# browser around it, as Playwright runs headless by default: a third of
# the CPU per test, the suite 514 s to 272 s); Lighthouse needs the
# browser itself (chromium). An emoji font, for flags and network icons.
chromium:
	@$(MAKE) --no-print-directory debian-packages WHAT="the browser tests" PACKAGES="chromium-headless-shell fonts-dejavu-core fonts-noto-color-emoji" NEED=/usr/bin/chromium-headless-shell

chromium-browser:
	@$(MAKE) --no-print-directory debian-packages WHAT="Lighthouse" PACKAGES="chromium fonts-dejavu-core fonts-noto-color-emoji" NEED=/usr/bin/chromium

# debian-packages installs PACKAGES (for WHAT) as root when NEED is
# missing; otherwise it says what to install.
debian-packages:
	@if [ ! -x $(NEED) ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian's $(PACKAGES) for $(WHAT)"; \
	    $(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES) >/dev/null; \
	  else \
	    echo "$(WHAT) need $(NEED): run 'sudo apt-get install -y $(PACKAGES)' (or make as root)." >&2; exit 1; \
	  fi; \
	fi

# PostgreSQL for the store's PostgreSQL half and the many-instances test:
# Debian's server and its contrib (pg_trgm). The tests start a throwaway
# cluster of their own (internal/store/pgtest), never the system's; without
# PostgreSQL they skip, except under CI=true, where they fail.
postgres:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || ! ls /usr/share/postgresql/*/extension/pg_trgm.control >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's PostgreSQL for the store tests"; \
	    $(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql postgresql-contrib >/dev/null; \
	  else \
	    echo "note: PostgreSQL missing; its store tests skip. As root: apt-get install -y postgresql postgresql-contrib" >&2; \
	  fi; \
	fi

# The document tools: PDF text (poppler-utils), OCR of scanned pages in
# English and Hindi (tesseract), Word 97-2003 files (antiword, catdoc).
DOC_PACKAGES := poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-hin antiword catdoc
doctools:
	@missing=""; for p in $(DOC_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing the document tools:$$missing"; \
	    $(APT_UPDATE) && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "note: document tools missing ($$missing); PDF, OCR and .doc extraction degrade (the server logs how). As root: apt-get install -y$$missing" >&2; \
	  fi; \
	fi

e2e: build chromium e2e/node_modules/.package-lock.json
	cd e2e && E2E_PORT=$(E2E_PORT) $(NPM) test

# make bench: every benchmark at the archive's size (bench-all), its
# output kept as bench/results/TIME-COMMIT.txt, then each figure beside
# the previous run's: benchstat of the newest earlier file there against
# this one (commit a run's file to make it the next run's "before").
# Lighthouse prints its figures as benchmark lines too.
BENCH_OUT := bench/results/$(shell date -u +%Y-%m-%dT%H%MZ)-$(shell git rev-parse --short HEAD 2>/dev/null || echo unknown).txt
.PHONY: bench bench-all
bench:
	@mkdir -p bench/results
	set -o pipefail; $(MAKE) --no-print-directory bench-all 2>&1 | tee $(BENCH_OUT)
	@prev=$$(ls bench/results/*.txt | grep -vxF '$(BENCH_OUT)' | sort | tail -1); \
	if [ -n "$$prev" ]; then echo "== each figure beside the previous run's: $$prev (old) and $(BENCH_OUT) (new)"; $(GO) tool benchstat -confidence 0.9 $$prev $(BENCH_OUT); fi

# Every other benchmark of ./... runs here too (the alerts' matching,
# bench-alerts, among them).
bench-all: bench-build bench-build-100k bench-lighthouse bench-search bench-search-load
	REGPULSE_BENCH_CIRCULARS=100000 $(GO) test -run '^$$' -bench . -skip 'BenchmarkBuild|BenchmarkSearch|BenchmarkIndex|BenchmarkColdStart|BenchmarkSnapshot' -benchmem -timeout 60m ./...

# Search at the archive's size: for each of SEARCH_SIZES generated
# circulars, on both stores, the API's latency by class of query (p50-ms,
# p95-ms), the sync, the index's load, size and one-change update
# (api's BenchmarkSearch), the index alone (BenchmarkIndex_*, its
# snapshot's opening: BenchmarkSnapshot_Open), and the function's cold
# start on a search from the database, a snapshot file and a built-in
# snapshot (cmd/regpulse-api). 100,000 takes
# about ten minutes and 3 GB of memory.
SEARCH_SIZES ?= 10000 100000
bench-search:
	for n in $(SEARCH_SIZES); do \
	  echo "circulars: $$n"; \
	  REGPULSE_BENCH_CIRCULARS=$$n $(GO) test -run '^$$' -bench 'BenchmarkSearch|BenchmarkIndex|BenchmarkSnapshot' -skip BenchmarkSearchLoad -benchmem -timeout 60m ./api ./internal/search/index || exit 1; \
	  REGPULSE_BENCH_CIRCULARS=$$n $(GO) test -run '^$$' -bench 'BenchmarkColdStart' -benchtime 3x -timeout 60m ./cmd/regpulse-api || exit 1; \
	done

# Search under load: 50 clients on loopback against one server for
# REGPULSE_LOAD_DURATION (5s), going round bench-search's classes of
# queries at SEARCH_LOAD_CIRCULARS generated circulars, on both stores,
# with the read cache off (every request a search: the issue's target,
# p95 <= 10 ms at 1,000 a second) and as a server has it by default, the
# clients back to back (max) and paced at 1,000 a second (rate=1000):
# req/s, p50-ms, p95-ms, errors and CPU-ms per request, medians of
# SEARCH_LOAD_RUNS runs on one set-up (which syncs for a minute or more a
# store at 100,000).
.PHONY: bench-search-load
SEARCH_LOAD_CIRCULARS ?= 100000
SEARCH_LOAD_RUNS ?= 3
bench-search-load:
	REGPULSE_BENCH_CIRCULARS=$(SEARCH_LOAD_CIRCULARS) $(GO) test ./api -run '^$$' -bench 'BenchmarkSearchLoad' -benchtime $(SEARCH_LOAD_RUNS)x -timeout 60m

# The build benchmark: the real content plus BENCH_BUILD generated
# circulars, fresh and rebuilt, beside the Hugo CLI of go.mod's version
# (bin/hugo) on the same pages.
BENCH_BUILD ?= 1000,10000
HUGO_VERSION = $(shell $(GO) list -m -f '{{.Version}}' github.com/gohugoio/hugo)

bin/hugo: go.mod
	GOBIN=$(CURDIR)/bin $(GO) install github.com/gohugoio/hugo@$(HUGO_VERSION)

bench-build: bin/hugo
	REGPULSE_HUGO=$(CURDIR)/bin/hugo REGPULSE_BENCH_BUILD=$(BENCH_BUILD) $(GO) test ./generator -run '^$$' -bench BenchmarkBuild -benchtime 1x -timeout 60m

# The build at the archive's size: the real content plus 100,000 generated
# circulars, fresh (pages, bytes, largest page gzip, peak RSS, beside the
# Hugo CLI), one circular edited, and rebuilt unchanged. Takes minutes.
bench-build-100k: bin/hugo
	REGPULSE_HUGO=$(CURDIR)/bin/hugo REGPULSE_BENCH_BUILD=100000 $(GO) test ./generator -run '^$$' -bench BenchmarkBuild -benchtime 1x -timeout 120m

# Lighthouse (bench/, mobile preset, Debian's chromium) on the built site:
# the dashboard's budgets (median of 3 runs) and every route's CLS. Not in
# `make test`: scores depend on how busy the machine is.
BENCH_PORT ?= 18090
bench/node_modules/.package-lock.json: bench/package-lock.json
	cd bench && $(NPM) ci --no-audit --no-fund
	@touch $@

bench-lighthouse: build chromium-browser bench/node_modules/.package-lock.json
	cd bench && BENCH_PORT=$(BENCH_PORT) node lighthouse.mjs

# Alerts: 100 new circulars matched against an index of 100,000 alerts
# (under a second), and that index's build (internal/alerts).
.PHONY: bench-alerts
bench-alerts:
	$(GO) test ./internal/alerts -run '^$$' -bench . -benchtime 3x -timeout 10m

# Teams (issue 44): at 100 organisations × 20 members × 10,000 items
# with 1,000,000 audit rows, on both stores, "my work", the board (first
# page, by status, by owner, a deep page) and a decision's write with
# its audit row: p50-ms and p95-ms, BENCH_TEAMS_COUNT runs (each fills
# its stores anew: minutes).
.PHONY: bench-teams
BENCH_TEAMS_COUNT ?= 3
bench-teams:
	$(GO) test ./internal/store -run '^$$' -bench 'BenchmarkTeams' -benchtime 300x -count $(BENCH_TEAMS_COUNT) -timeout 120m

# The read path alone: one cached read in process, and 50 clients on
# loopback for REGPULSE_LOAD_DURATION (5s) with the read cache off and on,
# BENCH_COUNT times (compare medians). `make bench` runs these too.
.PHONY: bench-read
BENCH_COUNT ?= 5
bench-read:
	$(GO) test ./api -run '^$$' -bench 'BenchmarkReadCache|BenchmarkLoad' -benchmem -count $(BENCH_COUNT) -timeout 20m

# Webhooks (issue 47): one instance's sender delivering 10,000 events to
# one loopback endpoint from the SQLite store (each signed and verified):
# deliveries/min, BENCH_WEBHOOKS_COUNT runs (take the median; the issue
# asks 10,000 a minute).
.PHONY: bench-webhooks
BENCH_WEBHOOKS_COUNT ?= 5
bench-webhooks:
	$(GO) test ./internal/webhooks -run '^$$' -bench 'BenchmarkRun_Throughput' -benchtime 1x -count $(BENCH_WEBHOOKS_COUNT) -timeout 20m

# Go's native fuzzing of the document readers, FUZZTIME each (the seed
# corpus is internal/extract/testdata/fuzz; a crash adds its input there).
# Minimising a new input is capped at 5 s: PDFs are large inputs and the
# default minute per input leaves little time for fuzzing.
FUZZTIME ?= 60s
fuzz:
	for f in FuzzPDF FuzzDOCX FuzzText; do \
	  $(GO) test ./internal/extract -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 5s -parallel 1 || exit 1; \
	done

clean:
	rm -rf bin public public.* .public.* islands/dist $(FIXTURE_SITE) e2e/test-results e2e/screenshots
