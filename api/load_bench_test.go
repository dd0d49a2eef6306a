package api

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The load driver the load benchmarks share (BenchmarkLoad,
// BenchmarkSearchLoad): loadClients clients on loopback against a real
// server for REGPULSE_LOAD_DURATION (default 5s), the server listening on
// REGPULSE_LOAD_ADDR (default a free loopback port). Clients and server
// share the machine's cores, as in issue 18's figures.

// loadClients is how many clients the load benchmarks run at once.
const loadClients = 50

// benchLoad serves h on loopback and, each iteration of b, has
// loadClients clients GET the targets (paths with their queries, each
// client going round them from its own place) for the load duration:
// back to back when rate is 0, else rate requests a second in all, each
// client sending on a fixed schedule (paced: an open load, as users
// arriving). It reports the median over the iterations (-benchtime Nx)
// of requests per second, the median and 95th percentile latencies,
// errors, and the process's CPU time per request (processCPU). A paced request's latency counts from when it was due, so a
// server falling behind shows in it rather than slowing the clients.
func benchLoad(b *testing.B, h http.Handler, targets []string, rate float64) {
	b.Helper()
	duration := 5 * time.Second
	if v := os.Getenv("REGPULSE_LOAD_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatalf("REGPULSE_LOAD_DURATION=%q: %v", v, err)
		}
		duration = d
	}
	addr := os.Getenv("REGPULSE_LOAD_ADDR")
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	urls := make([]string, len(targets))
	for i, t := range targets {
		urls[i] = "http://" + ln.Addr().String() + t
	}
	// The clients ask for gzip, as browsers do, and read the bytes
	// without unzipping them (as wrk does): the machine's cores go to
	// the server, not to the clients' gunzip.
	tr := &http.Transport{MaxIdleConns: loadClients, MaxIdleConnsPerHost: loadClients, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var perSecond, p50, p95, errs, cpu []float64
	for b.Loop() {
		cpu0 := processCPU(b)
		res := load(b.Context(), client, urls, loadClients, rate, duration)
		cpu = append(cpu, float64((processCPU(b)-cpu0).Microseconds())/1000/float64(max(res.n, 1)))
		perSecond = append(perSecond, float64(res.n)/res.took.Seconds())
		p50 = append(p50, float64(res.p(50).Microseconds())/1000)
		p95 = append(p95, float64(res.p(95).Microseconds())/1000)
		errs = append(errs, float64(res.errors))
		if res.errors > 0 {
			b.Logf("%d errors; the first: %v", res.errors, res.firstErr)
		}
	}
	b.ReportMetric(median(perSecond), "req/s")
	b.ReportMetric(median(p50), "p50-ms")
	b.ReportMetric(median(p95), "p95-ms")
	b.ReportMetric(median(errs), "errors")
	b.ReportMetric(median(cpu), "cpu-ms/req")
}

// processCPU is the CPU time the process has used (user and system). Per
// request over a run it is the cost of one answer, server and client
// together, whatever else the machine runs: 2 cores to themselves would
// answer at most 2,000 / cpu-ms/req a second.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// median is the median of xs (the lower of the middle two), 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	xs = slices.Sorted(slices.Values(xs))
	return xs[(len(xs)-1)/2]
}

type loadResult struct {
	n, errors int
	took      time.Duration
	latencies []time.Duration // sorted
	firstErr  error
}

// p is the q-th percentile latency.
func (r loadResult) p(q int) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, len(r.latencies)*q/100)]
}

// load has clients goroutines GET urls for duration, client i starting at
// urls[i%len(urls)] and going round them: back to back when rate is 0,
// else each client every clients/rate seconds, client i's first request
// i/rate seconds after the start, so that the requests are evenly spread.
func load(ctx context.Context, client *http.Client, urls []string, clients int, rate float64, duration time.Duration) loadResult {
	ctx, cancel := context.WithTimeout(ctx, duration)
	defer cancel()
	var (
		mu  sync.Mutex
		res loadResult
		wg  sync.WaitGroup
	)
	start := time.Now()
	for i := range clients {
		wg.Go(func() {
			var lat []time.Duration
			var errs int
			var first error
			for next := i; ctx.Err() == nil; next++ {
				t0 := time.Now()
				if rate > 0 {
					t0 = start.Add(time.Duration((float64(i) + float64(next-i)*float64(clients)) / rate * float64(time.Second)))
					select {
					case <-ctx.Done():
					case <-time.After(time.Until(t0)):
					}
					if ctx.Err() != nil {
						break
					}
				}
				err := get(client, urls[next%len(urls)])
				if ctx.Err() != nil {
					break // cut off by the end of the run: not counted
				}
				if err != nil {
					errs++
					if first == nil {
						first = err
					}
					continue
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			defer mu.Unlock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			if res.firstErr == nil {
				res.firstErr = first
			}
		})
	}
	wg.Wait()
	res.took = time.Since(start)
	res.n = len(res.latencies)
	slices.Sort(res.latencies)
	return res
}

func get(client *http.Client, url string) error {
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}
