package alerts_test

import (
	"context"
	"fmt"
	"mime"
	netmail "net/mail"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"regpulse/internal/alerts"
	"regpulse/internal/auth"
	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// fixture is a store holding the storetest catalog (already matched: not
// news), a clock the test moves, and users with alerts.
type fixture struct {
	t      *testing.T
	db     *store.DB
	cat    *catalog.Catalog
	mu     sync.Mutex
	now    time.Time
	links  *alerts.Links
	tokens *alerts.Tokens
	mail   *smtptest.Server
	n      int
}

func newFixture(t *testing.T, reject ...string) *fixture {
	t.Helper()
	f := &fixture{t: t, cat: storetest.Catalog(), now: storetest.Now}
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "regpulse.db"), store.WithNow(f.clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f.db = db
	if _, err := db.SyncCatalog(t.Context(), f.cat); err != nil {
		t.Fatal(err)
	}
	arr, _ := db.Arrivals(t.Context(), 100)
	if err := db.RecordMatches(t.Context(), arr, nil); err != nil {
		t.Fatal(err)
	}
	f.tokens, _ = alerts.NewTokens([]byte("0123456789abcdef0123456789abcdef"))
	f.links, _ = alerts.NewLinks("https://regpulse.example/", f.tokens)
	f.mail = smtptest.Start(t, reject...)
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

// user signs up name with entity types and returns the user.
func (f *fixture) user(name string, choices auth.Choices) auth.User {
	f.t.Helper()
	u, err := f.db.CreateUser(f.t.Context(), auth.NewUser{Username: name, Email: name + "@example.com", PasswordHash: "x", FirstName: name, LastName: "T"})
	if err != nil {
		f.t.Fatal(err)
	}
	if _, err := f.db.SavePreferences(f.t.Context(), u.ID, choices); err != nil {
		f.t.Fatal(err)
	}
	return u
}

func (f *fixture) search(u auth.User, name, query, frequency string) alerts.Alert {
	f.t.Helper()
	a, err := f.db.CreateAlert(f.t.Context(), alerts.Alert{UserID: u.ID, Name: name, Query: query, Frequency: frequency, Enabled: true})
	if err != nil {
		f.t.Fatal(err)
	}
	return a
}

// publish adds a circular (as a sync of a content change would).
func (f *fixture) publish(c catalog.Circular) {
	f.t.Helper()
	f.cat.Circulars = append([]catalog.Circular{c}, f.cat.Circulars...)
	if _, err := f.db.SyncCatalog(f.t.Context(), f.cat); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) newCircular(title, source, docType string) catalog.Circular {
	f.n++
	c := storetest.Circular(fmt.Sprintf("rbi-2025-07-%02d-new-%d", 1+f.n%27, f.n), source, "UPI", "2025-07-01", "high", "PSP", "high", "Issuer", "low")
	c.Title, c.DocumentType, c.OfficialURL = title, docType, catalog.OptString("https://www.rbi.org.in/official-"+fmt.Sprint(f.n))
	c.Summary = catalog.OptString("What changes: " + title + ".")
	return c
}

func (f *fixture) run(holder string, o ...func(*alerts.Options)) alerts.Report {
	f.t.Helper()
	rep, err := f.runCtx(f.t.Context(), holder, nil, o...)
	if err != nil {
		f.t.Fatal(err)
	}
	return rep
}

func (f *fixture) runCtx(ctx context.Context, holder string, wrap func(mail.Transport) mail.Transport, o ...func(*alerts.Options)) (alerts.Report, error) {
	snd, _ := mail.NewSender("RegPulse Alerts <alerts@regpulse.example>", "")
	opts := alerts.Options{Links: f.links, Tokens: f.tokens, Sender: snd, Holder: holder, Now: f.clock}
	for _, fn := range o {
		fn(&opts)
	}
	smtp, err := mail.NewSMTP(f.mail.URL())
	if err != nil {
		f.t.Fatal(err)
	}
	var tr mail.Transport = smtp
	if wrap != nil {
		tr = wrap(smtp)
	}
	defer tr.Close()
	return alerts.Run(ctx, f.db, tr, opts)
}

// got is how many e-mails each address received.
func (f *fixture) got() map[string]int {
	out := map[string]int{}
	for to, ms := range f.mail.Received() {
		out[to] = len(ms)
	}
	return out
}

func parse(t *testing.T, b []byte) *netmail.Message {
	t.Helper()
	m, err := netmail.ReadMessage(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRun_ImmediateDailyWeekly(t *testing.T) {
	f := newFixture(t, "bounce@example.com")
	ctx := t.Context()
	asha := f.user("asha", auth.Choices{EntityTypes: []string{"PSP"}, EmailNotifications: false})
	f.search(asha, "UPI fraud", "upi fraud", alerts.Immediately)
	ravi := f.user("ravi", auth.Choices{CircularSources: []string{"RBI"}, EmailNotifications: true}) // the preferences alert, daily
	meera := f.user("meera", auth.Choices{EmailNotifications: false})
	f.search(meera, "Weekly UPI", "upi", alerts.Weekly)
	bounce := f.user("bounce", auth.Choices{EmailNotifications: false})
	f.search(bounce, "UPI", "upi", alerts.Immediately)
	// A weak match (a word only in the text) is not sent; a draft is marked.
	weak := f.newCircular("Card tokenisation rules", "RBI", "circular")
	weak.Content = "This mentions upi fraud once in its text."
	f.at("2025-07-01T05:00:00Z") // a Tuesday, before the digest hour
	f.publish(weak)
	draft := f.newCircular("UPI fraud reporting draft", "RBI", "draft")
	f.publish(draft)

	rep := f.run("a")
	if rep.Sent != 1 || rep.Failed != 1 {
		t.Fatalf("immediate run: %s", rep)
	}
	got := f.mail.Received()
	if len(got["asha@example.com"]) != 1 || len(got["ravi@example.com"]) != 0 || len(got["meera@example.com"]) != 0 {
		t.Fatalf("after the immediate run: %v", f.got())
	}
	m := parse(t, got["asha@example.com"][0])
	body, _ := readAll(m)
	for _, want := range []string{"UPI fraud reporting draft", "Draft for comments: NOT BINDING", "High impact for PSP",
		"https://regpulse.example/circulars/" + draft.Slug, "Official document: " + string(draft.OfficialURL), "Manage your alerts: https://regpulse.example/profile#alerts",
		"What changes: UPI fraud reporting draft."} {
		if !strings.Contains(body, want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, weak.Title) {
		t.Error("a circular mentioning the words only in its text was sent")
	}
	if s := m.Header.Get("Subject"); s != "RegPulse alert: UPI fraud reporting draft" {
		t.Errorf("subject %q", s)
	}
	lu := m.Header.Get("List-Unsubscribe")
	if !strings.HasPrefix(lu, "<https://regpulse.example/api/alerts/unsubscribe?token=") || !strings.Contains(lu, "mailto:alerts@regpulse.example") ||
		m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" || !strings.HasPrefix(m.Header.Get("Message-Id"), "<alert-") {
		t.Errorf("headers: %v", m.Header)
	}
	token := lu[strings.Index(lu, "token=")+6 : strings.Index(lu, ">")]
	if id, err := f.tokens.ParseUnsubscribe(token); err != nil || id == "" {
		t.Errorf("the unsubscribe token: %q %v", id, err)
	}

	t.Run("Rerun", func(t *testing.T) {
		f.at("2025-07-01T05:01:00Z")
		if rep := f.run("a"); rep.Sent != 0 {
			t.Errorf("a rerun sent %d", rep.Sent)
		}
	})
	t.Run("Daily", func(t *testing.T) {
		f.at("2025-07-01T07:05:00Z")
		rep := f.run("a")
		got := f.mail.Received()
		if len(got["ravi@example.com"]) != 1 || len(got["meera@example.com"]) != 0 || rep.Sent != 1 {
			t.Fatalf("daily run: %s, %v", rep, f.got())
		}
		m := parse(t, got["ravi@example.com"][0])
		if s := m.Header.Get("Subject"); s != `RegPulse daily digest "My preferences": 2 new circulars` {
			t.Errorf("daily subject %q", s)
		}
		f.at("2025-07-01T09:00:00Z")
		if rep := f.run("a"); rep.Sent != 0 {
			t.Errorf("the day's digest ran twice: %s", rep)
		}
		a, _ := f.db.UserAlerts(ctx, ravi.ID)
		if a[0].LastSentAt == nil || !a[0].LastSentAt.Equal(time.Date(2025, 7, 1, 7, 5, 0, 0, time.UTC)) {
			t.Errorf("last sent %v", a[0].LastSentAt)
		}
	})
	t.Run("Weekly", func(t *testing.T) {
		f.at("2025-07-07T07:00:00Z") // Monday
		rep := f.run("a")
		got := f.mail.Received()
		if len(got["meera@example.com"]) != 1 {
			t.Fatalf("weekly run: %s, %v", rep, f.got())
		}
		if s := parse(t, got["meera@example.com"][0]).Header.Get("Subject"); s != `RegPulse weekly digest "Weekly UPI": 1 new circular` {
			t.Errorf("weekly subject %q", s)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		// The refused address was tried at each run since (its match is
		// given back each time): after BounceAfter refusals it is bouncing.
		for i := 0; ; i++ {
			b, err := f.db.Bouncing(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) == 1 && b[0].Bouncing {
				if b[0].Email != "bounce@example.com" || b[0].Failures != alerts.BounceAfter || !strings.Contains(b[0].LastError, "550") {
					t.Errorf("bouncing: %+v", b[0])
				}
				break
			}
			if i > alerts.BounceAfter {
				t.Fatalf("not bouncing after %d runs: %+v", i, b)
			}
			f.at(fmt.Sprintf("2025-07-07T08:%02d:00Z", i))
			f.run("a")
		}
		f.at("2025-07-07T09:00:00Z")
		if rep := f.run("a"); rep.Failed != 0 {
			t.Errorf("a bouncing address was tried again: %s", rep)
		}
	})
	_ = bounce
}

func readAll(m *netmail.Message) (string, error) {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := m.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return decodeQP(b.String()), nil
}

// decodeQP undoes quoted-printable soft breaks and =XX escapes, enough
// to read the e-mail's text.
func decodeQP(s string) string {
	s = strings.ReplaceAll(s, "=\r\n", "")
	s = strings.ReplaceAll(s, "=\n", "")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && i+2 < len(s) {
			var v byte
			if _, err := fmt.Sscanf(s[i+1:i+3], "%02X", &v); err == nil {
				b.WriteByte(v)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func TestRun_Fold(t *testing.T) {
	f := newFixture(t)
	asha := f.user("asha", auth.Choices{EmailNotifications: false})
	f.search(asha, "UPI", "upi", alerts.Immediately)
	fold := func(o *alerts.Options) { o.FoldAfter = 2 }
	for i := range 5 {
		f.at(fmt.Sprintf("2025-07-01T0%d:00:00Z", i+1)) // 01:00 to 05:00, before the digest hour
		f.publish(f.newCircular(fmt.Sprintf("UPI change %d", i+1), "NPCI", "circular"))
		f.run("a", fold)
	}
	if n := f.got()["asha@example.com"]; n != 2 {
		t.Fatalf("before the digest hour: %d e-mails, want the cap of 2", n)
	}
	f.at("2025-07-01T07:00:00Z")
	rep := f.run("a", fold)
	got := f.mail.Received()["asha@example.com"]
	if len(got) != 3 || rep.Sent != 1 {
		t.Fatalf("the fold: %d e-mails, %s", len(got), rep)
	}
	m := parse(t, got[2])
	body, _ := readAll(m)
	if s := m.Header.Get("Subject"); s != `RegPulse alert "UPI": 3 new circulars more today, in one e-mail` {
		t.Errorf("fold subject %q", s)
	}
	if !strings.Contains(body, "This alert sends at most 2 e-mails a day. The 3 circulars it matched after that are gathered in this one e-mail") {
		t.Errorf("the fold does not say so:\n%s", body)
	}
	for i := 3; i <= 5; i++ {
		if !strings.Contains(body, fmt.Sprintf("UPI change %d", i)) {
			t.Errorf("the fold lacks change %d", i)
		}
	}
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

func TestRun_CrashAndTwoSenders(t *testing.T) {
	f := newFixture(t)
	var users []auth.User
	for i := range 6 {
		u := f.user(fmt.Sprintf("u%d", i), auth.Choices{EmailNotifications: false})
		f.search(u, "UPI", "upi", alerts.Immediately)
		users = append(users, u)
	}
	f.at("2025-07-01T05:00:00Z")
	f.publish(f.newCircular("UPI limits", "NPCI", "circular"))
	ctx, cancel := context.WithCancel(t.Context())
	_, err := f.runCtx(ctx, "a", func(tr mail.Transport) mail.Transport {
		return &crashAfter{Transport: tr, n: 2, cancel: cancel}
	})
	if err == nil {
		t.Fatal("the crashed run did not fail")
	}
	if n := len(f.mail.Received()); n != 2 {
		t.Fatalf("the crashed run sent %d, want 2", n)
	}
	// Two senders at once, in two minutes' runs (so both get their run's
	// lock) and in the same one: each address gets its e-mail once.
	f.at("2025-07-01T05:01:00Z")
	var wg sync.WaitGroup
	for _, h := range []string{"b", "c"} {
		wg.Go(func() {
			if _, err := f.runCtx(t.Context(), h, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	f.at("2025-07-01T05:02:00Z")
	f.run("d")
	got := f.got()
	for _, u := range users {
		if got[u.Email] != 1 {
			t.Errorf("%s got %d e-mails, want exactly 1", u.Email, got[u.Email])
		}
	}
}

// TestRun_ReadersLanguage: each alert e-mail is in its user's stored
// language (users.language): a user who reads Hindi gets the subject,
// the words, the dates and the links in Hindi, one who reads English
// the same e-mail as ever.
func TestRun_ReadersLanguage(t *testing.T) {
	f := newFixture(t)
	for _, u := range []struct{ name, lang string }{{"asha", "hi"}, {"ravi", "en"}} {
		usr, err := f.db.CreateUser(t.Context(), auth.NewUser{Username: u.name, Email: u.name + "@example.com", PasswordHash: "x",
			FirstName: u.name, LastName: "T", Language: u.lang})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.db.SavePreferences(t.Context(), usr.ID, auth.Choices{EntityTypes: []string{"PSP"}}); err != nil {
			t.Fatal(err)
		}
		f.search(usr, "UPI fraud", "upi fraud", alerts.Immediately)
	}
	f.at("2025-07-01T05:00:00Z")
	c := f.newCircular("UPI fraud reporting draft", "RBI", "draft")
	f.publish(c)
	if rep := f.run("a"); rep.Sent != 2 {
		t.Fatalf("run: %s", rep)
	}
	got := f.mail.Received()
	dec := new(mime.WordDecoder)
	for _, tc := range []struct {
		to, subject string
		want        []string
	}{
		{"asha@example.com", "RegPulse अलर्ट: UPI fraud reporting draft", []string{"REGPULSE अलर्ट · तुरंत", "टिप्पणियों के लिए मसौदा: बाध्यकारी नहीं",
			"PSP के लिए उच्च प्रभाव", "1 जुलाई 2025", "https://regpulse.example/hi/circulars/" + c.Slug,
			"अपने अलर्ट प्रबंधित करें: https://regpulse.example/hi/profile#alerts"}},
		{"ravi@example.com", "RegPulse alert: UPI fraud reporting draft", []string{"REGPULSE ALERT · IMMEDIATELY", "Draft for comments: NOT BINDING",
			"High impact for PSP", "1 July 2025", "https://regpulse.example/circulars/" + c.Slug, "Manage your alerts: https://regpulse.example/profile#alerts"}},
	} {
		if len(got[tc.to]) != 1 {
			t.Fatalf("%s received %d e-mails", tc.to, len(got[tc.to]))
		}
		m := parse(t, got[tc.to][0])
		if s, err := dec.DecodeHeader(m.Header.Get("Subject")); err != nil || s != tc.subject {
			t.Errorf("%s: subject %q (%v), want %q", tc.to, s, err, tc.subject)
		}
		body, _ := readAll(m)
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: the e-mail lacks %q:\n%s", tc.to, w, body)
			}
		}
	}
}

// TestRun_ConfirmationLanguage: an anonymous subscription's confirmation
// is in the language it was made in.
func TestRun_ConfirmationLanguage(t *testing.T) {
	f := newFixture(t)
	for _, a := range []alerts.Alert{
		{Email: "reader@example.com", Name: "upi", Query: "upi", Frequency: alerts.Daily, Enabled: true, Language: "hi"},
		{Email: "other@example.com", Name: "upi", Query: "upi", Frequency: alerts.Daily, Enabled: true},
	} {
		if _, err := f.db.CreateAlert(t.Context(), a); err != nil {
			t.Fatal(err)
		}
	}
	if rep := f.run("a"); rep.Confirmations != 2 {
		t.Fatalf("run: %s", rep)
	}
	got := f.mail.Received()
	for to, want := range map[string]string{"reader@example.com": `अपने RegPulse अलर्ट "upi" की पुष्टि करें`, "other@example.com": `Confirm your RegPulse alert "upi"`} {
		if len(got[to]) != 1 {
			t.Fatalf("%s received %d e-mails", to, len(got[to]))
		}
		if s, err := new(mime.WordDecoder).DecodeHeader(parse(t, got[to][0]).Header.Get("Subject")); err != nil || s != want {
			t.Errorf("%s: subject %q (%v), want %q", to, s, err, want)
		}
	}
}
