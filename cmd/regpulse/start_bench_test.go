package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"regpulse/internal/store/storetest"
)

// BenchmarkServe_Start measures how soon `regpulse serve` answers on the
// real content plus $REGPULSE_BENCH_CIRCULARS generated circulars
// (default 20,000) over SQLite, from the start of its process: on a
// first start (an empty data folder: the store made, the catalog synced,
// the search index built) and on a restart (the folder of a first
// start): the seconds until /api/health answers 200 (health-s), until a
// search answers 200 (search-s), and until the obligations' extraction,
// which runs in the background, has ended (extracted-s). Run it with
// -benchtime 1x: a first start at 100,000 circulars takes minutes.
func BenchmarkServe_Start(b *testing.B) {
	n := storetest.BenchCirculars(b, 20000)
	content := storetest.ContentWith(b, "../../content", n)
	const within = 30 * time.Minute
	// start serves over data and returns its times to each answer.
	start := func(b *testing.B, data string) (health, search, extracted time.Duration) {
		t0 := time.Now()
		in := startServe(b, "--data", data, "--content", content, "--log-level", "info")
		defer in.kill()
		waitOK(b, in, "/api/health", within)
		health = time.Since(t0)
		waitOK(b, in, "/api/search?q=payment+aggregator+settlement", within)
		search = time.Since(t0)
		for !strings.Contains(in.log.String(), `msg="obligations extracted"`) {
			select {
			case <-in.done:
				b.Fatalf("serve exited:\n%s", in.log)
			case <-time.After(100 * time.Millisecond):
			}
			if time.Since(t0) > within {
				b.Fatalf("the extraction had not ended after %s:\n%s", within, in.log)
			}
		}
		return health, search, time.Since(t0)
	}
	report := func(b *testing.B, health, search, extracted time.Duration) {
		per := func(d time.Duration) float64 { return d.Seconds() / float64(b.N) }
		b.ReportMetric(per(health), "health-s")
		b.ReportMetric(per(search), "search-s")
		b.ReportMetric(per(extracted), "extracted-s")
		b.Logf("%d circulars: /api/health after %.1f s, a search after %.1f s, the extraction over after %.1f s",
			n, per(health), per(search), per(extracted))
	}
	parent := b.TempDir() // the data folders, kept until the restarts are done
	var synced string     // a data folder a first start has filled
	b.Run("FirstStart", func(b *testing.B) {
		var health, search, extracted time.Duration
		for b.Loop() {
			b.StopTimer()
			data, err := os.MkdirTemp(parent, "data-")
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			h, s, e := start(b, data)
			health, search, extracted, synced = health+h, search+s, extracted+e, data
		}
		report(b, health, search, extracted)
	})
	b.Run("Restart", func(b *testing.B) {
		if synced == "" {
			b.Skip("no first start to restart after")
		}
		var health, search, extracted time.Duration
		for b.Loop() {
			h, s, e := start(b, synced)
			health, search, extracted = health+h, search+s, extracted+e
		}
		report(b, health, search, extracted)
	})
}
