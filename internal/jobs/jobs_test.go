package jobs

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"regpulse/internal/ingest"
	"regpulse/internal/newsletter"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

const secret = "jobs-test-secret-jobs-test-secret-jobs-test"

// fnEnv is a function's environment: the store, no data folder.
func fnEnv(t *testing.T, now time.Time) Env {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "regpulse.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	vars := map[string]string{"REGPULSE_JWT_SECRET": secret}
	return Env{DB: db, Holder: "test", Getenv: func(k string) string { return vars[k] }, Log: slog.New(slog.DiscardHandler),
		Now: func() time.Time { return now }, BaseURL: "https://regpulse.example/"}
}

func TestAll(t *testing.T) {
	seen := map[string]bool{}
	for _, j := range All() {
		if j.Name == "" || j.Schedule == "" || j.Run == nil || seen[j.Name] {
			t.Errorf("job %+v: a name (once), a schedule and a run, each", j)
		}
		seen[j.Name] = true
		if got, ok := Lookup(j.Name); !ok || got.Name != j.Name {
			t.Errorf("Lookup(%q) = %v, %v", j.Name, got.Name, ok)
		}
	}
	for _, name := range []string{"ingest", "alerts", "digest", "webhooks", "rebuild"} {
		if !seen[name] {
			t.Errorf("no %s job", name)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup found a job that is not")
	}
}

// TestDigest_FromStore: as a function (no content folder, no data
// folder), the digest is chosen from the store and sent once on the
// first day; the other days, and the later ticks of the first, skip.
func TestDigest_FromStore(t *testing.T) {
	first := time.Date(2025, 7, 1, 9, 0, 0, 0, time.UTC)
	env := fnEnv(t, first)
	ctx := t.Context()
	if _, err := env.DB.(*store.DB).SyncCatalog(ctx, storetest.Catalog()); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.DB.(*store.DB).Subscribe(ctx, newsletter.Signup{Email: "reader@example.com"}); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrNoWayOut", func(t *testing.T) {
		env := env
		env.Holder = "no-smtp"
		env.Now = func() time.Time { return first.AddDate(1, 0, 0) } // another month: its lock apart
		if _, err := Digest(ctx, env); !errors.Is(err, errNoWayOut) {
			t.Errorf("without SMTP_URL or a folder: %v, want %v", err, errNoWayOut)
		}
	})
	out := t.TempDir()
	env.Mail.Out = out
	steps := []struct {
		name string
		now  time.Time
		want string
	}{
		{"NotTheFirst", first.AddDate(0, 0, 1), "digest: skipped: not the first day of the month (UTC)"},
		{"Sent", first, "digest 2025-06: 1 sent, 0 already sent (skipped), 0 failed"},
		{"LaterTick", first.Add(time.Hour), "digest 2025-06: skipped: sent already, or being sent by another process"},
	}
	for _, st := range steps {
		env.Now = func() time.Time { return st.now }
		res, err := Digest(ctx, env)
		if err != nil || res.String() != st.want {
			t.Errorf("%s: %v, %v; want %q", st.name, res, err, st.want)
		}
	}
	emls, _ := filepath.Glob(filepath.Join(out, "*.eml"))
	if len(emls) != 1 {
		t.Fatalf("%d e-mails, want 1", len(emls))
	}
	b, _ := os.ReadFile(emls[0])
	if !strings.Contains(string(b), "UPI fraud risk controls") { // a circular of June, from the store
		t.Errorf("the digest names none of June's circulars:\n%.2000s", b)
	}
}

// TestIngest_Budget: a run stops at its budget and says so; the lock is
// released for the next tick; with neither a content folder nor the
// store's queue it refuses.
func TestIngest_Budget(t *testing.T) {
	env := fnEnv(t, time.Now())
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	defer slow.Close()
	env.Ingest = IngestEnv{Feeds: func() ([]ingest.Feed, error) {
		return []ingest.Feed{{Name: "slow", URL: slow.URL, Source: "RBI"}}, nil
	}, Budget: 200 * time.Millisecond, Timeout: time.Minute}
	if _, err := Ingest(t.Context(), env); !errors.Is(err, errNoContent) {
		t.Errorf("no content folder: %v, want %v", err, errNoContent)
	}
	env.Content = t.TempDir()
	res, err := Ingest(t.Context(), env)
	if !res.BudgetSpent || !strings.Contains(res.String(), "budget of 200ms spent") || err == nil {
		t.Errorf("= %q, %v; want the budget spent", res, err)
	}
	ok, _, _, err := env.DB.ClaimJobRun(context.Background(), ingestJob, ingestRunKey, "next", time.Minute)
	if !ok || err != nil {
		t.Errorf("the lock after the run: %v, %v; want it released", ok, err)
	}
}

// TestOperator: with $REGPULSE_OPERATOR_EMAIL set, what ingest tells the
// operator is an e-mail to it (an .eml file without SMTP_URL); unset, no
// operator.
func TestOperator(t *testing.T) {
	env := fnEnv(t, time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC))
	if op, err := env.Operator(); op != nil || err != nil {
		t.Errorf("an operator without %s: %v, %v", OperatorEmailEnv, op, err)
	}
	env.Getenv = func(k string) string { return map[string]string{OperatorEmailEnv: "ops@example.com"}[k] }
	env.Mail.Out = t.TempDir()
	op, err := env.Operator()
	if err != nil {
		t.Fatal(err)
	}
	if err := op.Tell(t.Context(), "RegPulse: source fixture is stale", "No successful poll of fixture for 24 hours."); err != nil {
		t.Fatal(err)
	}
	emls, _ := filepath.Glob(filepath.Join(env.Mail.Out, "operator", "*.eml"))
	if len(emls) != 1 {
		t.Fatalf("%d e-mails, want 1", len(emls))
	}
	b, _ := os.ReadFile(emls[0])
	for _, want := range []string{"To: <ops@example.com>", "Subject: RegPulse: source fixture is stale", "No successful poll of fixture"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, b)
		}
	}
}
