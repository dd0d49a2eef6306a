package alerts_test

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/directions/directionstest"
	"regpulse/internal/mail"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// discard is a transport that writes each message out to nothing: what
// a run costs short of the SMTP server's time.
type discard struct{}

func (discard) Deliver(_ context.Context, m *gomail.Msg, _ string) error {
	_, err := m.WriteTo(io.Discard)
	return err
}
func (discard) Close() error { return nil }

// BenchmarkRun_Follows10000: 250 generated Master Directions of 300
// provisions with 20 versions each, 10,000 users each following one (40
// a direction), and a sync bringing a new version of every direction at
// once, the worst case: one run matches the 10,000 deliveries, compares
// the 250 versions with the text before and sends 10,000 e-mails (to a
// transport that discards them), over SQLite in a file.
func BenchmarkRun_Follows10000(b *testing.B) {
	const directions, users, versions = 250, 10_000, 20
	ctx := b.Context()
	now := storetest.Now
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "regpulse.db"), store.WithNow(func() time.Time { return now }))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	gens := directionstest.Directions(directions, versions-1+b.N, 300, 4)
	cat := storetest.Catalog()
	syncUpto := func(n int) {
		cat.Directions = cat.Directions[:0]
		for _, g := range gens {
			d, err := directionstest.Upto(g.Direction, n)
			if err != nil {
				b.Fatal(err)
			}
			cat.Directions = append(cat.Directions, d)
		}
		if _, err := db.SyncCatalog(ctx, cat); err != nil {
			b.Fatal(err)
		}
	}
	syncUpto(versions - 1)
	now = now.Add(time.Minute) // the follows come after the first versions arrived: those are not sent
	for i := range users {
		u, err := db.CreateUser(ctx, auth.NewUser{Username: fmt.Sprintf("u%05d", i), Email: fmt.Sprintf("u%05d@example.com", i), PasswordHash: "x", FirstName: "A", LastName: "B"})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.FollowDirection(ctx, u.ID, gens[i%directions].Direction.Slug); err != nil {
			b.Fatal(err)
		}
	}
	tokens, _ := alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	// The first sync's versions arrived before anyone followed: matched,
	// not sent.
	links, _ := alerts.NewLinks("https://regpulse.example/", tokens)
	if rep, err := alerts.Run(ctx, db, discard{}, alerts.Options{Links: links, Tokens: tokens, Sender: snd, Holder: "bench", Now: func() time.Time { return now }}); err != nil || rep.Sent != 0 {
		b.Fatal(rep, err)
	}
	var cpu time.Duration
	var sent int
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		syncUpto(versions + i)
		now = now.Add(time.Minute)
		links, _ = alerts.NewLinks("https://regpulse.example/", tokens)
		c := cpuTime()
		b.StartTimer()
		rep, err := alerts.Run(ctx, db, discard{}, alerts.Options{Links: links, Tokens: tokens, Sender: snd, Holder: "bench", Now: func() time.Time { return now }})
		b.StopTimer()
		cpu += cpuTime() - c
		if err != nil {
			b.Fatal(err)
		}
		if rep.Sent != users || rep.Matched != users {
			b.Fatalf("run %d: %s", i, rep)
		}
		sent += rep.Sent
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(sent)/float64(b.N), "e-mails/op")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(sent), "µs/e-mail")
}
