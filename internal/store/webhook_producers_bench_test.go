package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// BenchmarkWebhookProducers measures what publishing the webhooks'
// events adds to a sync of n circulars (REGPULSE_BENCH_CIRCULARS,
// default 10,000) on SQLite, beside BenchmarkPublicationLog: the log's
// work for 100 new circulars (New100) and for every circular revised
// (AllRevised), with no publisher (the cost before issue 47), with the
// producers and no endpoint anywhere (one query), and with one
// organisation whose endpoint wants every event (an event and a
// delivery per entry, alert.matched too). RecordMatches is the alerts
// run's write of 100 arrivals' matches to 100 alerts, with no channel
// and with every alert on a Slack channel.
func BenchmarkWebhookProducers(b *testing.B) {
	n := storetest.BenchCirculars(b, 10_000)
	ctx := context.Background()
	db, err := Open(ctx, b.TempDir()+"/bench.db", WithNow(storetest.Clock), WithSite("https://regpulse.test/"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	cat := &catalog.Catalog{Circulars: storetest.Circulars(n)}
	if _, err := db.SyncCatalog(ctx, cat); err != nil {
		b.Fatal(err)
	}
	// forget makes the last k circulars (by id) new to the log; revise
	// makes every circular's text differ from what the log knew.
	revise := func(tx *txConn) {
		if _, err := tx.ExecContext(ctx, `UPDATE publication_state SET text_hash = 'x', store_hash = 'x' WHERE kind = 'circular'`); err != nil {
			b.Fatal(err)
		}
	}
	ids := make([]string, n)
	for i, c := range cat.Circulars {
		ids[i] = c.ID
	}
	slices.Sort(ids)
	forget := func(k int) func(tx *txConn) {
		return func(tx *txConn) {
			if _, err := tx.ExecContext(ctx, `DELETE FROM publication_state WHERE kind = 'circular' AND entry_id >= ?`, ids[n-k]); err != nil {
				b.Fatal(err)
			}
		}
	}
	run := func(b *testing.B, prep func(tx *txConn), withPub bool) {
		events := 0
		for b.Loop() {
			tx, err := db.db.BeginTx(ctx, nil)
			if err != nil {
				b.Fatal(err)
			}
			st := newTxStmts(tx)
			b.StopTimer()
			prep(tx)
			b.StartTimer()
			var pub *syncEvents
			if withPub {
				pub = &syncEvents{s: db, tx: tx, cat: cat}
			}
			if err := logPublications(ctx, tx, st, cat, SyncStats{Circulars: KindStats{Changed: 1}}, time.Now(), pub); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_events`).Scan(&events); err != nil {
				b.Fatal(err)
			}
			st.close()
			tx.Rollback()
			b.StartTimer()
		}
		b.ReportMetric(float64(events), "events/op")
	}
	cases := func(b *testing.B) {
		b.Run("New100/NoPublisher", func(b *testing.B) { run(b, forget(100), false) })
		b.Run("New100/NoEndpoints", func(b *testing.B) { run(b, forget(100), true) })
		b.Run("AllRevised/NoPublisher", func(b *testing.B) { run(b, revise, false) })
		b.Run("AllRevised/NoEndpoints", func(b *testing.B) { run(b, revise, true) })
	}
	cases(b)

	// alert channels, then one organisation wanting every event
	u, err := db.CreateUser(ctx, auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "x", FirstName: "A", LastName: "B"})
	if err != nil {
		b.Fatal(err)
	}
	var ms []alerts.Match
	arrivals := make([]alerts.Arrival, 100)
	for i := range arrivals {
		arrivals[i] = alerts.Arrival{Circular: cat.Circulars[i], At: storetest.Now}
	}
	var alertIDs []string
	for range 100 {
		a, err := db.CreateAlert(ctx, alerts.Alert{UserID: u.ID, Name: "bench", Frequency: alerts.Daily, Enabled: true})
		if err != nil {
			b.Fatal(err)
		}
		alertIDs = append(alertIDs, a.ID)
	}
	for i, a := range alertIDs {
		ms = append(ms, alerts.Match{AlertID: a, CircularID: arrivals[i].Circular.ID})
	}
	matches := func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			if _, err := db.db.ExecContext(ctx, `DELETE FROM alert_deliveries`); err != nil {
				b.Fatal(err)
			}
			if _, err := db.db.ExecContext(ctx, `DELETE FROM webhook_events`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := db.RecordMatches(ctx, arrivals, ms); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("RecordMatches100/NoChannels", matches)
	for _, id := range alertIDs {
		a, err := db.Alert(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		a.ChannelKind, a.ChannelURL = "slack", "https://hooks.slack.com/services/T/B/x"
		if _, err := db.UpdateAlert(ctx, u.ID, id, a); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("RecordMatches100/SlackChannels", matches)
	if _, err := db.db.ExecContext(ctx, `DELETE FROM webhook_events`); err != nil {
		b.Fatal(err)
	}

	org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: u.ID}, "Bench", catalog.EntityTypes)
	if err != nil {
		b.Fatal(err)
	}
	addEndpoint(b, db, org.ID, "", webhooks.KindWebhook, webhooks.EventTypes...)
	b.Run("New100/OneOrgAllEvents", func(b *testing.B) { run(b, forget(100), true) })
	b.Run("AllRevised/OneOrgAllEvents", func(b *testing.B) { run(b, revise, true) })
}
