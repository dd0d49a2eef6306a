package api

import (
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"regpulse/internal/catalog"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

// BenchmarkDirections measures the Master Directions' calls at the
// archive's size, on both stores: $REGPULSE_BENCH_DIRECTIONS generated
// directions (default 250) of 20 versions and 300 provisions each
// (directionstest), each version rebuilt from its effects and checked
// against the generator's own copy, synced; then the median and 95th percentile latency
// (p50-ms, p95-ms) of the whole call, JSON included, of the text on a
// random date (Text) and of a comparison of two random versions (Compare).
// sync-s is the first sync's time, spans the provision texts stored.
func BenchmarkDirections(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchDirections(b, filepath.Join(b.TempDir(), "bench.db")) })
	b.Run("postgres", func(b *testing.B) { benchDirections(b, pgtest.URL(b)) })
}

// benchDirectionCount is $REGPULSE_BENCH_DIRECTIONS, else 250: how many
// directions the benchmarks generate.
func benchDirectionCount(b *testing.B) int {
	n := 250
	if v := os.Getenv("REGPULSE_BENCH_DIRECTIONS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 0 {
			b.Fatalf("REGPULSE_BENCH_DIRECTIONS=%q: want a whole number", v)
		}
	}
	return n
}

func benchDirections(b *testing.B, target string) {
	n := max(benchDirectionCount(b), 1)
	ctx := b.Context()
	db, err := store.Open(ctx, target, store.WithNow(storetest.Clock))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	gen := directionstest.Directions(n, 20, 300, 1)
	cat := &catalog.Catalog{}
	spans := 0
	for _, g := range gen {
		d := g.Direction
		var problems []catalog.EffectProblem
		if d.History, problems = catalog.BuildHistory(d.IssuedDate, d.Provisions, d.Versions); len(problems) > 0 {
			b.Fatal(problems)
		}
		// every version rebuilt exactly: the generator's own copy
		for day, want := range g.Texts {
			at := d.At(day)
			if len(at) != len(want) {
				b.Fatalf("%s on %s: %d provisions rebuilt, the generator has %d", d.Slug, day, len(at), len(want))
			}
			for i, s := range at {
				if s.Provision != want[i] {
					b.Fatalf("%s on %s: provision %d rebuilt as %+v, the generator has %+v", d.Slug, day, i, s.Provision, want[i])
				}
			}
		}
		spans += len(d.History)
		cat.Directions = append(cat.Directions, d)
	}
	start := time.Now()
	if _, err := db.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	sync := time.Since(start)
	b.Logf("%s: %d directions, %d provision texts, synced in %s", db.Dialect(), n, spans, sync.Round(time.Millisecond))
	f := &fixture{api: New(db, discardLog, WithNow(storetest.Clock))}
	r := rand.New(rand.NewPCG(7, 7))
	date := func(d catalog.MasterDirection) catalog.Date { return d.Versions[r.IntN(len(d.Versions))].Date }
	for _, call := range []struct {
		name   string
		target func() string
	}{
		{"Text", func() string {
			d := cat.Directions[r.IntN(n)]
			return fmt.Sprintf("/master-directions/%s/text?date=%s", d.Slug, date(d))
		}},
		{"Compare", func() string {
			d := cat.Directions[r.IntN(n)]
			return fmt.Sprintf("/master-directions/%s/compare?from=%s&to=%s", d.Slug, d.IssuedDate, date(d))
		}},
	} {
		b.Run(call.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				target := call.target()
				t0 := time.Now()
				rec := httptest.NewRecorder()
				f.api.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
				took = append(took, time.Since(t0))
				if rec.Code != 200 {
					b.Fatalf("GET %s = %d %s", target, rec.Code, rec.Body)
				}
			}
			slices.Sort(took)
			b.ReportMetric(percentile(took, 50), "p50-ms")
			b.ReportMetric(percentile(took, 95), "p95-ms")
			b.ReportMetric(sync.Seconds(), "sync-s")
			b.ReportMetric(float64(spans), "spans")
		})
	}
}
