package webhooks_test

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"regpulse/internal/webhooks"
)

var benchEvents = flag.Int("webhooks.events", 10000, "events BenchmarkRun_Throughput publishes to its one endpoint")

// BenchmarkRun_Throughput: one instance's sender (webhooks.Run, its
// default workers) delivering -webhooks.events events, published to one
// endpoint on the SQLite store in a file (and on PostgreSQL, when
// installed: pgtest), to a loopback receiver that
// checks each signature; reports deliveries a minute (the issue asks
// 10,000). `make bench-webhooks` runs it.
func BenchmarkRun_Throughput(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchThroughput(b, newRig) })
	b.Run("postgres", func(b *testing.B) { benchThroughput(b, newPostgresRig) })
}

func benchThroughput(b *testing.B, open func(testing.TB) *rig) {
	for range b.N {
		b.StopTimer()
		r := open(b)
		r.clock.real = true
		var got, bad atomic.Int64
		rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			body, err := io.ReadAll(req.Body)
			if err != nil || webhooks.Verify(secret, req.Header, body, time.Now()) != nil {
				bad.Add(1)
			}
			got.Add(1)
			w.WriteHeader(http.StatusNoContent)
		}))
		r.endpoint(b, "ep", webhooks.KindWebhook, rc.URL)
		for i := range *benchEvents {
			ev, err := webhooks.NewEvent(webhooks.CircularPublished, r.orgID, "", fmt.Sprint(i), map[string]int{"n": i},
				webhooks.Card{Title: "Circular"}, time.Now())
			if err != nil {
				b.Fatal(err)
			}
			if _, err := r.db.Publish(context.Background(), ev); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		start := time.Now()
		delivered := 0
		for delivered < *benchEvents {
			rep, err := webhooks.Run(context.Background(), r.db, r.sender, webhooks.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if rep.Delivered == 0 {
				b.Fatalf("a run delivered nothing (%s) after %d", rep, delivered)
			}
			delivered += rep.Delivered
		}
		elapsed := time.Since(start)
		b.StopTimer()
		rc.Close()
		if bad.Load() > 0 || got.Load() != int64(*benchEvents) {
			b.Fatalf("receiver: %d requests, %d bad", got.Load(), bad.Load())
		}
		b.ReportMetric(float64(delivered)/elapsed.Minutes(), "deliveries/min")
		b.StartTimer()
	}
}
