package main

import (
	"context"
	"database/sql"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/store"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// TestServe_Webhooks: serve's own loop (--webhooks-every, with loopback
// allowed and the schedule shortened as e2e's server runs it) sends an
// event published before it started, signed, and retries a 500 with the
// same webhook-id.
func TestServe_Webhooks(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	var mu sync.Mutex
	var ids []string
	var bad int
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if webhooks.Verify(secret, r.Header, body, time.Now()) != nil {
			bad++
		}
		ids = append(ids, r.Header.Get("webhook-id"))
		if len(ids) == 1 {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer rc.Close()

	data := t.TempDir()
	path := filepath.Join(data, "regpulse.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	u, err := db.CreateUser(ctx, auth.NewUser{Username: "asha", Email: "asha@example.com", PasswordHash: "x", FirstName: "Asha"})
	if err != nil {
		t.Fatal(err)
	}
	org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: u.ID}, "Asha Payments", nil)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC().Format(time.RFC3339Nano)
	if _, err := raw.Exec(`INSERT INTO webhook_endpoints (id, organisation_id, kind, url, events, secret, created_at, updated_at)
		VALUES ('ep', ?, 'webhook', ?, '["circular.published"]', ?, ?, ?)`, org.ID, rc.URL+"/hook", secret, now, now); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	ev, err := webhooks.NewEvent(webhooks.CircularPublished, org.ID, "", "k", map[string]string{"slug": "x"}, webhooks.Card{Title: "X"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if n, err := db.Publish(ctx, ev); err != nil || n != 1 {
		t.Fatalf("published to %d, %v", n, err)
	}
	db.Close()

	in := startServe(t, "--data", data, "--webhooks-allow-loopback", "--webhooks-every", "200ms", "--webhooks-retry-scale", "0.001")
	deadline := time.Now().Add(90 * time.Second)
	for {
		mu.Lock()
		got := append([]string(nil), ids...)
		mu.Unlock()
		if len(got) >= 2 {
			if len(got) != 2 || got[0] != ev.ID || got[1] != ev.ID || bad != 0 {
				t.Errorf("receiver got %v (%d bad signatures)", got, bad)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver got %v; server's log:\n%s", got, in.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
