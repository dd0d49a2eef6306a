package generator

import (
	"bytes"
	"compress/gzip"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store/storetest"
)

// BenchmarkDirectionPages builds the real content with and without
// $REGPULSE_BENCH_DIRECTIONS generated Master Directions (default 250) of
// 20 versions and 300 provisions each, in the same run: added-s is the
// build time the directions add, pages their pages, largest-KB-gzip the
// largest of their pages gzipped (the budget is 100 KB).
func BenchmarkDirectionPages(b *testing.B) {
	n := benchDirections(b)
	plain := storetest.ContentWith(b, "../content", 0)
	with := storetest.ContentWith(b, "../content", 0)
	if err := directionstest.WriteContent(with, directionstest.Directions(n, 20, 300, 3)); err != nil {
		b.Fatal(err)
	}
	build := func(content string) (time.Duration, string) {
		out := filepath.Join(b.TempDir(), "public")
		opts := Options{ContentDir: content, TemplatesDir: templatesDir, AssetsDir: fixtureAssets, OutDir: out,
			BaseURL: "https://regpulse.test/", SupportEmail: "support@regpulse.test",
			Now: func() time.Time { return benchNow }, ReleaseContent: true}
		t0 := time.Now()
		if _, err := Build(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0), out
	}
	// the process's peak RSS (the builds run in it; the one without
	// directions first, so that the second peak is the larger build's)
	peak := func() float64 {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	for b.Loop() {
		base, _ := build(plain)
		basePeak := peak()
		took, out := build(with)
		withPeak := peak()
		pages, largest, largestPath := 0, 0, ""
		err := filepath.WalkDir(filepath.Join(out, "master-directions"), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			var z bytes.Buffer
			w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			w.Write(data)
			w.Close()
			pages++
			if z.Len() > largest {
				largest, largestPath = z.Len(), p
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric((took - base).Seconds(), "added-s")
		b.ReportMetric(float64(pages), "pages")
		b.ReportMetric(float64(largest)/1024, "largest-KB-gzip")
		b.ReportMetric(withPeak, "peak-RSS-MB")
		b.Logf("%d directions: build %s against %s without them; peak RSS %.0f MB against %.0f MB; %d pages, the largest %s (%.1f KB gzip)",
			n, took.Round(time.Millisecond), base.Round(time.Millisecond), withPeak, basePeak, pages, strings.TrimPrefix(largestPath, out), float64(largest)/1024)
	}
}

// benchDirections is $REGPULSE_BENCH_DIRECTIONS, default 250.
func benchDirections(b *testing.B) int {
	n := 250
	if v := os.Getenv("REGPULSE_BENCH_DIRECTIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("REGPULSE_BENCH_DIRECTIONS=%q: want a whole number", v)
		}
	}
	return n
}

// BenchmarkDirectionViews makes what a build shows of
// $REGPULSE_BENCH_DIRECTIONS generated directions (their pages, their
// circulars' citations and their feeds) with one directions.Book for
// the three, as a build does, against a Book for each, as builds did
// before: the difference is the versions' comparisons made again.
func BenchmarkDirectionViews(b *testing.B) {
	content := storetest.ContentWith(b, "../content", 0)
	if err := directionstest.WriteContent(content, directionstest.Directions(benchDirections(b), 20, 300, 3)); err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.Load(content)
	if err != nil {
		b.Fatal(err)
	}
	views := func(pages, cites, feeds *directions.Book) {
		if _, err := directionPages(pages, benchNow); err != nil {
			b.Fatal(err)
		}
		directionCitations(cites)
		v := directionsView{book: feeds}
		for i := range feeds.Directions {
			if _, err := v.feed(&feeds.Directions[i], "https://regpulse.test/"); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("BookEach", func(b *testing.B) {
		for b.Loop() {
			views(directions.New(cat), directions.New(cat), directions.New(cat))
		}
	})
	b.Run("OneBook", func(b *testing.B) {
		for b.Loop() {
			book := directions.New(cat)
			views(book, book, book)
		}
	})
}
