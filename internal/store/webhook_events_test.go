package store

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// TestDB_Publish: an event reaches each enabled endpoint of its
// organisation that wants its type, once, however often it is published.
func TestDB_Publish(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open opener) {
		db := open(t)
		ctx := t.Context()
		admin := mustCreate(t, db, newUser("asha", "asha@example.com"))
		org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Acme Payments", []string{})
		if err != nil {
			t.Fatal(err)
		}
		other, err := db.CreateOrganisation(ctx, teams.Actor{UserID: admin.ID}, "Other", []string{})
		if err != nil {
			t.Fatal(err)
		}
		now := timeText(time.Now())
		for _, e := range []struct {
			id, org, events string
			enabled         bool
		}{
			{"e-all", org.ID, `["circular.published","decision.changed"]`, true},
			{"e-decisions", org.ID, `["decision.changed"]`, true},
			{"e-off", org.ID, `["circular.published"]`, false},
			{"e-other", other.ID, `["circular.published"]`, true},
		} {
			if _, err := db.db.ExecContext(ctx, `INSERT INTO webhook_endpoints (id, organisation_id, kind, url, events, enabled, created_at, updated_at)
				VALUES (?, ?, 'webhook', 'https://hooks.example.com/x', ?, ?, ?, ?)`, e.id, e.org, e.events, e.enabled, now, now); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := webhooks.NewEvent(webhooks.CircularPublished, org.ID, "", "circular-1", map[string]string{"slug": "x"}, webhooks.Card{Title: "X"}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []int{1, 0} { // published again: nothing more
			n, err := db.Publish(ctx, ev)
			if err != nil || n != want {
				t.Fatalf("Publish #%d = %d, %v; want %d", i+1, n, err, want)
			}
		}
		var got []string
		rows, err := db.db.QueryContext(ctx, `SELECT endpoint_id FROM webhook_deliveries WHERE event_id = ? AND status = 'pending' ORDER BY endpoint_id`, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got = append(got, id)
		}
		rows.Close()
		if diff := cmp.Diff([]string{"e-all"}, got); diff != "" {
			t.Errorf("deliveries (-want +got):\n%s", diff)
		}
		var payload string
		if err := db.db.QueryRowContext(ctx, `SELECT payload FROM webhook_events WHERE id = ?`, ev.ID).Scan(&payload); err != nil {
			t.Fatal(err)
		}
		want, _ := ev.Payload()
		if payload != string(want) {
			t.Errorf("stored payload %s, want %s", payload, want)
		}
	})
}
