package webhooks_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"regpulse/internal/auth"
	"regpulse/internal/mail"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/teams"
	"regpulse/internal/webhooks"
)

// clock is the tests' clock, moved by hand.
type clock struct {
	mu   sync.Mutex
	t    time.Time
	real bool // time.Now (the benchmark)
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.real {
		return time.Now()
	}
	return c.t
}
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }
func (c *clock) Add(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	return c.t
}

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var start = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// rig is a store in a file (its rows also reached by SQL, for the
// endpoints), an organisation with two admins and a member, a clock, a
// sender allowing loopback and an outbox of e-mails.
type rig struct {
	db     *store.DB
	sql    *sql.DB
	pg     bool // sql is PostgreSQL's: $1 placeholders
	orgID  string
	clock  *clock
	sender *webhooks.Sender
	outbox string
	mailer *webhooks.Mailer
}

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

func newRig(t testing.TB) *rig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "regpulse.db")
	return openRig(t, path, "sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)")
}

// newPostgresRig is newRig on a fresh PostgreSQL database.
func newPostgresRig(t testing.TB) *rig {
	t.Helper()
	tmpl := pgtest.Template(t, "webhooks_template", func(ctx context.Context, url string) error {
		db, err := store.Open(ctx, url)
		if err != nil {
			return err
		}
		return db.Close()
	})
	url := pgtest.From(t, tmpl)
	return openRig(t, url, "pgx", url)
}

func openRig(t testing.TB, target, driver, dsn string) *rig {
	t.Helper()
	ctx := context.Background()
	c := &clock{t: start}
	db, err := store.Open(ctx, target, store.WithNow(c.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	pg := driver == "pgx"
	bind := func(q string) string { return placeholders(q, pg) }
	user := func(name, first string) auth.User {
		u, err := db.CreateUser(ctx, auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "x", FirstName: first, LastName: "Rao"})
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	asha, ravi, meena := user("asha", "Asha"), user("ravi", "Ravi"), user("meena", "Meena")
	org, err := db.CreateOrganisation(ctx, teams.Actor{UserID: asha.ID}, "Asha Payments", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		id, role string
	}{{ravi.ID, teams.RoleAdmin}, {meena.ID, "member"}} {
		if _, err := raw.ExecContext(ctx, bind("INSERT INTO organisation_members (organisation_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)"),
			org.ID, m.id, m.role, start.Format(time.RFC3339Nano)); err != nil {
			t.Fatal(err)
		}
	}
	snd := webhooks.NewSender(webhooks.AddressPolicy{AllowLoopback: true}, nil)
	snd.Now = c.Now
	outbox := filepath.Join(t.TempDir(), "outbox")
	from, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	site, _ := mail.ParseSite("https://regpulse.example/")
	r := &rig{db: db, sql: raw, pg: pg, orgID: org.ID, clock: c, sender: snd, outbox: outbox,
		mailer: &webhooks.Mailer{Sender: from, Site: site, Now: c.Now, Transport: func() (mail.Transport, error) { return mail.Dir{Path: outbox}, nil }}}
	return r
}

// placeholders numbers q's ? for PostgreSQL.
func placeholders(q string, pg bool) string {
	if !pg {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// endpoint inserts an endpoint of kind at url wanting circular.published.
func (r *rig) endpoint(t testing.TB, id string, kind webhooks.Kind, url string) {
	t.Helper()
	now := r.clock.Now().Format(time.RFC3339Nano)
	if _, err := r.sql.Exec(placeholders(`INSERT INTO webhook_endpoints (id, organisation_id, kind, url, description, events, secret, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.pg), id, r.orgID, string(kind), url, "Our GRC feed", `["circular.published"]`, secret, now, now); err != nil {
		t.Fatal(err)
	}
}

func (r *rig) publish(t testing.TB, key string) webhooks.Event {
	t.Helper()
	ev, err := webhooks.NewEvent(webhooks.CircularPublished, r.orgID, "", key, map[string]string{"slug": key},
		webhooks.Card{Title: "Circular " + key, Regulator: "RBI", Context: "New circular"}, r.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.db.Publish(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func (r *rig) run(t testing.TB) webhooks.Report {
	t.Helper()
	rep, err := webhooks.Run(context.Background(), r.db, r.sender, webhooks.Options{Now: r.clock.Now, Notifier: r.mailer, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// deliveries are the endpoint's deliveries' statuses and attempts' codes.
func (r *rig) deliveries(t testing.TB, endpoint string) (statuses []string, codes []int) {
	t.Helper()
	rows, err := r.sql.Query(`SELECT d.status FROM webhook_deliveries d WHERE d.endpoint_id = ? ORDER BY d.created_at, d.id`, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		statuses = append(statuses, s)
	}
	rows.Close()
	rows, err = r.sql.Query(`SELECT a.status_code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.endpoint_id = ? ORDER BY d.created_at, d.id, a.n`, endpoint)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c int
		rows.Scan(&c)
		codes = append(codes, c)
	}
	return statuses, codes
}

func (r *rig) enabled(t testing.TB, endpoint string) (bool, string) {
	t.Helper()
	var on bool
	var reason string
	if err := r.sql.QueryRow("SELECT enabled, disabled_reason FROM webhook_endpoints WHERE id = ?", endpoint).Scan(&on, &reason); err != nil {
		t.Fatal(err)
	}
	return on, reason
}

func (r *rig) emails(t testing.TB) []string {
	t.Helper()
	es, err := os.ReadDir(r.outbox)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(r.outbox, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// receiver is a loopback receiver answering each request with the next
// of codes (the last repeated), verifying every signature with Verify at
// the rig's clock.
type receiver struct {
	*httptest.Server
	mu       sync.Mutex
	ids      []string
	bodies   []string
	problems []string
}

func newReceiver(t testing.TB, c *clock, codes ...int) *receiver {
	rc := &receiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if req.Header.Get("webhook-id") != "" {
			if err := webhooks.Verify(secret, req.Header, body, c.Now()); err != nil {
				rc.problems = append(rc.problems, err.Error())
			}
		}
		if ua := req.Header.Get("User-Agent"); ua != webhooks.UserAgent {
			rc.problems = append(rc.problems, "User-Agent "+ua)
		}
		code := codes[min(len(rc.ids), len(codes)-1)]
		rc.ids = append(rc.ids, req.Header.Get("webhook-id"))
		rc.bodies = append(rc.bodies, string(body))
		if code == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "120")
		}
		if code >= 300 && code < 400 {
			w.Header().Set("Location", "http://127.0.0.1:1/elsewhere")
		}
		w.WriteHeader(code)
		io.WriteString(w, strings.Repeat("answer ", 1000))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) got() (ids []string, problems []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.ids...), append([]string(nil), rc.problems...)
}

// TestRun_RetriedThenDelivered: a receiver failing once gets the event
// again after the schedule's 5 s, with the same webhook-id and a valid
// signature each time; both attempts are in the log.
func TestRun_RetriedThenDelivered(t *testing.T) {
	r := newRig(t)
	rc := newReceiver(t, r.clock, 500, 200)
	r.endpoint(t, "ep", webhooks.KindWebhook, rc.URL+"/hook")
	ev := r.publish(t, "one")
	if rep := r.run(t); rep.Retried != 1 || rep.Delivered != 0 {
		t.Fatalf("first run: %s", rep)
	}
	r.clock.Add(4 * time.Second)
	if rep := r.run(t); rep.Retried+rep.Delivered != 0 {
		t.Fatalf("run before the retry's time: %s", rep)
	}
	r.clock.Add(time.Second)
	if rep := r.run(t); rep.Delivered != 1 {
		t.Fatalf("retry run: %s", rep)
	}
	ids, problems := rc.got()
	if len(ids) != 2 || ids[0] != ev.ID || ids[1] != ev.ID || len(problems) != 0 {
		t.Errorf("receiver got ids %v, problems %v", ids, problems)
	}
	statuses, codes := r.deliveries(t, "ep")
	if strings.Join(statuses, ",") != "delivered" || len(codes) != 2 || codes[0] != 500 || codes[1] != 200 {
		t.Errorf("log: %v %v", statuses, codes)
	}
	var resp string
	if err := r.sql.QueryRow("SELECT response FROM webhook_attempts WHERE n = 1").Scan(&resp); err != nil || len(resp) != webhooks.ResponseKept {
		t.Errorf("response kept: %d bytes, %v", len(resp), err)
	}
}

// TestRun_FailedThenDisabled: a receiver always failing is tried on the
// schedule, 24 h in all; the delivery then fails for good and, its
// failures reaching back 24 h, the endpoint is turned off, its two
// admins e-mailed once, a later delivery still waiting failed with it.
func TestRun_FailedThenDisabled(t *testing.T) {
	r := newRig(t)
	rc := newReceiver(t, r.clock, 500)
	r.endpoint(t, "ep", webhooks.KindWebhook, rc.URL)
	one := r.publish(t, "one")
	last := len(webhooks.DefaultSchedule) - 1
	var rep webhooks.Report
	for i, d := range webhooks.DefaultSchedule {
		r.clock.Set(start.Add(d))
		if d == 10*time.Hour {
			r.publish(t, "two") // waiting when the endpoint is turned off
		}
		rep = r.run(t)
		if on, _ := r.enabled(t, "ep"); i < last && !on {
			t.Fatalf("turned off after %v", d)
		}
	}
	if len(rep.Disabled) != 1 {
		t.Fatalf("last run: %s", rep)
	}
	var attempts int
	if err := r.sql.QueryRow(`SELECT COUNT(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.event_id = ? AND a.status_code = 500`, one.ID).Scan(&attempts); err != nil || attempts != len(webhooks.DefaultSchedule) {
		t.Errorf("the first event's attempts: %d, %v", attempts, err)
	}
	if on, reason := r.enabled(t, "ep"); on || !strings.Contains(reason, "every delivery failed since 2 March 2026, 09:00 UTC") {
		t.Errorf("endpoint: on %v, reason %q", on, reason)
	}
	if statuses, _ := r.deliveries(t, "ep"); strings.Join(statuses, ",") != "failed,failed" {
		t.Errorf("deliveries: %v", statuses)
	}
	emails := r.emails(t)
	if len(emails) != 2 {
		t.Fatalf("%d e-mails", len(emails))
	}
	for _, e := range emails {
		if !strings.Contains(e, "Subject: A webhook endpoint of Asha Payments was turned off") || strings.Contains(e, "meena@") {
			t.Errorf("e-mail:\n%s", e)
		}
	}
	r.clock.Add(time.Hour)
	r.publish(t, "four")
	r.run(t)
	if n := len(r.emails(t)); n != 2 {
		t.Errorf("%d e-mails after another run", n)
	}
}

// TestRun_Gone: a 410 fails the delivery and turns the endpoint off at
// once, its admins told.
func TestRun_Gone(t *testing.T) {
	r := newRig(t)
	rc := newReceiver(t, r.clock, 410)
	r.endpoint(t, "ep", webhooks.KindSlack, rc.URL+"/services/T000/B000/XXXX")
	r.publish(t, "one")
	rep := r.run(t)
	if rep.Failed != 1 || len(rep.Disabled) != 1 {
		t.Fatalf("run: %s", rep)
	}
	if on, reason := r.enabled(t, "ep"); on || reason != "the endpoint answered 410 Gone" {
		t.Errorf("endpoint: on %v, reason %q", on, reason)
	}
	rc.mu.Lock()
	body, id := rc.bodies[0], rc.ids[0]
	rc.mu.Unlock()
	if !strings.Contains(body, `"blocks":[`) || !strings.Contains(body, `"text":"New circular: RBI: Circular one"`) || id != "" {
		t.Errorf("a Slack message: %s (webhook-id %q)", body, id)
	}
	emails := r.emails(t)
	if len(emails) != 2 || !strings.Contains(emails[0], "A Slack channel of Asha Payments was turned off") || strings.Contains(emails[0], "XXXX") {
		t.Errorf("e-mails: %v", emails)
	}
}

// TestRun_Lapsed: a sender that claimed and crashed: after the lease the
// webhook is sent again (same id), the Slack message is unknown and not
// sent.
func TestRun_Lapsed(t *testing.T) {
	r := newRig(t)
	hook := newReceiver(t, r.clock, 200)
	slack := newReceiver(t, r.clock, 200)
	r.endpoint(t, "ep-hook", webhooks.KindWebhook, hook.URL)
	r.endpoint(t, "ep-slack", webhooks.KindSlack, slack.URL)
	ev := r.publish(t, "one")
	if ds, err := r.db.ClaimDeliveries(context.Background(), r.clock.Now(), time.Minute, 10); err != nil || len(ds) != 2 {
		t.Fatalf("crashed claim: %d, %v", len(ds), err)
	}
	if rep := r.run(t); rep.Delivered != 0 {
		t.Fatalf("run within the lease: %s", rep)
	}
	r.clock.Add(61 * time.Second)
	if rep := r.run(t); rep.Delivered != 1 {
		t.Fatalf("run after the lease: %s", rep)
	}
	if ids, _ := hook.got(); len(ids) != 1 || ids[0] != ev.ID {
		t.Errorf("webhook receiver: %v", ids)
	}
	if ids, _ := slack.got(); len(ids) != 0 {
		t.Errorf("slack got %d", len(ids))
	}
	if statuses, _ := r.deliveries(t, "ep-slack"); strings.Join(statuses, ",") != "unknown" {
		t.Errorf("slack: %v", statuses)
	}
}

// TestRun_AddressRefused: in production (no loopback) a loopback
// receiver is never reached, whatever the URL says; the attempt says why
// and is retried.
func TestRun_AddressRefused(t *testing.T) {
	r := newRig(t)
	rc := newReceiver(t, r.clock, 200)
	r.sender = webhooks.NewSender(webhooks.AddressPolicy{}, nil)
	r.sender.Now = r.clock.Now
	r.endpoint(t, "ep-http", webhooks.KindWebhook, rc.URL)
	r.endpoint(t, "ep-https", webhooks.KindWebhook, strings.Replace(rc.URL, "http://", "https://", 1))
	r.endpoint(t, "ep-name", webhooks.KindWebhook, "https://localtest.me:1/")
	r.endpoint(t, "ep-private", webhooks.KindWebhook, "https://10.1.2.3/hook")
	r.endpoint(t, "ep-metadata", webhooks.KindSlack, "https://169.254.169.254/latest/meta-data")
	r.publish(t, "one")
	if rep := r.run(t); rep.Retried != 5 {
		t.Fatalf("run: %s", rep)
	}
	if ids, _ := rc.got(); len(ids) != 0 {
		t.Errorf("the loopback receiver got %d", len(ids))
	}
	var errs []string
	rows, err := r.sql.Query("SELECT error FROM webhook_attempts ORDER BY error")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var e string
		rows.Scan(&e)
		errs = append(errs, e)
	}
	for _, e := range errs {
		if !strings.Contains(e, "not allowed") && !strings.Contains(e, "https://") && !strings.Contains(e, "no such host") {
			t.Errorf("attempt error %q", e)
		}
	}
}

// TestSend_Answers: what each answer makes of an attempt.
func TestSend_Answers(t *testing.T) {
	for _, tc := range []struct {
		name string
		code int
		want webhooks.Status
		next time.Duration // after the attempt
	}{
		{"ok", 204, webhooks.Delivered, 0},
		{"redirect", 302, webhooks.Pending, 5 * time.Second},
		{"not found", 404, webhooks.Pending, 5 * time.Second},
		{"too many, retry after 2 min", 429, webhooks.Pending, 2 * time.Minute},
		{"gone", 410, webhooks.Failed, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &clock{t: start}
			rc := newReceiver(t, c, tc.code)
			s := webhooks.NewSender(webhooks.AddressPolicy{AllowLoopback: true}, nil)
			s.Now = c.Now
			ev, _ := webhooks.NewEvent(webhooks.CircularPublished, "o1", "", "k", map[string]int{"n": 1}, webhooks.Card{Title: "T"}, start)
			res := s.Send(context.Background(), webhooks.Due{DeliveryID: "d1", N: 1, Event: ev,
				Endpoint: webhooks.Endpoint{ID: "e1", Kind: webhooks.KindWebhook, URL: rc.URL, Secret: secret}})
			if res.Status != tc.want || res.Attempt.StatusCode != tc.code || (tc.next > 0 && !res.NextAttemptAt.Equal(start.Add(tc.next))) {
				t.Errorf("result %+v", res)
			}
			if res.Gone != (tc.code == 410) {
				t.Errorf("gone %v", res.Gone)
			}
			if ids, problems := rc.got(); len(ids) != 1 || len(problems) != 0 {
				t.Errorf("receiver: %v %v (a redirect is not followed)", ids, problems)
			}
		})
	}
}

// TestSchedule_Next: attempt n+1 at the schedule's time after the first;
// a Retry-After later within the schedule; none after the last.
func TestSchedule_Next(t *testing.T) {
	s := webhooks.DefaultSchedule
	first := start
	for _, tc := range []struct {
		name       string
		n          int
		at         time.Time
		retryAfter time.Duration
		want       time.Time
		ok         bool
	}{
		{"second", 1, first, 0, first.Add(5 * time.Second), true},
		{"third", 2, first.Add(5 * time.Second), 0, first.Add(5 * time.Minute), true},
		{"retry-after sooner", 2, first.Add(5 * time.Second), time.Second, first.Add(5 * time.Minute), true},
		{"retry-after later", 2, first.Add(5 * time.Second), time.Hour, first.Add(5*time.Second + time.Hour), true},
		{"retry-after past the schedule", 7, first.Add(10 * time.Hour), 30 * time.Hour, first.Add(24 * time.Hour), true},
		{"late attempt keeps the gap", 3, first.Add(time.Hour), 0, first.Add(time.Hour + 25*time.Minute), true},
		{"last", 8, first.Add(24 * time.Hour), 0, time.Time{}, false},
	} {
		got, ok := s.Next(tc.n, first, tc.at, tc.retryAfter)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("%s: %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if got := s.Scale(0.001)[7]; got != 24*time.Hour/1000 {
		t.Errorf("scaled: %v", got)
	}
}
