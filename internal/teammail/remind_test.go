package teammail_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/decisions"
	"regpulse/internal/mail"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/store"
	"regpulse/internal/store/pgtest"
	"regpulse/internal/store/storetest"
	"regpulse/internal/teammail"
	"regpulse/internal/teams"
)

// fixture is a store holding the storetest catalog, an organisation, a
// clock the test moves and the loopback SMTP server.
type fixture struct {
	t    *testing.T
	db   *store.DB
	mu   sync.Mutex
	now  time.Time
	mail *smtptest.Server
	org  teams.Organisation
	by   teams.Actor
}

// forEachStore runs f on SQLite and on PostgreSQL.
func forEachStore(t *testing.T, f func(t *testing.T, open func(opts ...store.Option) *store.DB)) {
	t.Run("sqlite", func(t *testing.T) {
		t.Parallel()
		f(t, func(opts ...store.Option) *store.DB {
			return openStore(t, filepath.Join(t.TempDir(), "regpulse.db"), opts)
		})
	})
	t.Run("postgres", func(t *testing.T) {
		t.Parallel()
		tmpl := pgtest.Template(t, "teammail_template", func(ctx context.Context, url string) error {
			db, err := store.Open(ctx, url)
			if err != nil {
				return err
			}
			return db.Close()
		})
		f(t, func(opts ...store.Option) *store.DB { return openStore(t, pgtest.From(t, tmpl), opts) })
	})
}

func openStore(t *testing.T, target string, opts []store.Option) *store.DB {
	db, err := store.Open(t.Context(), target, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newFixture(t *testing.T, open func(opts ...store.Option) *store.DB, reject ...string) *fixture {
	t.Helper()
	f := &fixture{t: t, now: storetest.Now}
	f.db = open(store.WithNow(f.clock))
	if _, err := f.db.SyncCatalog(t.Context(), storetest.Catalog()); err != nil {
		t.Fatal(err)
	}
	f.mail = smtptest.Start(t, reject...)
	admin := f.user("asha", true)
	org, err := f.db.CreateOrganisation(t.Context(), teams.Actor{UserID: admin.ID}, "Asha Payments", nil)
	if err != nil {
		t.Fatal(err)
	}
	f.org, f.by = org, teams.Actor{UserID: admin.ID, OrganisationID: org.ID}
	return f
}

func (f *fixture) clock() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }

func (f *fixture) at(s string) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		f.t.Fatal(err)
	}
	f.mu.Lock()
	f.now = t
	f.mu.Unlock()
}

// user signs name up with reminders on or off.
func (f *fixture) user(name string, reminders bool) auth.User {
	f.t.Helper()
	u, err := f.db.CreateUser(f.t.Context(), auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "x", FirstName: name, LastName: "T"})
	if err != nil {
		f.t.Fatal(err)
	}
	c := auth.DefaultChoices()
	c.ReminderEmails = reminders
	if _, err := f.db.SavePreferences(f.t.Context(), u.ID, c); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// member signs name up and makes them a member of the organisation.
func (f *fixture) member(name string, reminders bool) auth.User {
	f.t.Helper()
	u := f.user(name, reminders)
	inv := teams.NewInvite(f.by, u.Email, teams.RoleMember, nil, f.clock())
	if _, err := f.db.CreateInvite(f.t.Context(), f.by, inv, teams.TokenHash("t-"+inv.ID)); err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.db.AcceptInvite(f.t.Context(), teams.Actor{UserID: u.ID, OrganisationID: f.org.ID}, inv.ID); err != nil {
		f.t.Fatal(err)
	}
	return u
}

// decide records the organisation's decision on the circular slug,
// owned by owner, due on due.
func (f *fixture) decide(slug string, owner auth.User, due string) {
	f.t.Helper()
	d := storetest.Date(due)
	if _, err := f.db.PutDecision(f.t.Context(), f.by, decisions.Decision{Subject: decisions.Subject{Type: decisions.SubjectCircular,
		ID: catalog.IDForPath("circulars/" + slug + ".md")}, Applicability: decisions.Applicable, OwnerID: catalog.OptString(owner.ID), DueDate: &d}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) run(ctx context.Context, holder string, wrap func(mail.Transport) mail.Transport) (teammail.Report, error) {
	snd, _ := mail.NewSender("RegPulse <alerts@regpulse.example>", "")
	smtp, err := mail.NewSMTP(f.mail.URL())
	if err != nil {
		f.t.Fatal(err)
	}
	var tr mail.Transport = smtp
	if wrap != nil {
		tr = wrap(smtp)
	}
	defer tr.Close()
	return teammail.Remind(ctx, f.db, tr, teammail.Options{Site: site, Sender: snd, Holder: holder, Now: f.clock})
}

func (f *fixture) runOK(holder string) teammail.Report {
	f.t.Helper()
	rep, err := f.run(f.t.Context(), holder, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return rep
}

// got is the subjects of the e-mails each address received.
func (f *fixture) got() map[string][]string {
	out := map[string][]string{}
	for to, ms := range f.mail.Received() {
		for _, m := range ms {
			_, rest, _ := strings.Cut(string(m), "\r\nSubject: ")
			subject, _, _ := strings.Cut(rest, "\r\n")
			out[to] = append(out[to], subject)
		}
	}
	return out
}

// TestRemind: from 07:00 UTC, once a day, each member with something
// due gets one e-mail of what is due within 7 days and what is overdue;
// each decision is reminded once as due soon and once as overdue,
// across reruns and days; nothing before 07:00, nothing for a member
// with nothing due or reminders off; a refused address is retried the
// next day and counted, as the alerts' are.
func TestRemind(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open func(...store.Option) *store.DB) {
		f := newFixture(t, open, "bounce@example.com")
		ravi, meera, vik, bounce := f.member("ravi", true), f.member("meera", false), f.member("vik", true), f.member("bounce", true)
		f.decide(storetest.SlugUPIFraud, ravi, "2025-07-03")    // due soon on 30 June, overdue from 4 July
		f.decide(storetest.SlugUPILite, ravi, "2025-06-28")     // overdue
		f.decide(storetest.SlugCyber, meera, "2025-07-01")      // reminders off
		f.decide(storetest.SlugTokenisation, vik, "2025-08-30") // not due yet
		f.decide(storetest.SlugBimaSugam, bounce, "2025-07-02") // refused

		f.at("2025-06-30T06:59:00Z")
		if rep := f.runOK("a"); rep.Sent+rep.Failed != 0 || len(f.got()) != 0 {
			t.Fatalf("before 07:00: %+v", rep)
		}
		f.at("2025-06-30T07:30:00Z")
		if rep := f.runOK("a"); rep.Sent != 1 || rep.Failed != 1 || rep.Failures["bounce@example.com"] == "" {
			t.Errorf("the first run: %v %v", rep, rep.Failures)
		}
		got := f.got()
		if len(got) != 1 || len(got[ravi.Email]) != 1 || got[ravi.Email][0] != "RegPulse reminder: 1 overdue, 1 due within 7 days" {
			t.Fatalf("sent: %v", got)
		}
		body := string(f.mail.Received()[ravi.Email][0])
		for _, want := range []string{"UPI fraud risk controls", "UPI Lite limits", "https://regpulse.example/circulars/" + storetest.SlugUPIFraud, "Asha Payments"} {
			if !strings.Contains(body, want) {
				t.Errorf("the reminder lacks %q", want)
			}
		}
		// A rerun the same day, by this process or another: nothing.
		f.at("2025-06-30T09:00:00Z")
		f.runOK("a")
		f.runOK("b")
		// The next day: the fraud controls are still only due soon
		// (reminded), the refused address is tried again.
		f.at("2025-07-01T07:00:00Z")
		if rep := f.runOK("a"); rep.Sent != 0 || rep.Failed != 1 {
			t.Errorf("the next day: %v", rep)
		}
		// 4 July: the fraud controls are overdue, reminded once more.
		f.at("2025-07-04T08:00:00Z")
		f.runOK("a")
		f.at("2025-07-05T08:00:00Z")
		f.runOK("a")
		got = f.got()
		if want := []string{"RegPulse reminder: 1 overdue, 1 due within 7 days", "RegPulse reminder: 1 overdue"}; strings.Join(got[ravi.Email], "|") != strings.Join(want, "|") {
			t.Errorf("ravi received %q, want %q", got[ravi.Email], want)
		}
		if len(got[meera.Email])+len(got[vik.Email]) != 0 {
			t.Errorf("meera (reminders off) or vik (nothing due) received: %v", got)
		}
		if list, err := f.db.Bouncing(t.Context()); err != nil || len(list) != 1 || list[0].Email != bounce.Email || list[0].Failures < 2 {
			t.Errorf("refusals: %+v, %v", list, err)
		}
	})
}

// crashAfter is a transport that dies (cancels the run) right after the
// server accepted its n-th message, before the run records it.
type crashAfter struct {
	mail.Transport
	n      int
	cancel context.CancelFunc
}

func (c *crashAfter) Deliver(ctx context.Context, m *gomail.Msg, name string) error {
	err := c.Transport.Deliver(ctx, m, name)
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return err
}

// TestRemind_CrashAndTwoSenders: a run that dies after the server took
// two e-mails, then two senders at once after its lease ran out: every
// member gets exactly one reminder.
func TestRemind_CrashAndTwoSenders(t *testing.T) {
	t.Parallel()
	forEachStore(t, func(t *testing.T, open func(...store.Option) *store.DB) {
		f := newFixture(t, open)
		f.mail.Once = true
		var users []auth.User
		for i, slug := range []string{storetest.SlugUPIFraud, storetest.SlugUPILite, storetest.SlugCyber, storetest.SlugTokenisation, storetest.SlugBimaSugam} {
			u := f.member("u"+string(rune('a'+i)), true)
			f.decide(slug, u, "2025-07-02")
			users = append(users, u)
		}
		f.at("2025-06-30T07:00:00Z")
		ctx, cancel := context.WithCancel(t.Context())
		if _, err := f.run(ctx, "a", func(tr mail.Transport) mail.Transport { return &crashAfter{Transport: tr, n: 2, cancel: cancel} }); err == nil {
			t.Fatal("the crashed run did not fail")
		}
		if n := len(f.mail.Received()); n != 2 {
			t.Fatalf("the crashed run sent %d, want 2", n)
		}
		// Within the crashed run's lease no one takes the day up; after
		// it, two senders at once finish it.
		f.at("2025-06-30T08:00:00Z")
		if rep := f.runOK("b"); rep.Sent != 0 {
			t.Errorf("within the lease: %v", rep)
		}
		f.at("2025-06-30T09:30:00Z")
		var wg sync.WaitGroup
		for _, h := range []string{"c", "d"} {
			wg.Go(func() {
				if _, err := f.run(t.Context(), h, nil); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got := f.got()
		for _, u := range users {
			if len(got[u.Email]) != 1 {
				t.Errorf("%s received %d reminders, want exactly 1", u.Email, len(got[u.Email]))
			}
		}
	})
}
