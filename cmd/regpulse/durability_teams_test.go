package main

import (
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"regpulse/internal/decisions"
	"regpulse/internal/store"
)

// TestServe_KilledDuringDecisions kills `regpulse serve` on SQLite with
// SIGKILL while members decide on circulars and comment, starts it again
// on the same folder, and requires what the issue asks of the audit
// trail: `regpulse audit verify` passes, and every decision acknowledged
// (a 2xx answer) is stored with its audit row.
func TestServe_KilledDuringDecisions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server twice")
	}
	data := t.TempDir()
	first := startServe(t, "--data", data, "--database-url", "")
	waitReady(t, first)
	ctx := t.Context()

	var tok struct{ Token string }
	if code, err := call(ctx, "POST", first.url+"/api/auth/signup", signupJSON("killadmin"), &tok); err != nil || code != 201 {
		t.Fatalf("signup: %d %v", code, err)
	}
	bearer := []string{"Authorization", "Bearer " + tok.Token}
	var org struct{ ID string }
	if code, err := call(ctx, "POST", first.url+"/api/organisations", `{"name":"Kill Test Payments","entityTypes":["PSP"]}`, &org, bearer...); err != nil || code != 201 {
		t.Fatalf("create organisation: %d %v", code, err)
	}
	var circulars []struct{ ID string }
	if code, err := call(ctx, "GET", first.url+"/api/circulars?limit=100", "", &circulars); err != nil || code != 200 || len(circulars) < 40 {
		t.Fatalf("circulars: %d (%d)", code, len(circulars))
	}

	// Each circular gets a decision (version 0: new), then a comment;
	// workers take circulars one by one until the kill.
	const workers = 16
	var (
		mu      sync.Mutex
		decided []string
		acked   atomic.Int32
		next    atomic.Int32
		killed  sync.Once
		wg      sync.WaitGroup
	)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: workers}}
	do := func(method, target, body string) (int, error) {
		req, err := http.NewRequest(method, target, strings.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(bearer[0], bearer[1])
		res, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		res.Body.Close()
		return res.StatusCode, nil
	}
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(circulars) {
					return
				}
				id := circulars[i].ID
				q := first.url + "/api/organisations/" + org.ID + "/decision?type=circular&subject=" + url.QueryEscape(id)
				code, err := do("PUT", q, `{"applicability":"applicable","status":"assessing","due":"2027-03-31","version":0}`)
				if err != nil || code >= 300 {
					continue
				}
				mu.Lock()
				decided = append(decided, id)
				mu.Unlock()
				do("POST", strings.Replace(q, "/decision?", "/decision/comments?", 1), fmt.Sprintf(`{"body":"assessing circular %d"}`, i))
				if acked.Add(1) == int32(len(circulars)/3) {
					killed.Do(func() { first.cmd.Process.Signal(syscall.SIGKILL) })
				}
			}
		})
	}
	wg.Wait()
	<-first.done
	if n := int(acked.Load()); n < len(circulars)/3 || n == len(circulars) {
		t.Fatalf("%d of %d decisions acknowledged: the kill was not in the middle", n, len(circulars))
	}

	second := startServe(t, "--data", data, "--database-url", "")
	waitReady(t, second)
	out, _, err := runCmd(t, "audit", "verify", "--data", data, "--database-url", "")
	if err != nil || !strings.Contains(out, "rows OK") {
		t.Fatalf("audit verify after the kill: %v\n%s", err, out)
	}
	db, err := store.Open(ctx, filepath.Join(data, "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, id := range decided {
		s := decisions.Subject{Type: decisions.SubjectCircular, ID: id}
		if _, err := db.Decision(ctx, org.ID, s); err != nil {
			t.Errorf("acknowledged decision on %s: %v", id, err)
			continue
		}
		rows, err := db.AuditSubject(ctx, org.ID, "decision", s.String())
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 0 {
			t.Errorf("acknowledged decision on %s has no audit row", id)
		}
	}
	t.Logf("%d decisions acknowledged before SIGKILL, each stored with its audit row; %s", len(decided), strings.TrimSpace(out))
}
