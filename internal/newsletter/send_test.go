package newsletter_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"regpulse/api"
	"regpulse/internal/catalog"
	"regpulse/internal/mail"
	"regpulse/internal/mail/smtptest"
	"regpulse/internal/newsletter"
	"regpulse/internal/store"
	"regpulse/internal/store/storetest"
)

// digestFixture is a store with subscribers and a renderer for June 2025.
type digestFixture struct {
	db     *store.DB
	tokens *newsletter.Tokens
	rd     *newsletter.Renderer
	subs   map[string]newsletter.Subscriber // by address
}

func newDigestFixture(t *testing.T, month string, signups ...newsletter.Signup) *digestFixture {
	t.Helper()
	db, err := store.Open(t.Context(), filepath.Join(t.TempDir(), "regpulse.db"), store.WithNow(storetest.Clock))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &digestFixture{db: db, subs: map[string]newsletter.Subscriber{}}
	for _, s := range signups {
		sub, _, err := db.Subscribe(t.Context(), s)
		if err != nil {
			t.Fatal(err)
		}
		f.subs[s.Email] = sub
	}
	if f.tokens, err = newsletter.NewTokens([]byte("digest-test-secret-digest-test-secret")); err != nil {
		t.Fatal(err)
	}
	m, err := newsletter.ParseMonth(month)
	if err != nil {
		t.Fatal(err)
	}
	if f.rd, err = newsletter.NewRenderer(newsletter.NewIssue(storetest.Catalog(), m), "https://regpulse.example/", f.tokens); err != nil {
		t.Fatal(err)
	}
	return f
}

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

func sendOpts() newsletter.Options {
	return newsletter.Options{From: "RegPulse <newsletter@regpulse.example>", Now: storetest.Clock, Log: quietLog}
}

// parts reads a message's text and HTML alternatives.
func parts(t *testing.T, msg *netmail.Message) (text, html string) {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative", msg.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return text, html
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p) // quoted-printable is decoded by NextPart
		if err != nil {
			t.Fatal(err)
		}
		switch ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type")); ct {
		case "text/plain":
			text = string(b)
		case "text/html":
			html = string(b)
		}
	}
}

func TestDigest_SendSMTP(t *testing.T) {
	f := newDigestFixture(t, "2025-06",
		newsletter.Signup{Email: "reg@example.com", FirstName: "Asha", Preferences: []string{"regulatory"}},
		newsletter.Signup{Email: "bounce@example.com"},
		newsletter.Signup{Email: "events@example.com", Preferences: []string{"events"}},
		newsletter.Signup{Email: "fin@example.com", Preferences: []string{"fintech", "compliance"}},
	)
	ms := smtptest.Start(t, "bounce@example.com")
	ms.Once = true
	send := func() newsletter.Report {
		t.Helper()
		tr, err := mail.NewSMTP(ms.URL())
		if err != nil {
			t.Fatal(err)
		}
		defer tr.Close()
		rep, err := newsletter.Send(t.Context(), f.db, tr, f.rd, sendOpts())
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := send()
	if rep.Sent != 3 || rep.Failed != 1 || rep.Skipped != 0 || !strings.Contains(rep.Failures["bounce@example.com"], "550") {
		t.Fatalf("first run: %+v", rep)
	}
	got := firstOf(ms.Received())
	if len(got) != 3 {
		t.Fatalf("server received %d messages, want 3", len(got))
	}

	// What each subscriber's topics select.
	sections := []string{"Regulatory updates", "Compliance insights", "Fintech news", "Upcoming events"}
	wantSections := map[string][]string{
		"reg@example.com":    {"Regulatory updates"},
		"events@example.com": {"Upcoming events"},
		"fin@example.com":    {"Compliance insights", "Fintech news"},
	}
	var unsubscribeURL string
	for to, raw := range got {
		t.Run(to, func(t *testing.T) {
			msg, err := netmail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			h := msg.Header
			sub := f.subs[to]
			wantID := "<digest-2025-06-" + sub.ID + "@regpulse.example>"
			if h.Get("Message-Id") != wantID {
				t.Errorf("Message-ID %q, want %q", h.Get("Message-Id"), wantID)
			}
			if d, err := h.Date(); err != nil || !d.Equal(storetest.Now) {
				t.Errorf("Date %q (%v), want %v", h.Get("Date"), err, storetest.Now)
			}
			lu := h.Get("List-Unsubscribe")
			wantLU := "<https://regpulse.example/api/newsletter/unsubscribe?token=" + url.QueryEscape(f.tokens.Token(sub.ID)) +
				">, <mailto:newsletter@regpulse.example?subject=unsubscribe>"
			if lu != wantLU {
				t.Errorf("List-Unsubscribe\n got %s\nwant %s", lu, wantLU)
			}
			if h.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
				t.Errorf("List-Unsubscribe-Post %q", h.Get("List-Unsubscribe-Post"))
			}
			if s := h.Get("Subject"); s != "RegPulse monthly update: June 2025" {
				t.Errorf("Subject %q", s)
			}
			text, html := parts(t, msg)
			if !strings.Contains(html, "Unsubscribe</a>") || !strings.Contains(text, "Unsubscribe: https://regpulse.example/api/newsletter/unsubscribe?token=") {
				t.Errorf("the body has no unsubscribe link")
			}
			var have []string
			for _, s := range sections {
				inHTML, inText := strings.Contains(html, s), strings.Contains(text, strings.ToUpper(s))
				if inHTML != inText {
					t.Errorf("section %q: in HTML %v, in text %v", s, inHTML, inText)
				}
				if inHTML {
					have = append(have, s)
				}
			}
			if diff := cmp.Diff(wantSections[to], have); diff != "" {
				t.Errorf("sections (-want +got):\n%s", diff)
			}
			if to == "reg@example.com" {
				unsubscribeURL = strings.TrimSuffix(strings.TrimPrefix(strings.Split(lu, ", ")[0], "<"), ">")
				for _, want := range []string{"Hello Asha,", "UPI fraud risk controls", "https://regpulse.example/circulars/" + storetest.SlugUPIFraud,
					"High impact", "Fraud controls for UPI.", ">RBI</h3>", ">NPCI</h3>", ">IRDAI</h3>"} {
					if !strings.Contains(html, want) {
						t.Errorf("HTML lacks %q", want)
					}
				}
				if strings.Contains(html, "Card tokenisation") {
					t.Errorf("a circular of another month is in June's digest")
				}
				// Each circular says how far it was checked, as its page does.
				for _, want := range []string{catalog.VerificationLabel("checked"), catalog.VerificationLabel("reported")} {
					if !strings.Contains(html, want) {
						t.Errorf("HTML lacks the label %q", want)
					}
				}
				if want := "[Medium impact] [" + catalog.VerificationLabel("reported") + "] UPI Lite limits"; !strings.Contains(text, want) {
					t.Errorf("text lacks %q", want)
				}
			}
		})
	}

	t.Run("RerunSendsNothingTwice", func(t *testing.T) {
		rep := send()
		if rep.Sent != 0 || rep.Skipped != 3 || rep.Failed != 1 {
			t.Errorf("second run: %+v", rep)
		}
		if n := len(ms.Received()); n != 3 {
			t.Errorf("server holds %d messages after the re-run, want 3", n)
		}
	})

	t.Run("UnsubscribeLinkWorks", func(t *testing.T) {
		h := api.New(f.db, quietLog, api.WithNewsletter(api.NewsletterConfig{Tokens: f.tokens}))
		u, err := url.Parse(unsubscribeURL)
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("POST", strings.TrimPrefix(u.Path, "/api")+"?"+u.RawQuery, strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Fatalf("one-click POST = %d %s", rec.Code, rec.Body)
		}
		active, err := f.db.ActiveSubscribers(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range active {
			if s.Email == "reg@example.com" {
				t.Errorf("still subscribed after the link's one-click POST")
			}
		}
	})
}

// TestDigest_Resume: a subscriber whose delivery a crashed run had claimed
// is not sent again; the others are.
func TestDigest_Resume(t *testing.T) {
	f := newDigestFixture(t, "2025-06", newsletter.Signup{Email: "a@example.com"}, newsletter.Signup{Email: "b@example.com"})
	if ok, err := f.db.ClaimDelivery(t.Context(), f.subs["a@example.com"].ID, "2025-06", "x@y"); !ok || err != nil {
		t.Fatal(ok, err)
	}
	dir := t.TempDir()
	rep, err := newsletter.Send(t.Context(), f.db, mail.Dir{Path: dir}, f.rd, sendOpts())
	if err != nil || rep.Sent != 1 || rep.Skipped != 1 {
		t.Fatalf("resumed run: %+v %v", rep, err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	if diff := cmp.Diff([]string{filepath.Join(dir, f.subs["b@example.com"].ID+".eml")}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestDigest_NoCirculars(t *testing.T) {
	f := newDigestFixture(t, "2025-02", newsletter.Signup{Email: "a@example.com"})
	dir := t.TempDir()
	rep, err := newsletter.Send(t.Context(), f.db, mail.Dir{Path: dir}, f.rd, sendOpts())
	if err != nil || rep.Sent != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, f.subs["a@example.com"].ID+".eml"))
	if err != nil {
		t.Fatal(err)
	}
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	text, html := parts(t, msg)
	if !strings.Contains(text, "NO NEW CIRCULARS THIS MONTH") || !strings.Contains(html, "No new circulars this month.") {
		t.Errorf("a month without circulars does not say so:\n%s", text)
	}
}

func TestDigest_DryRun(t *testing.T) {
	f := newDigestFixture(t, "2025-06", newsletter.Signup{Email: "a@example.com"})
	o := sendOpts()
	o.DryRun = true
	for range 2 {
		rep, err := newsletter.Send(t.Context(), f.db, mail.Dir{Path: t.TempDir()}, f.rd, o)
		if err != nil || rep.Sent != 1 {
			t.Fatalf("%+v %v", rep, err)
		}
	}
	if got, _ := f.db.Deliveries(t.Context(), "2025-06"); len(got) != 0 {
		t.Errorf("a dry run recorded deliveries: %v", got)
	}
}

func BenchmarkDigest_Render10000(b *testing.B) {
	tokens, _ := newsletter.NewTokens([]byte("bench-secret-bench-secret-bench-secret"))
	m, _ := newsletter.ParseMonth("2025-06")
	cat := storetest.Catalog()
	cat.Circulars = append(cat.Circulars, storetest.Circulars(2000)...) // about 17 in June 2025
	subs := make([]newsletter.Subscriber, 10000)
	for i := range subs {
		subs[i] = newsletter.Subscriber{ID: fmt.Sprintf("00000000-0000-0000-0000-%012d", i), Email: fmt.Sprintf("s%d@example.com", i),
			Preferences: newsletter.Topics[:1+i%len(newsletter.Topics)]}
	}
	b.ReportAllocs()
	for b.Loop() {
		rd, err := newsletter.NewRenderer(newsletter.NewIssue(cat, m), "https://regpulse.example/", tokens)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range subs {
			if _, err := rd.Render(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// firstOf is each recipient's one message.
func firstOf(got map[string][][]byte) map[string][]byte {
	out := map[string][]byte{}
	for k, v := range got {
		out[k] = v[0]
	}
	return out
}
