package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/store/storetest"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// webhookFixture is an organisation (its creator asha its admin) with
// endpoints inserted as rows (the endpoints' own store file is another's).
type webhookFixture struct {
	db    *DB
	orgID string
}

func newWebhookFixture(t *testing.T, db *DB) webhookFixture {
	t.Helper()
	asha := mustCreate(t, db, newUser("asha", "asha@example.com"))
	org, err := db.CreateOrganisation(t.Context(), teams.Actor{UserID: asha.ID}, "Asha <Payments>", nil)
	if err != nil {
		t.Fatal(err)
	}
	return webhookFixture{db: db, orgID: org.ID}
}

// endpoint inserts an enabled endpoint of kind wanting every event.
func (f webhookFixture) endpoint(t *testing.T, id string, kind webhooks.Kind) {
	t.Helper()
	now := timeText(storetest.Now)
	if _, err := f.db.db.ExecContext(t.Context(), `INSERT INTO webhook_endpoints (id, organisation_id, kind, url, events, secret, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, f.orgID, string(kind), "https://hooks.example.com/"+id,
		`["circular.published","circular.revised"]`, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", now, now); err != nil {
		t.Fatal(err)
	}
}

// publish publishes an event of key to the organisation.
func (f webhookFixture) publish(t *testing.T, key string) webhooks.Event {
	t.Helper()
	ev, err := webhooks.NewEvent(webhooks.CircularPublished, f.orgID, "", key, map[string]string{"key": key},
		webhooks.Card{Title: "Circular " + key}, storetest.Now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.Publish(t.Context(), ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

type deliveryRow struct {
	Status   string
	Attempts int
	Next     string
}

func (f webhookFixture) delivery(t *testing.T, id string) deliveryRow {
	t.Helper()
	var r deliveryRow
	var next *string
	if err := f.db.db.QueryRowContext(t.Context(), "SELECT status, attempts, next_attempt_at FROM webhook_deliveries WHERE id = ?", id).
		Scan(&r.Status, &r.Attempts, &next); err != nil {
		t.Fatal(err)
	}
	if next != nil {
		r.Next = *next
	}
	return r
}

func (f webhookFixture) endpointState(t *testing.T, id string) (enabled bool, failures int, reason string) {
	t.Helper()
	if err := f.db.db.QueryRowContext(t.Context(), "SELECT enabled, failures, disabled_reason FROM webhook_endpoints WHERE id = ?", id).
		Scan(&enabled, &failures, &reason); err != nil {
		t.Fatal(err)
	}
	return
}

func claim(t *testing.T, db *DB, now time.Time, limit int) []webhooks.Due {
	t.Helper()
	ds, err := db.ClaimDeliveries(t.Context(), now, time.Minute, limit)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func finish(t *testing.T, db *DB, rs ...webhooks.Result) []webhooks.Disabled {
	t.Helper()
	ds, err := db.FinishDeliveries(t.Context(), rs)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func result(d webhooks.Due, status webhooks.Status, at time.Time, code int) webhooks.Result {
	first := at
	if d.FirstAt != nil {
		first = *d.FirstAt
	}
	return webhooks.Result{DeliveryID: d.DeliveryID, EndpointID: d.Endpoint.ID, Kind: d.Endpoint.Kind, FirstAt: first, Status: status,
		Attempt: webhooks.Attempt{N: d.N, At: at, StatusCode: code, Response: "ok"}}
}

// TestDB_ClaimDeliveries: a claim takes what is due once, with what a
// sender needs; a delivered one is not due again; a retried one is due
// at its time, as its next attempt, knowing its first.
func TestDB_ClaimDeliveries(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		f := newWebhookFixture(t, open(t))
		f.endpoint(t, "ep-hook", webhooks.KindWebhook)
		ev := f.publish(t, "one")
		f.publish(t, "two")
		now := storetest.Now
		ds := claim(t, f.db, now, 10)
		if len(ds) != 2 {
			t.Fatalf("claimed %d, want 2", len(ds))
		}
		d := ds[slices.IndexFunc(ds, func(d webhooks.Due) bool { return d.Event.ID == ev.ID })]
		payload, _ := ev.Payload()
		want := webhooks.Due{DeliveryID: d.DeliveryID, N: 1, Payload: payload,
			Endpoint: webhooks.Endpoint{ID: "ep-hook", OrganisationID: f.orgID, Kind: webhooks.KindWebhook, URL: "https://hooks.example.com/ep-hook",
				Secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", Enabled: true},
			Event: webhooks.Event{ID: ev.ID, Type: ev.Type, OrganisationID: f.orgID, Timestamp: ev.Timestamp, Data: ev.Data, Card: ev.Card}}
		if diff := cmp.Diff(want, d); diff != "" {
			t.Errorf("due (-want +got):\n%s", diff)
		}
		if again := claim(t, f.db, now, 10); len(again) != 0 {
			t.Errorf("claimed again: %d", len(again))
		}
		later := now.Add(time.Second)
		r := result(ds[1], webhooks.Pending, later, 500)
		r.NextAttemptAt = later.Add(5 * time.Second)
		finish(t, f.db, result(d, webhooks.Delivered, later, 200), r)
		if got := f.delivery(t, d.DeliveryID); got.Status != "delivered" || got.Attempts != 1 {
			t.Errorf("delivered: %+v", got)
		}
		if ds := claim(t, f.db, later.Add(4*time.Second), 10); len(ds) != 0 {
			t.Errorf("claimed before its time: %d", len(ds))
		}
		ds = claim(t, f.db, later.Add(5*time.Second), 10)
		if len(ds) != 1 || ds[0].N != 2 || ds[0].FirstAt == nil || !ds[0].FirstAt.Equal(later) {
			t.Fatalf("retry claimed: %+v", ds)
		}
		var n int
		if err := f.db.db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM webhook_attempts").Scan(&n); err != nil || n != 2 {
			t.Errorf("%d attempts recorded, %v", n, err)
		}
	})
}

// TestDB_ClaimDeliveries_Lapsed: a claim its sender never finished goes
// back to pending for a webhook (sent again, same event) and becomes
// unknown for a chat channel (never twice); each keeps an attempt saying
// so. A late finish of the lost attempt changes nothing once another
// attempt has the delivery.
func TestDB_ClaimDeliveries_Lapsed(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		f := newWebhookFixture(t, open(t))
		f.endpoint(t, "ep-hook", webhooks.KindWebhook)
		f.endpoint(t, "ep-slack", webhooks.KindSlack)
		f.endpoint(t, "ep-teams", webhooks.KindTeams)
		ev := f.publish(t, "one")
		now := storetest.Now
		first := claim(t, f.db, now, 10)
		if len(first) != 3 {
			t.Fatalf("claimed %d", len(first))
		}
		if ds := claim(t, f.db, now.Add(59*time.Second), 10); len(ds) != 0 {
			t.Fatalf("claimed within the lease: %d", len(ds))
		}
		ds := claim(t, f.db, now.Add(61*time.Second), 10)
		if len(ds) != 1 || ds[0].Endpoint.Kind != webhooks.KindWebhook || ds[0].Event.ID != ev.ID || ds[0].N != 2 {
			t.Fatalf("after the lease: %+v", ds)
		}
		for _, d := range first {
			want := map[webhooks.Kind]string{webhooks.KindWebhook: "sending", webhooks.KindSlack: "unknown", webhooks.KindTeams: "unknown"}[d.Endpoint.Kind]
			if got := f.delivery(t, d.DeliveryID); got.Status != want {
				t.Errorf("%s: %s, want %s", d.Endpoint.Kind, got.Status, want)
			}
			var e string
			if err := f.db.db.QueryRowContext(t.Context(), "SELECT error FROM webhook_attempts WHERE delivery_id = ? AND n = 1", d.DeliveryID).Scan(&e); err != nil || e != lapsedError {
				t.Errorf("%s: attempt 1's error %q, %v", d.Endpoint.Kind, e, err)
			}
		}
		// the first sender comes back late: its attempt is recorded, the
		// delivery stays the second attempt's
		hook := first[slices.IndexFunc(first, func(d webhooks.Due) bool { return d.Endpoint.Kind == webhooks.KindWebhook })]
		finish(t, f.db, result(hook, webhooks.Delivered, now.Add(62*time.Second), 200))
		if got := f.delivery(t, hook.DeliveryID); got.Status != "sending" || got.Attempts != 2 {
			t.Errorf("after a late finish: %+v", got)
		}
		finish(t, f.db, result(ds[0], webhooks.Delivered, now.Add(63*time.Second), 200))
		if got := f.delivery(t, hook.DeliveryID); got.Status != "delivered" {
			t.Errorf("finished: %+v", got)
		}
	})
}

// TestDB_FinishDeliveries_Disable: failures for good count against the
// endpoint from the first attempt of the first; a success clears them;
// one that reaches back 24 h turns the endpoint off once, failing what
// waits for it; a 410 turns it off at once.
func TestDB_FinishDeliveries_Disable(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		f := newWebhookFixture(t, open(t))
		f.endpoint(t, "ep-hook", webhooks.KindWebhook)
		f.endpoint(t, "ep-gone", webhooks.KindSlack)
		now := storetest.Now
		step := func(at time.Time, key string, st webhooks.Status, code int) (webhooks.Due, []webhooks.Disabled) {
			t.Helper()
			f.db.now = func() time.Time { return at }
			f.publish(t, key)
			var hook webhooks.Due
			for _, d := range claim(t, f.db, at, 10) {
				if d.Endpoint.ID == "ep-hook" {
					hook = d
				} else {
					finish(t, f.db, result(d, webhooks.Delivered, at, 200))
				}
			}
			r := result(hook, st, at, code)
			r.FirstAt = at.Add(-14 * time.Hour)
			return hook, finish(t, f.db, r)
		}
		if _, ds := step(now, "a", webhooks.Failed, 500); len(ds) != 0 {
			t.Fatalf("disabled at the first failure: %+v", ds)
		}
		if en, n, _ := f.endpointState(t, "ep-hook"); !en || n != 1 {
			t.Errorf("after one failure: enabled %v, failures %d", en, n)
		}
		step(now.Add(time.Hour), "b", webhooks.Delivered, 200)
		if _, n, _ := f.endpointState(t, "ep-hook"); n != 0 {
			t.Errorf("a success left %d failures", n)
		}
		step(now.Add(2*time.Hour), "c", webhooks.Failed, 500) // failing since 2h-14h = -12h
		if _, ds := step(now.Add(11*time.Hour), "d", webhooks.Failed, 500); len(ds) != 0 {
			t.Fatalf("disabled after 23 h: %+v", ds)
		}
		// one waiting its retry, failed with the endpoint
		f.db.now = func() time.Time { return now.Add(11 * time.Hour) }
		f.publish(t, "waiting")
		for _, d := range claim(t, f.db, now.Add(11*time.Hour), 10) {
			r := result(d, webhooks.Pending, now.Add(11*time.Hour), 503)
			r.NextAttemptAt = now.Add(20 * time.Hour)
			finish(t, f.db, r)
		}
		_, ds := step(now.Add(12*time.Hour), "e", webhooks.Failed, 500)
		if len(ds) != 1 || ds[0].Endpoint.ID != "ep-hook" || ds[0].OrganisationName != "Asha <Payments>" || ds[0].Endpoint.Failures != 3 {
			t.Fatalf("disabled: %+v", ds)
		}
		if en, _, reason := f.endpointState(t, "ep-hook"); en || reason == "" {
			t.Errorf("after 24 h: enabled %v, reason %q", en, reason)
		}
		var waiting int
		if err := f.db.db.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM webhook_deliveries WHERE endpoint_id = 'ep-hook' AND status = 'pending'").Scan(&waiting); err != nil || waiting != 0 {
			t.Errorf("%d still waiting for a disabled endpoint, %v", waiting, err)
		}
		// a 410 turns the chat channel off at once
		f.db.now = func() time.Time { return now.Add(13 * time.Hour) }
		f.publish(t, "f")
		f.publish(t, "g")
		ds2 := claim(t, f.db, now.Add(13*time.Hour), 10)
		if len(ds2) != 2 {
			t.Fatalf("claimed %d for ep-gone", len(ds2))
		}
		r := result(ds2[0], webhooks.Failed, now.Add(13*time.Hour), 410)
		r.Gone = true
		r2 := r
		r2.DeliveryID, r2.Attempt.N = ds2[1].DeliveryID, ds2[1].N
		got := finish(t, f.db, r, r2)
		if len(got) != 1 || got[0].Endpoint.ID != "ep-gone" || got[0].Reason != "the endpoint answered 410 Gone" {
			t.Errorf("410: %+v", got)
		}
		// and nothing is claimed for them any more
		f.db.now = func() time.Time { return now.Add(14 * time.Hour) }
		f.publish(t, "h")
		if ds := claim(t, f.db, now.Add(30*time.Hour), 10); len(ds) != 0 {
			t.Errorf("claimed for disabled endpoints: %+v", ds)
		}
		to, err := f.db.DisabledRecipients(t.Context(), ds[0])
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]webhooks.Recipient{{Email: "asha@example.com", Name: "Asha Rao", Language: "en"}}, to); diff != "" {
			t.Errorf("recipients (-want +got):\n%s", diff)
		}
	})
}

// TestDB_ClaimDeliveries_Concurrent: senders claiming at once never take
// the same delivery, and together take all (SQLite in a file, several
// connections, as a server runs it).
func TestDB_ClaimDeliveries_Concurrent(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		var db *DB
		if open(t).Dialect() == "sqlite" {
			db = openAndClose(t, filepath.Join(t.TempDir(), "regpulse.db"), nil)
		} else {
			db = open(t)
		}
		f := newWebhookFixture(t, db)
		f.endpoint(t, "ep-1", webhooks.KindWebhook)
		f.endpoint(t, "ep-2", webhooks.KindSlack)
		const events = 150
		for i := range events {
			f.publish(t, fmt.Sprint(i))
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				for {
					ds, err := db.ClaimDeliveries(t.Context(), storetest.Now, time.Minute, 7)
					if err != nil {
						t.Error(err)
						return
					}
					if len(ds) == 0 {
						return
					}
					mu.Lock()
					for _, d := range ds {
						seen[d.DeliveryID]++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if len(seen) != 2*events {
			t.Errorf("claimed %d deliveries, want %d", len(seen), 2*events)
		}
		for id, n := range seen {
			if n != 1 {
				t.Errorf("%s claimed %d times", id, n)
			}
		}
	})
}

// TestDB_PruneWebhooks: events past the retention go with their
// deliveries and attempts; newer ones stay.
func TestDB_PruneWebhooks(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		f := newWebhookFixture(t, open(t))
		f.endpoint(t, "ep-hook", webhooks.KindWebhook)
		old := storetest.Now.AddDate(0, 0, -31)
		f.db.now = func() time.Time { return old }
		f.publish(t, "old")
		for _, d := range claim(t, f.db, old, 10) {
			finish(t, f.db, result(d, webhooks.Delivered, old, 200))
		}
		f.db.now = storetest.Clock
		f.publish(t, "new")
		n, err := f.db.PruneWebhooks(t.Context(), storetest.Now.AddDate(0, 0, -webhooks.RetentionDays))
		if err != nil || n != 1 {
			t.Fatalf("pruned %d, %v", n, err)
		}
		var events, deliveries, attempts int
		if err := f.db.db.QueryRowContext(t.Context(), `SELECT (SELECT COUNT(*) FROM webhook_events), (SELECT COUNT(*) FROM webhook_deliveries),
			(SELECT COUNT(*) FROM webhook_attempts)`).Scan(&events, &deliveries, &attempts); err != nil {
			t.Fatal(err)
		}
		if events != 1 || deliveries != 1 || attempts != 0 {
			t.Errorf("left %d events, %d deliveries, %d attempts", events, deliveries, attempts)
		}
	})
}
