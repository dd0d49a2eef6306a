package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"regpulse/internal/app"
	"regpulse/internal/catalog"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
)

// snapshotDB is a PostgreSQL database holding cs as a deploy's build
// leaves it, the search index's snapshot it wrote at path, and then
// changed circulars synced after the snapshot (as ingest adds them
// between builds): the first of cs retitled with marker.
func snapshotDB(t testing.TB, cs []catalog.Circular, path, marker string) string {
	t.Helper()
	url := pgtest.URL(t)
	db, err := store.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: cs}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.WriteSearchSnapshot(t.Context(), path); err != nil {
		t.Fatal(err)
	}
	later := slices.Clone(cs)
	later[0].Title += " " + marker
	if _, err := db.SyncCatalog(t.Context(), &catalog.Catalog{Circulars: later}); err != nil {
		t.Fatal(err)
	}
	return url
}

var (
	builtInOnce sync.Once
	builtInBin  string
	builtInErr  error
)

// buildWithSnapshot compiles the command with the snapshot at path built
// in (the searchsnapshot tag, as make functions does after a deploy's
// build), once per test process: the file is copied where the embed
// reads it and removed after.
func buildWithSnapshot(t testing.TB, path string) string {
	t.Helper()
	builtInOnce.Do(func() {
		data, err := os.ReadFile(path)
		if err != nil {
			builtInErr = err
			return
		}
		if err := os.WriteFile(app.SearchSnapshotFile, data, 0o644); err != nil {
			builtInErr = err
			return
		}
		defer os.Remove(app.SearchSnapshotFile)
		dir, err := os.MkdirTemp("", "regpulse-api-snapshot-")
		if err != nil {
			builtInErr = err
			return
		}
		builtInBin = filepath.Join(dir, "regpulse-api")
		if out, err := exec.Command("go", "build", "-tags", "searchsnapshot", "-o", builtInBin, ".").CombinedOutput(); err != nil {
			builtInErr = err
			builtInBin = string(out)
		}
	})
	if builtInErr != nil {
		t.Fatalf("go build -tags searchsnapshot: %v\n%s", builtInErr, builtInBin)
	}
	return builtInBin
}

func searchEvent(q string) events.APIGatewayProxyRequest {
	return events.APIGatewayProxyRequest{HTTPMethod: "GET", Path: "/api/search",
		QueryStringParameters: map[string]string{"q": q}, Headers: map[string]string{"Accept": "application/json"},
		RequestContext: events.APIGatewayProxyRequestContext{Identity: events.APIGatewayRequestIdentity{SourceIP: "192.0.2.1"}}}
}

// TestInvoke_Snapshot: the function starts its search index from a
// snapshot, named by $REGPULSE_SEARCH_SNAPSHOT, beside its binary or built
// into it, and finds what changed in the database since; a damaged one is
// ignored with a warning and the database read instead.
func TestInvoke_Snapshot(t *testing.T) {
	t.Parallel()
	snap := filepath.Join(t.TempDir(), app.SearchSnapshotFile)
	url := snapshotDB(t, storetest.RealisticCirculars(200, 21), snap, "Quokkapalooza")
	damaged := filepath.Join(t.TempDir(), "damaged.snapshot")
	data, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/3] ^= 1
	if err := os.WriteFile(damaged, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// a copy: the binary's own path is where it looks (os.Executable
	// resolves a link)
	beside := filepath.Join(t.TempDir(), "regpulse-api")
	exe, err := os.ReadFile(build(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(beside, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(snap, filepath.Join(filepath.Dir(beside), app.SearchSnapshotFile)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, bin string
		env       []string
		want      string
	}{
		{"Environment", build(t), []string{app.SearchSnapshotEnv + "=" + snap}, "search index snapshot opened"},
		{"Beside", beside, nil, "search index snapshot opened"},
		{"BuiltIn", buildWithSnapshot(t, snap), nil, "search index snapshot opened"},
		{"Damaged", build(t), []string{app.SearchSnapshotEnv + "=" + damaged}, "checksum does not match"},
		{"None", build(t), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv, err := invoke(t, tc.bin, append(functionEnv(url), tc.env...), searchEvent("quokkapalooza"))
			if err != nil {
				t.Fatalf("%v\n%s", err, inv.log)
			}
			if inv.answer.StatusCode != 200 || !strings.Contains(inv.answer.Body, `"totalResults":1,`) {
				t.Errorf("the circular changed since the snapshot: %d %.400s", inv.answer.StatusCode, inv.answer.Body)
			}
			if !strings.Contains(inv.log, tc.want) || tc.want == "" && strings.Contains(inv.log, "snapshot") {
				t.Errorf("the log lacks %q:\n%s", tc.want, inv.log)
			}
		})
	}
}

// BenchmarkColdStart_Search is the function's cold start when its first
// request is a search over REGPULSE_BENCH_CIRCULARS generated circulars
// (make bench sets 100,000), ten of them changed since the deploy's
// build: the process starts, brings its search index up to date and
// answers. Database reads the index from the database's rows, as before
// snapshots; File starts from the build's snapshot named by
// $REGPULSE_SEARCH_SNAPSHOT, BuiltIn from the same snapshot built into
// the binary (what make functions deploys). cold-ms is process start to
// answer (median, and p95: the slowest of fewer than 20 runs), index-ms
// the search itself (the index's load included), rss-MB the process's
// peak resident memory then (medians).
func BenchmarkColdStart_Search(b *testing.B) {
	n := storetest.BenchCirculars(b, 3000)
	snap := filepath.Join(b.TempDir(), app.SearchSnapshotFile)
	cs := storetest.RealisticCirculars(n, 1)
	url := snapshotDB(b, cs, snap, "Quokkapalooza")
	// nine more changed since the snapshot: the rows a cold start applies
	db, err := store.Open(b.Context(), url)
	if err != nil {
		b.Fatal(err)
	}
	later := slices.Clone(cs)
	later[0].Title += " Quokkapalooza"
	for i := 1; i < 10; i++ {
		later[i].Title += " amended"
	}
	if _, err := db.SyncCatalog(b.Context(), &catalog.Catalog{Circulars: later}); err != nil {
		b.Fatal(err)
	}
	db.Close()
	if info, err := os.Stat(snap); err == nil {
		b.Logf("%d circulars: the snapshot takes %.1f MB", n, float64(info.Size())/(1<<20))
	}
	for _, tc := range []struct {
		name string
		bin  string
		env  []string
	}{
		{"Database", build(b), nil},
		{"File", build(b), []string{app.SearchSnapshotEnv + "=" + snap}},
		{"BuiltIn", buildWithSnapshot(b, snap), nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var cold, request []time.Duration
			var rss []int64
			for b.Loop() {
				inv, err := invoke(b, tc.bin, append(functionEnv(url), tc.env...), searchEvent("card tokenisation"))
				if err != nil {
					b.Fatalf("%v\n%s", err, inv.log)
				}
				if inv.answer.StatusCode != 200 {
					b.Fatalf("GET /api/search: %d %.300s", inv.answer.StatusCode, inv.answer.Body)
				}
				if tc.env != nil || tc.name == "BuiltIn" {
					if !strings.Contains(inv.log, "search index snapshot opened") {
						b.Fatalf("the snapshot was not used:\n%s", inv.log)
					}
				}
				cold = append(cold, inv.done.Sub(inv.started))
				request = append(request, inv.done.Sub(inv.polled))
				rss = append(rss, inv.peakRSS)
			}
			slices.Sort(cold)
			slices.Sort(request)
			slices.Sort(rss)
			b.ReportMetric(float64(cold[len(cold)/2].Milliseconds()), "cold-ms")
			b.ReportMetric(float64(cold[min(len(cold)-1, len(cold)*95/100)].Milliseconds()), "cold-p95-ms")
			b.ReportMetric(float64(request[len(request)/2].Milliseconds()), "index-ms")
			b.ReportMetric(float64(rss[len(rss)/2])/(1<<20), "rss-MB")
		})
	}
}
