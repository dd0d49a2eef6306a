package main

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"regpulse/internal/store"
)

// TestServe_KilledLosesNothing kills `regpulse serve` on SQLite with
// SIGKILL while 1,000 newsletter sign-ups and account sign-ups are in
// flight, starts it again on the same folder, and finds every write it
// acknowledged (a 2xx answer) stored.
func TestServe_KilledLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server twice")
	}
	data := t.TempDir()
	first := startServe(t, "--data", data, "--database-url", "")
	waitReady(t, first)

	const writes, workers = 1000, 48
	var (
		mu                  sync.Mutex
		subscribed, members []string
		acked, next         atomic.Int32
		killed              sync.Once
		wg                  sync.WaitGroup
	)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= writes {
					return
				}
				// a client address each: the limits are not under test
				ip := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
				var code int
				var err error
				name := fmt.Sprintf("durable%04d", i)
				if i%2 == 0 {
					code, err = callWith(client, first.url+"/api/newsletter/subscribe", fmt.Sprintf(`{"email":"%s@news.example"}`, name), ip)
				} else {
					code, err = callWith(client, first.url+"/api/auth/signup", signupJSON(name), ip)
				}
				if err != nil || code >= 300 {
					continue // not acknowledged: may or may not be stored
				}
				mu.Lock()
				if i%2 == 0 {
					subscribed = append(subscribed, name+"@news.example")
				} else {
					members = append(members, name)
				}
				mu.Unlock()
				if acked.Add(1) == writes/3 {
					killed.Do(func() { first.cmd.Process.Signal(syscall.SIGKILL) })
				}
			}
		})
	}
	wg.Wait()
	<-first.done
	if n := acked.Load(); n < writes/3 || n == writes {
		t.Fatalf("%d of %d writes acknowledged: the kill was not in the middle", n, writes)
	}

	second := startServe(t, "--data", data, "--database-url", "")
	waitReady(t, second)
	db, err := store.Open(t.Context(), filepath.Join(data, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users, err := db.ListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var stored []string
	for _, u := range users {
		stored = append(stored, u.Username)
	}
	for _, m := range members {
		if !slices.Contains(stored, m) {
			t.Errorf("acknowledged sign-up %s lost", m)
		}
	}
	subs, err := db.ActiveSubscribers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, s := range subs {
		emails = append(emails, s.Email)
	}
	for _, email := range subscribed {
		if !slices.Contains(emails, email) {
			t.Errorf("acknowledged subscription %s lost", email)
		}
	}
	t.Logf("%d sign-ups and %d subscriptions acknowledged before SIGKILL, all found after the restart", len(members), len(subscribed))
}

// callWith POSTs body as JSON from the client address ip (through the
// trusted loopback proxy's X-Forwarded-For).
func callWith(client *http.Client, url, body, ip string) (int, error) {
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}
