package generator

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"

	"regpulse/generator/render"
	"regpulse/internal/directions"
	"regpulse/internal/related"
	"regpulse/internal/store/storetest"
)

// benchNow is the benchmarks' build date.
var benchNow = time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)

// benchSizes are the counts of generated circulars BenchmarkBuild adds to
// the real content: REGPULSE_BENCH_BUILD, e.g. "1000,10000"; 1000 unset.
func benchSizes(b *testing.B) []int {
	env := os.Getenv("REGPULSE_BENCH_BUILD")
	if env == "" {
		return []int{1000}
	}
	var out []int
	for _, f := range strings.Split(env, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 0 {
			b.Fatalf("REGPULSE_BENCH_BUILD=%q: want counts like 1000,10000", env)
		}
		out = append(out, n)
	}
	return out
}

// benchContent is the real content plus n generated circulars shaped like
// real ones (storetest.RealisticCirculars), written as content files.
func benchContent(b testing.TB, n int) string {
	b.Helper()
	return withCirculars(b, "../content", n)
}

// withCirculars is a copy of the content folder src plus n generated
// circulars shaped like real ones.
func withCirculars(b testing.TB, src string, n int) string {
	return storetest.ContentWith(b, src, n)
}

// hugoCLI is the Hugo binary of go.mod's version the build is compared
// with: REGPULSE_HUGO, else bin/hugo (`make bin/hugo` installs it).
func hugoCLI() string {
	if p := os.Getenv("REGPULSE_HUGO"); p != "" {
		return p
	}
	p, _ := filepath.Abs("../bin/hugo")
	return p
}

// BenchmarkBuild builds the real content plus generated circulars
// (REGPULSE_BENCH_BUILD). Fresh builds into an empty folder and, after
// each build, runs the Hugo CLI on a copy of the same temporary Hugo site
// with the same configuration, so that load on a shared machine falls on
// both alike; it reports the ratio. Rebuild builds the same inputs again
// over the output.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes(b) {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			content := benchContent(b, n)
			parent := b.TempDir()
			opts := func(out string) Options {
				return Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
					BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test",
					Now: func() time.Time { return benchNow }, ReleaseContent: true, // as `regpulse build`
					Log: benchLog()}
			}
			// the output of the last fresh build: the rebuilds start from it
			// (at 100,000 circulars a build is minutes)
			var last string
			built := func(b *testing.B) string {
				if last == "" {
					last = filepath.Join(parent, "public-first")
					if _, err := Build(context.Background(), opts(last)); err != nil {
						b.Fatal(err)
					}
				}
				return last
			}
			b.Run("Fresh", func(b *testing.B) {
				cli := hugoCLI()
				var site string
				if _, err := os.Stat(cli); err != nil {
					b.Logf("no Hugo CLI at %s (set REGPULSE_HUGO or run `make bin/hugo`): comparison skipped", cli)
					cli = ""
				} else {
					site = cliSite(b, opts(filepath.Join(b.TempDir(), "unused")))
				}
				var ours, theirs time.Duration
				var cliRSS, rss float64
				for b.Loop() {
					out := filepath.Join(parent, fmt.Sprintf("public-%d", time.Now().UnixNano()))
					// in a process of its own, as `regpulse build` runs, so
					// that its peak RSS is the build's, not the set-up's
					took, peak, res := buildProcess(b, content, out)
					ours += took
					rss = max(rss, peak)
					last = out
					if res.Pages < n {
						b.Fatalf("built %d pages for %d circulars", res.Pages, n)
					}
					b.StopTimer()
					reportOutput(b, out, res.Pages)
					b.StartTimer()
					if cli == "" {
						continue
					}
					b.StopTimer()
					cliOut := filepath.Join(b.TempDir(), "cli-public")
					took, rss := runHugoCLI(b, cli, site, cliOut)
					samePages(b, out, cliOut)
					theirs += took
					cliRSS = max(cliRSS, rss)
					b.StartTimer()
				}
				b.ReportMetric(rss, "peak-RSS-MB")
				b.ReportMetric(ours.Seconds()/float64(b.N)*1000/float64(max(n, 1)), "s/1k-circulars")
				if cli != "" {
					b.ReportMetric(theirs.Seconds()/float64(b.N), "hugo-cli-s/op")
					b.ReportMetric(cliRSS, "hugo-cli-RSS-MB")
					b.ReportMetric(ours.Seconds()/theirs.Seconds(), "ratio")
					b.Logf("%d circulars: build %.2fs, Hugo CLI %.2fs, ratio %.2f", n,
						ours.Seconds()/float64(b.N), theirs.Seconds()/float64(b.N), ours.Seconds()/theirs.Seconds())
				}
			})
			// an editor's day: one circular's text changed since the last build
			b.Run("Rebuild", func(b *testing.B) {
				out := built(b)
				defer profile(b)()
				for b.Loop() {
					if _, err := Build(context.Background(), opts(out)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("OneChanged", func(b *testing.B) {
				out := built(b)
				file := filepath.Join(content, "circulars", "bench-000001.md")
				var rendered int
				defer profile(b)()
				for b.Loop() {
					b.StopTimer()
					appendTo(b, file, "\n\nAmended on "+time.Now().Format(time.RFC3339Nano)+".\n")
					b.StartTimer()
					res, err := Build(context.Background(), opts(out))
					if err != nil {
						b.Fatal(err)
					}
					rendered = res.Rendered
					lists := listPagesOf(res.RenderedPaths)
					b.Logf("one circular's text changed: %d pages rendered again, %d of them list pages %v", res.Rendered, len(lists), lists)
				}
				b.ReportMetric(float64(rendered), "pages-rendered")
			})
		})
	}
}

// benchLog is the build's steps, timed, on stdout with
// REGPULSE_BENCH_TRACE set; else nil.
func benchLog() *slog.Logger {
	if os.Getenv("REGPULSE_BENCH_TRACE") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// benchTemplateMetrics is where each Hugo run's template metrics go:
// stderr with REGPULSE_BENCH_TEMPLATE_METRICS set; else nil.
func benchTemplateMetrics() io.Writer {
	if os.Getenv("REGPULSE_BENCH_TEMPLATE_METRICS") == "" {
		return nil
	}
	return os.Stderr
}

// profile writes a CPU profile from now until the returned func is
// called, to REGPULSE_BENCH_CPUPROFILE's folder, named after b (the
// rebuilds', without the set-up's generated content and fresh build; a
// fresh build's child process writes TestBuildProcess.pprof); with it
// unset, nothing.
func profile(b testing.TB) func() {
	dir := os.Getenv("REGPULSE_BENCH_CPUPROFILE")
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, strings.ReplaceAll(b.Name(), "/", "-")+".pprof"))
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// reportOutput reports a build's pages, its total bytes and its largest
// HTML page, as written and gzipped (the budget: 100 KB gzip a page).
func reportOutput(b *testing.B, out string, pages int) {
	var total, largest, largestGz int64
	var name string
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		if strings.HasSuffix(p, ".html") && info.Size() > largest {
			largest, name = info.Size(), p
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if data, err := os.ReadFile(name); err == nil {
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		_, _ = w.Write(data)
		_ = w.Close()
		largestGz = int64(gz.Len())
	}
	b.ReportMetric(float64(pages), "pages")
	b.ReportMetric(float64(total)/(1<<20), "total-MB")
	b.ReportMetric(float64(largestGz)/1024, "largest-page-gz-KB")
	rel, _ := filepath.Rel(out, name)
	b.Logf("%d pages, %.1f MB in all; largest page %s: %d KB, %d KB gzip", pages, float64(total)/(1<<20), rel, largest>>10, largestGz>>10)
}

// cliSite writes the temporary Hugo site the generator builds from, with
// the generator's Hugo configuration as hugo.json, for the Hugo CLI.
func cliSite(b *testing.B, opts Options) string {
	b.Helper()
	if err := opts.absolute(); err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "site")
	// with the circulars' texts, which its pages read (render.WritePages writes
	// them into the site): the build itself loads the catalog without them
	// and reads each while rendering it (ReleaseContent), to the same pages
	opts.ReleaseContent = false
	cat, err := loadCatalog(opts)
	if err != nil {
		b.Fatal(err)
	}
	assets, err := LoadAssets(opts.AssetsDir)
	if err != nil {
		b.Fatal(err)
	}
	txt, err := renderTexts(b.Context(), cat.Circulars, textsOpts{})
	if err != nil {
		b.Fatal(err)
	}
	views, err := circularViews(cat, directions.New(cat), txt, opts.Now(), func(docs []related.Doc, k int) ([][]int, error) { return related.Rank(docs, k), nil })
	if err != nil {
		b.Fatal(err)
	}
	data := templateData(cat, assets, opts, views, txt.preview, networksRecent(cat, opts.Now()))
	if err := writeSite(b.Context(), afero.NewOsFs(), dir, cat, opts.Now(), data, txt); err != nil {
		b.Fatal(err)
	}
	h := hugoSite(opts)
	// the tables T reads, as each run of the build writes them
	for name, table := range h.Tables {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, table, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfg, err := json.Marshal(h.Config(dir, filepath.Join(dir, "public")))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hugo.json"), cfg, 0o644); err != nil {
		b.Fatal(err)
	}
	return dir
}

// runHugoCLI builds site with the Hugo CLI into out and returns its wall
// time and peak RSS in MB.
func runHugoCLI(b *testing.B, cli, site, out string) (time.Duration, float64) {
	b.Helper()
	cmd := exec.Command(cli, "--source", site, "--destination", out, "--quiet")
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	took, rss, cpu, _ := runMeasured(b, cmd)
	b.Logf("the Hugo CLI: %.1f s of CPU in %.1f s (%.2f cores)", cpu.Seconds(), took.Seconds(), cpu.Seconds()/took.Seconds())
	return took, rss
}

// samePages fails b unless the Hugo CLI rendered the pages the build did:
// a circular's page (its text included) and the first list page, byte
// for byte, so that the ratio compares the same work.
func samePages(b *testing.B, ours, cli string) {
	b.Helper()
	for _, page := range []string{circularPagePath("bench-000000"), "circulars/page/2/index.html"} {
		want, err := os.ReadFile(filepath.Join(ours, page))
		if err != nil {
			b.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(cli, page))
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(want, got) {
			b.Fatalf("%s: the Hugo CLI's page (%d bytes) is not the build's (%d bytes)", page, len(got), len(want))
		}
	}
}

// buildProcess runs Build of content into out in a child process (this
// test binary, running TestBuildProcess) under the memory limit `regpulse
// build` sets, and returns its wall time, peak RSS in MB and result.
func buildProcess(b *testing.B, content, out string) (time.Duration, float64, Result) {
	b.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuildProcess$", "-test.count=1")
	// the parent's assets: the rebuilds that follow in this process see
	// the same inputs
	cmd.Env = append(os.Environ(), "REGPULSE_BUILD_PROCESS="+strings.Join([]string{content, out, fixtureAssets}, string(os.PathListSeparator)))
	took, rss, cpu, stdout := runMeasured(b, cmd)
	b.Logf("the build's process: %.1f s of CPU in %.1f s (%.2f cores)", cpu.Seconds(), took.Seconds(), cpu.Seconds()/took.Seconds())
	if os.Getenv("REGPULSE_BENCH_TRACE") != "" {
		for l := range strings.Lines(stdout) {
			if strings.Contains(l, "build step") {
				b.Log(strings.TrimSpace(l))
			}
		}
	}
	var res Result
	line := stdout[strings.LastIndex(stdout, "RESULT ")+len("RESULT "):]
	if err := json.Unmarshal([]byte(strings.SplitN(line, "\n", 2)[0]), &res); err != nil {
		b.Fatalf("the build's process said %q: %v", stdout, err)
	}
	return took, rss, res
}

// TestBuildProcess is BenchmarkBuild's child process (buildProcess): it
// builds content into out as REGPULSE_BUILD_PROCESS names them, and says
// the result on a line of its own.
func TestBuildProcess(t *testing.T) {
	env := os.Getenv("REGPULSE_BUILD_PROCESS")
	if env == "" {
		t.Skip("BenchmarkBuild's child process")
	}
	dirs := strings.Split(env, string(os.PathListSeparator))
	if len(dirs) != 3 {
		t.Fatalf("REGPULSE_BUILD_PROCESS=%q: want content, out and assets", env)
	}
	debug.SetMemoryLimit(render.MemoryLimitMiB << 20) // as `regpulse build` runs by default
	if as := os.Getenv("REGPULSE_BENCH_PROGRAM_AS"); as != "" {
		// A/B of two binaries' edits over one output (no fresh build of
		// 5 minutes each): this one takes the caches of the one at as.
		// Only for changes that leave the pages and caches as they were.
		render.ProgramHash = sync.OnceValues(func() (string, error) { return render.ExecutableHash(as) })
	}
	defer profile(t)()
	res, err := Build(t.Context(), Options{ContentDir: dirs[0], TemplatesDir: templatesDir, AssetsDir: dirs[2], OutDir: dirs[1],
		BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test", Now: func() time.Time { return benchNow },
		ReleaseContent: true, Log: benchLog(), TemplateMetrics: benchTemplateMetrics(), RunPages: benchRunPages()})
	if err != nil {
		t.Fatal(err)
	}
	res.Catalog, res.RenderedPaths = nil, nil
	j, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("\nRESULT %s\n", j)
}

// benchRunPages is REGPULSE_BENCH_RUN_PAGES, the pages of a Hugo run
// (Options.RunPages), for experiments; unset, 0: render.RunPages.
func benchRunPages() int {
	n, _ := strconv.Atoi(os.Getenv("REGPULSE_BENCH_RUN_PAGES"))
	return n
}

// runMeasured runs cmd and returns its wall time, its peak RSS in MB, the
// CPU time it used (user and system) and its output. The RSS is the process's own high-water mark, read from
// /proc while it runs: its rusage would count this process's memory too
// (Go starts commands sharing its memory until they exec).
func runMeasured(b *testing.B, cmd *exec.Cmd) (time.Duration, float64, time.Duration, string) {
	b.Helper()
	var msg strings.Builder
	cmd.Stdout, cmd.Stderr = &msg, &msg
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var hwm float64
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				b.Fatalf("%s: %v\n%s", cmd.Path, err, msg.String())
			}
			cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			return time.Since(start), hwm, cpu, msg.String()
		case <-tick.C:
			hwm = max(hwm, vmHWM(cmd.Process.Pid))
		}
	}
}

// vmHWM is a process's peak resident memory in MB (0 when gone).
func vmHWM(pid int) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
