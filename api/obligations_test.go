package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"regpulse/internal/catalog"
	"regpulse/internal/obligations"
	"regpulse/internal/readcache"
	"regpulse/internal/register"
	"regpulse/internal/store/storetest"
)

func TestListObligations_Params(t *testing.T) {
	f := newFixture(t, storetest.Catalog())
	before, after := storetest.Date("2026-03-31"), storetest.Date("2025-01-01")
	for _, tc := range []struct {
		target string
		want   catalog.ObligationQuery
	}{
		{"/obligations", catalog.ObligationQuery{Page: catalog.Page{Limit: 50}}},
		{"/obligations?entityType=issuer&due_before=2026-03-31&due_after=2025-01-01&source=rbi&origin=Editor&binding=FALSE&limit=5&offset=10",
			catalog.ObligationQuery{EntityType: "Issuer", DueBefore: &before, DueAfter: &after, Source: "RBI", Origin: "editor", Binding: "false",
				Page: catalog.Page{Limit: 5, Offset: 10}}},
		{"/obligations?entityType=all&binding=all", catalog.ObligationQuery{Page: catalog.Page{Limit: 50}}},
		{"/obligations.csv?entityType=PSP", catalog.ObligationQuery{EntityType: "PSP"}},
	} {
		t.Run(tc.target, func(t *testing.T) {
			if res := f.get(t, tc.target); res.status != 200 {
				t.Fatalf("GET %s = %d %s", tc.target, res.status, res.body)
			}
			if diff := cmp.Diff(tc.want, f.store.obligations); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
	res := f.get(t, "/obligations?due_before=2026-3-31&entityType=Bank")
	e := wantError(t, res, 400, nil)
	if e.Fields["due_before"] != `"2026-3-31" is not a date (YYYY-MM-DD)` || !strings.Contains(e.Fields["entityType"], "unknown entityType") {
		t.Errorf("fields %v", e.Fields)
	}
}

// extracting is an extraction whose status is fixed.
type extracting obligations.ExtractionStatus

func (e extracting) Status() obligations.ExtractionStatus { return obligations.ExtractionStatus(e) }

// TestObligationExtraction: the server's extraction as it stands, never
// from the read cache; none where none runs.
func TestObligationExtraction(t *testing.T) {
	started := storetest.Now.Add(-time.Minute)
	running := extracting{Running: true, Done: 200, Total: 20000, StartedAt: &started}
	cache := readcache.New(16, time.Hour)
	for _, tc := range []struct {
		name string
		opts []Option
		want obligations.ExtractionStatus
	}{
		{"None", nil, obligations.ExtractionStatus{}},
		{"Running", []Option{WithExtraction(running), WithReadCache(cache)}, obligations.ExtractionStatus(running)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newFakeStore(storetest.Catalog())
			f := &fixture{store: s, api: New(s, discardLog, append([]Option{WithNow(storetest.Clock), cheapAuth}, tc.opts...)...)}
			for range 2 { // the second call is not a cached answer
				got := decode[obligations.ExtractionStatus](t, "/obligations/extraction", f.get(t, "/obligations/extraction"))
				if diff := cmp.Diff(tc.want, got, cmpopts.EquateApproxTime(time.Second)); diff != "" {
					t.Errorf("status (-want +got):\n%s", diff)
				}
			}
			etag := f.get(t, "/obligations/extraction").header.Get("ETag")
			if res := f.get(t, "/obligations/extraction", "If-None-Match", etag); res.status != http.StatusNotModified {
				t.Errorf("revalidated: %d, want 304", res.status)
			}
			wantError(t, f.get(t, "/obligations/extraction?running=1"), 400, nil)
		})
	}
	if n := cache.Len(); n != 0 {
		t.Errorf("%d answers in the read cache, want none", n)
	}
}

// registerFixture is the accounts fixture's API over the real content's
// obligations.
func registerFixture(t *testing.T) (*authFixture, *catalog.Catalog) {
	t.Helper()
	f := newAuthFixture(t, AuthConfig{})
	cat, err := catalog.Load("../content")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.SyncCatalog(t.Context(), cat); err != nil {
		t.Fatal(err)
	}
	return f, cat
}

// TestRegister_Calls drives the register through the API: a user's
// entity types choose what is in it; statuses and notes are theirs alone,
// recorded with their history; bad input changes nothing.
func TestRegister_Calls(t *testing.T) {
	f, cat := registerFixture(t)
	asha := f.signup(t, "asha")
	ravi := f.signup(t, "ravi")
	prefs := `{"circularSources":[],"impactLevels":[],"categories":[],"emailNotifications":true,"newsletterSubscription":false,"entityTypes":["Aggregator"]}`
	if res := f.call(t, "PUT", "/user/preferences", prefs, bearer(asha)...); res.status != 200 {
		t.Fatalf("preferences = %d %s", res.status, res.body)
	}
	list := func(token, query string) ([]register.Item, string) {
		t.Helper()
		res := f.call(t, "GET", "/user/obligations"+query, "", bearer(token)...)
		if res.status != 200 {
			t.Fatalf("register = %d %s", res.status, res.body)
		}
		var items []register.Item
		if err := json.Unmarshal(res.body, &items); err != nil {
			t.Fatal(err)
		}
		if cc := res.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("Cache-Control %q", cc)
		}
		return items, res.header.Get("X-Total-Count")
	}
	items, total := list(asha, "?limit=100")
	if len(items) == 0 || total == "0" {
		t.Fatal("an aggregator's register is empty")
	}
	var aggOnly, psp catalog.Obligation
	for _, c := range cat.Circulars {
		for _, o := range c.Obligations {
			if o.Binding && len(o.AppliesTo) == 1 && o.AppliesTo[0] == "Aggregator" && aggOnly.ID == "" {
				aggOnly = o
			}
			if o.Binding && len(o.AppliesTo) == 1 && o.AppliesTo[0] == "PSP" && psp.ID == "" {
				psp = o
			}
		}
	}
	for _, it := range items {
		if !it.Binding || !(it.AppliesToType("Aggregator")) || it.Status != register.StatusTodo {
			t.Errorf("register holds %+v", it.Obligation)
		}
	}

	put := func(token, id, body string, headers ...string) response {
		return f.call(t, "PUT", "/user/obligations/"+id, body, append(bearer(token), headers...)...)
	}
	res := put(asha, aggOnly.ID, `{"status":"done","note":"  Escrow opened.  "}`)
	var it register.Item
	if err := json.Unmarshal(res.body, &it); res.status != 200 || err != nil {
		t.Fatalf("PUT = %d %s", res.status, res.body)
	}
	if it.Status != "done" || it.Note != "Escrow opened." || it.StatusUpdatedAt == nil || it.ID != aggOnly.ID {
		t.Errorf("PUT answered %+v", it)
	}
	if res := put(asha, aggOnly.ID, `{"status":"in-progress","note":""}`); res.status != 200 {
		t.Fatalf("second PUT = %d %s", res.status, res.body)
	}

	t.Run("History", func(t *testing.T) {
		res := f.call(t, "GET", "/user/obligations/"+aggOnly.ID+"/history", "", bearer(asha)...)
		var hist []register.Change
		if err := json.Unmarshal(res.body, &hist); res.status != 200 || err != nil {
			t.Fatalf("history = %d %s", res.status, res.body)
		}
		want := []register.Change{{Status: "done", Note: "Escrow opened.", ChangedAt: storetest.Now}, {Status: "in-progress", ChangedAt: storetest.Now}}
		if diff := cmp.Diff(want, hist); diff != "" {
			t.Errorf("history (-want +got):\n%s", diff)
		}
		wantError(t, f.call(t, "GET", "/user/obligations/"+aggOnly.ID+"/history?x=1", "", bearer(asha)...), 400, nil)
	})

	t.Run("Filters", func(t *testing.T) {
		got, total := list(asha, "?status=in-progress")
		if len(got) != 1 || got[0].ID != aggOnly.ID || total != "1" {
			t.Errorf("status filter: %d items, total %s", len(got), total)
		}
		got, _ = list(asha, "?search="+strings.ToUpper(strings.Fields(aggOnly.What)[0])+"&limit=100")
		if len(got) == 0 {
			t.Error("search found nothing")
		}
		got, _ = list(asha, "?group=no-date&limit=100")
		for _, it := range got {
			if it.DueDate != nil || it.DueGroup != register.GroupNoDate {
				t.Errorf("no-date group holds %+v", it.Obligation)
			}
		}
		wantError(t, f.call(t, "GET", "/user/obligations?status=finished", "", bearer(asha)...), 400, nil)
	})

	t.Run("Score", func(t *testing.T) {
		put(asha, aggOnly.ID, `{"status":"not-applicable","note":"We are a bank."}`)
		res := f.call(t, "GET", "/user/compliance-score", "", bearer(asha)...)
		var s register.Score
		if err := json.Unmarshal(res.body, &s); res.status != 200 || err != nil {
			t.Fatalf("score = %d %s", res.status, res.body)
		}
		if s.Settled != 1 || s.Applicable != len(items) || s.Score == nil || *s.Score <= 0 || *s.Score >= 100 {
			t.Errorf("score %+v over %d obligations", s, len(items))
		}
		wantError(t, f.call(t, "GET", "/user/compliance-score?x=1", "", bearer(asha)...), 400, nil)
	})

	t.Run("CSV", func(t *testing.T) {
		res := f.call(t, "GET", "/user/obligations.csv", "", bearer(asha)...)
		if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") || res.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("CSV = %d %v", res.status, res.header)
		}
		lines := strings.Split(strings.TrimSuffix(string(res.body), "\r\n"), "\r\n")
		if !strings.HasSuffix(lines[0], ",dueGroup,status,note,statusUpdatedAt") || len(lines) != len(items)+1 {
			t.Errorf("CSV: %d lines, header %q", len(lines), lines[0])
		}
		if !strings.Contains(string(res.body), "not-applicable,We are a bank.") {
			t.Error("the CSV lacks the status and note set")
		}
		wantError(t, f.call(t, "GET", "/user/obligations.csv?limit=5", "", bearer(asha)...), 400, nil)
	})

	t.Run("OthersAndBadInput", func(t *testing.T) {
		// Another user's register is theirs: ravi (no entity type) sees
		// the obligation as todo if at all, and cannot reach one that is
		// not in his register.
		got, _ := list(ravi, "?limit=100")
		for _, it := range got {
			if it.Status != register.StatusTodo || it.Note != "" {
				t.Errorf("ravi sees asha's status: %+v", it)
			}
		}
		wantError(t, put(ravi, aggOnly.ID, `{"status":"done","note":""}`), 404, nil)
		wantError(t, f.call(t, "GET", "/user/obligations/"+aggOnly.ID+"/history", "", bearer(ravi)...), 404, nil)
		wantError(t, put(asha, psp.ID, `{"status":"done","note":""}`), 404, nil)
		wantError(t, put(asha, "00000000-0000-4000-8000-000000000000", `{"status":"done","note":""}`), 404, nil)

		for _, tc := range []struct {
			name, body string
			status     int
			fields     map[string]string
		}{
			{"ErrStatus", `{"status":"finished","note":""}`, 400, map[string]string{"status": "must be one of: todo, in-progress, done, not-applicable"}},
			{"ErrNoteTooLong", `{"status":"done","note":"` + strings.Repeat("a", register.MaxNote+1) + `"}`, 400, map[string]string{"note": "Note too long"}},
			{"ErrUnknownField", `{"status":"done","note":"","due":"never"}`, 400, nil},
			{"ErrTooLarge", `{"status":"done","note":"` + strings.Repeat("a", 17<<10) + `"}`, 413, nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				wantError(t, put(asha, aggOnly.ID, tc.body), tc.status, tc.fields)
			})
		}
		wantError(t, f.call(t, "PUT", "/user/obligations/"+aggOnly.ID, `{"status":"done"}`, append(bearer(asha), "Content-Type", "text/plain")...), 415, nil)
		wantError(t, f.call(t, "PUT", "/user/obligations/"+aggOnly.ID, `{"status":"done","note":""}`), 401, nil)
		wantError(t, f.call(t, "GET", "/user/obligations", ""), 401, nil)
		wantError(t, f.call(t, "GET", "/user/obligations.csv", ""), 401, nil)
		wantError(t, f.call(t, "GET", "/user/compliance-score", ""), 401, nil)
		wantError(t, f.call(t, "GET", "/user/obligations/"+aggOnly.ID+"/history", ""), 401, nil)
		// Nothing refused was recorded.
		hist, err := f.db.ObligationHistory(t.Context(), userID(t, f, "asha"), aggOnly.ID, []string{"Aggregator"})
		if err != nil || len(hist) != 3 {
			t.Errorf("history after refusals: %d changes, %v; want 3", len(hist), err)
		}
	})
	if res := f.call(t, "GET", "/user/obligations", "", bearer(asha)...); res.status != http.StatusOK {
		t.Errorf("register after all = %d", res.status)
	}
}

// TestRegister_ConfirmInForce: a new user's register holds what fell due
// before it began tracking as in force, not overdue, and confirms it all
// in one call, once.
func TestRegister_ConfirmInForce(t *testing.T) {
	f, _ := registerFixture(t)
	chen := f.signup(t, "chen")
	inForce := func() []register.Item {
		t.Helper()
		res := f.call(t, "GET", "/user/obligations?group=in-force&limit=100", "", bearer(chen)...)
		var items []register.Item
		if err := json.Unmarshal(res.body, &items); res.status != 200 || err != nil {
			t.Fatalf("in force = %d %s", res.status, res.body)
		}
		return items
	}
	before := inForce()
	if len(before) == 0 {
		t.Fatal("a new user's register has nothing in force: the fixture needs obligations due before today")
	}
	res := f.call(t, "GET", "/user/obligations?group=overdue", "", bearer(chen)...)
	if res.status != 200 || strings.TrimSpace(string(res.body)) != "[]" {
		t.Errorf("a new user's overdue = %d %s, want none", res.status, res.body)
	}
	confirm := func(body string) response {
		return f.call(t, "POST", "/user/obligations/confirm", body, bearer(chen)...)
	}
	res = confirm(`{"note":""}`)
	var got ConfirmInForceResponse
	if err := json.Unmarshal(res.body, &got); res.status != 200 || err != nil || got.Confirmed != len(before) {
		t.Fatalf("confirm = %d %s, want %d confirmed", res.status, res.body, len(before))
	}
	for _, it := range inForce() {
		if it.Status != register.StatusDone || it.Note != register.ConfirmNote {
			t.Errorf("%s after confirming: %s, %q", it.ID, it.Status, it.Note)
		}
	}
	if res := confirm(`{"note":"again"}`); res.status != 200 || !strings.Contains(string(res.body), `"confirmed":0`) {
		t.Errorf("a second confirmation = %d %s, want 0 confirmed", res.status, res.body)
	}
	for _, tc := range []struct {
		name, body string
		status     int
		fields     map[string]string
	}{
		{"ErrNoteTooLong", `{"note":"` + strings.Repeat("a", register.MaxNote+1) + `"}`, 400, map[string]string{"note": "Note too long"}},
		{"ErrUnknownField", `{"note":"","all":true}`, 400, nil},
		{"ErrTooLarge", `{"note":"` + strings.Repeat("a", 17<<10) + `"}`, 413, nil},
	} {
		t.Run(tc.name, func(t *testing.T) { wantError(t, confirm(tc.body), tc.status, tc.fields) })
	}
	wantError(t, f.call(t, "POST", "/user/obligations/confirm", `{"note":""}`, append(bearer(chen), "Content-Type", "text/plain")...), 415, nil)
	wantError(t, f.call(t, "POST", "/user/obligations/confirm", `{"note":""}`), 401, nil)
}

func userID(t *testing.T, f *authFixture, username string) string {
	t.Helper()
	u, err := f.db.UserByUsername(t.Context(), username)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}
